// SPDX-License-Identifier: GPL-3.0-or-later
// Proves the probe itself exact, not only the cover: legal positions of a balance through
// CoverProber::probe_wdl, the hot path engines and the benchmark use (front line, tree or region
// index with its fallback values, the 50-move rule's draws, colour and board transforms, and the
// capture search of capture-resolved covers), against the table, on all five values. The index is
// derived from the cover (and read from its layout file), so `check` proves the cover and this
// proves what answers.
#pragma once

#include "logic/check.hpp"
#include "probe/cover_prober.hpp"
#include "probe/probe_check_scope.hpp"
#include "table/table.hpp"
#include "util/progress.hpp"

namespace egtmin::probe {

// The member of representative `rep`'s class (at table slot `slot`) that OneOfEachClass probes:
// its image under a board transform spread over the group by a hash of the slot (s % group would
// follow the last piece's square).
Placement member_to_probe(const Symmetry& sym, uint64_t slot, const Placement& rep);

// The prober must hold the table's balance. Threads (0: default_threads()) split the work.
logic::CheckReport check_probe(const Table& table, const CoverProber& prober, int threads = 1,
                               const Progress& progress = no_progress(),
                               ProbeCheckScope scope = ProbeCheckScope::OneOfEachClass);

}  // namespace egtmin::probe
