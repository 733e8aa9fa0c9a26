// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli bench engine: a real engine's fixed-depth searches through egtmin's libfathom.so.1 over
// covers against the same searches through the system's libfathom over Syzygy (engine/engine_match.hpp).
#pragma once

#include "common.hpp"

namespace egtmin::cli {

// Adds `engine` under `bench`.
Command add_bench_engine(CLI::App* bench);

}  // namespace egtmin::cli
