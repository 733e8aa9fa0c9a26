// SPDX-License-Identifier: GPL-3.0-or-later
// The check-cr stage: the capture-resolved cover's proof, every legal position through the
// indexed probe with its capture search, which probes the covers of the balances captures and
// promotions reach, or their tables (batch --successors; `check NAME --capture-resolved --probe`).
// That proves what the cubes answer too; the cubes' own check (against the table with the
// positions left to the capture search open) runs only when the probe disagrees somewhere, to
// say whether the cubes or the search are wrong: it took longer than the probe's proof.
#pragma once

#include "run/stage.hpp"

namespace egtmin::run {

template <>
struct Stage<BatchStage::CheckCr> {
  struct Results {
    uint64_t checked_positions = 0;  // by the cubes (0: not needed, the probe agreed everywhere)
    uint64_t probed_positions = 0;   // through the probe
    uint64_t mismatches = 0;         // of both
    // The probe layout the proof probed through (what probing at speed keeps on disk; zero: none),
    // as it was on disk after the proof, which writes it where it was missing or stale.
    uint64_t layout_bytes = 0;
    uint32_t layout_version = 0;  // its format version: a later one may take other bytes
    bool layout_framed = false;   // its region cubes framed (over the batch's layout bound)
    // Where the capture search's values came from: the covers of the balances it reaches, or
    // their tables (each of those covers proven equal to its table by its own check-cr).
    SuccessorValues successors = SuccessorValues::Covers;
  };
  template <class R, class Visit>
  static void each(R& r, Visit&& v) {
    v("cr_checked_positions", r.checked_positions);
    v("cr_probed_positions", r.probed_positions);
    v("cr_mismatches", r.mismatches);
    v("cr_layout_bytes", r.layout_bytes);
    v("cr_layout_version", r.layout_version);
    v("cr_layout_framed", r.layout_framed);
    v("cr_successors", r.successors);
  }
  static void run(StageContext& c, Results& r);
  static std::string summary(const StageFigures& f, const Results& r);
  // The layout the proof probed is still the one on disk: a layout made again since (another
  // version, framed) is proven again.
  static bool outputs_there(const std::filesystem::path& data_dir, const Balance& b, const Results& r);
  // The tables the captures reach load beside the table, as in the minimization.
  static uint64_t expected_memory_bytes(const Balance& b, int cpus);
  static constexpr SlotRate kSecondsPerSlot{2.1e-8, 4.4e-8, 1.5e-8, 2.8e-8};
};

}  // namespace egtmin::run
