// SPDX-License-Identifier: GPL-3.0-or-later
// The minimize-cr stage: the balance's capture-resolved cover (NAME.egtcr, with its probe
// layout), made as `minimize --capture-resolved` makes it. It needs the table, not the standalone
// cover, and refuses to start while a cover its capture search probes is missing.
#pragma once

#include "run/run_plan.hpp"
#include "run/stage.hpp"

namespace egtmin::run {

template <>
struct Stage<BatchStage::MinimizeCr> {
  struct Results {
    uint64_t expected_peak_bytes = 0;
    double cpu_seconds = 0;
    uint64_t cubes = 0;
    uint64_t rule_draws = 0;
    uint64_t cover_bytes = 0;
    uint64_t search_positions = 0;   // left to the probe's capture search (wins, and at most a draw)
    bool reused_standalone = false;  // none left: the standalone cover saved again (no pass ran)
  };
  template <class R, class Visit>
  static void each(R& r, Visit&& v) {
    v("cr_minimize_expected_peak_bytes", r.expected_peak_bytes);
    v("cr_minimize_cpu_seconds", r.cpu_seconds);
    v("cr_cubes", r.cubes);
    v("cr_rule_draws", r.rule_draws);
    v("cr_cover_bytes", r.cover_bytes);
    v("cr_search_positions", r.search_positions);
    v("cr_reused_standalone", r.reused_standalone);
  }
  static void run(StageContext& c, Results& r);
  static std::string summary(const StageFigures& f, const Results& r);
  static bool outputs_there(const std::filesystem::path& data_dir, const Balance& b, const Results&) {
    return cover_exists(data_dir, b, store::CoverKind::CaptureResolved);
  }
  // The resolved copy and the tables the captures reach load beside the table.
  static uint64_t expected_memory_bytes(const Balance& b, int cpus) {
    return minimize_peak_bytes(b, cpus, store::CoverKind::CaptureResolved);
  }
  static constexpr SlotRate kSecondsPerSlot{1.6e-7, 3.0e-7, 5.5e-8, 2.0e-7};
};

}  // namespace egtmin::run
