// SPDX-License-Identifier: GPL-3.0-or-later
// The minimize stage: the balance's standalone cover (NAME.egtc, with its probe layout), made as
// `minimize` makes it.
#pragma once

#include "logic/pipeline.hpp"
#include "run/run_plan.hpp"
#include "run/stage.hpp"

namespace egtmin::run {

template <>
struct Stage<BatchStage::Minimize> {
  struct Results {
    uint64_t expected_peak_bytes = 0;
    double cpu_seconds = 0;
    uint64_t cubes = 0;
    uint64_t rule_draws = 0;
    uint64_t cover_bytes = 0;
    uint64_t layout_bytes = 0;    // the cover's probe layout: what probing at speed keeps on disk
    uint32_t layout_version = 0;  // its format version: a later one may take other bytes (0: none)
    std::vector<int> split_inputs;
    uint64_t care_positions = 0;
    // Per pass, over parts summed (logic::Minimized::reports): where the minimization's time goes.
    std::vector<logic::PassReport> passes;
  };
  template <class R, class Visit>
  static void each(R& r, Visit&& v) {
    v("minimize_expected_peak_bytes", r.expected_peak_bytes);
    v("minimize_cpu_seconds", r.cpu_seconds);
    v("cubes", r.cubes);
    v("rule_draws", r.rule_draws);
    v("cover_bytes", r.cover_bytes);
    v("layout_bytes", r.layout_bytes);
    v("layout_version", r.layout_version);
    v("split_inputs", r.split_inputs);
    v("care_positions", r.care_positions);
    v("passes", r.passes);
  }
  static void run(StageContext& c, Results& r);
  static std::string summary(const StageFigures& f, const Results& r);
  static bool outputs_there(const std::filesystem::path& data_dir, const Balance& b, const Results&) {
    return cover_exists(data_dir, b, store::CoverKind::Standalone);
  }
  static uint64_t expected_memory_bytes(const Balance& b, int cpus) {
    return minimize_peak_bytes(b, cpus, store::CoverKind::Standalone);
  }
  static constexpr SlotRate kSecondsPerSlot = SlotRate::by_pawns(8.7e-7, 1.15e-6);
};

}  // namespace egtmin::run
