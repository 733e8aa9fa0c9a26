// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli bench pipeline: a sample of balances through the capture-resolved batch end to end,
// and the projection for a whole piece count (bench/pipeline_bench.hpp).
#pragma once

#include "common.hpp"

namespace egtmin::cli {

// Adds `pipeline` under `bench`.
Command add_bench_pipeline(CLI::App* bench);

}  // namespace egtmin::cli
