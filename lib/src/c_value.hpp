// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin's values in the C API's numbers (egtmin/probe.h: EGTMIN_LOSS .. EGTMIN_WIN, Fathom's
// order): the one conversion, for the library and for the programs that check it against the core.
#pragma once

#include <cstddef>

#include "egtmin/probe.h"
#include "table/wdl.hpp"

namespace egtmin::capi {

// By Wdl code (Illegal, Win, Draw, Loss, CursedWin, BlessedLoss): a table, which the probe's hot
// path reads with one load.
inline constexpr int kValueOf[kWdlCodes] = {EGTMIN_ERR_POSITION, EGTMIN_WIN,        EGTMIN_DRAW,
                                            EGTMIN_LOSS,         EGTMIN_CURSED_WIN, EGTMIN_BLESSED_LOSS};

// The value for the side to move as the C API returns it; Illegal gives EGTMIN_ERR_POSITION.
constexpr int c_value(Wdl v) { return kValueOf[size_t(v)]; }

}  // namespace egtmin::capi
