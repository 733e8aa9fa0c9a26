// SPDX-License-Identifier: GPL-3.0-or-later
// Proves the probe itself exact, not only the cover: every legal position of a balance through
// CoverProber::probe_wdl, the hot path engines and the benchmark use (front line, tree or region
// index with its fallback values, the 50-move rule's draws, colour and board transforms), against
// the table, on all five values. The index is derived from the cover (and read from its layout
// file), so `check` proves the cover and this proves what answers.
#pragma once

#include "logic/check.hpp"
#include "probe/cover_prober.hpp"
#include "table/table.hpp"
#include "util/progress.hpp"

namespace egtmin::probe {

// The prober must hold the table's balance. Threads (0: default_threads()) split the index space.
logic::CheckReport check_probe(const Table& table, const CoverProber& prober, int threads = 1,
                               const Progress& progress = no_progress());

}  // namespace egtmin::probe
