// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin_options as this library reads them (egtmin/probe.h): as far as the caller's struct_size
// goes. In a file of its own, away from the probe's code, whose inlining it would otherwise sway.
#pragma once

#include "egtmin/probe.h"

namespace egtmin::capi {

// The caller's options (null: the defaults) into `options`: EGTMIN_OK, or EGTMIN_ERR_OPTIONS_SIZE
// with the reason recorded as the thread's last error.
int read_options(const egtmin_options* given, egtmin_options& options);

}  // namespace egtmin::capi
