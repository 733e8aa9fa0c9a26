// SPDX-License-Identifier: GPL-3.0-or-later
// The table stage: the balance's table generated and proven by the self-check, or a table made
// before the record existed self-checked now. Tables a missing dependency chain needs are made
// on the way, each recorded as its own balance's table stage.
#pragma once

#include "run/stage.hpp"
#include "table/table.hpp"

namespace egtmin::run {

template <>
struct Stage<BatchStage::Table> {
  struct Results {
    uint64_t expected_peak_bytes = 0;  // the run plan's estimate (run/run_plan.hpp), beside the measured
    double generate_seconds = 0;       // 0: found on disk, self-checked here
    double self_check_seconds = 0;
    uint64_t positions = 0;  // canonical legal positions
    Table::Counts values;
  };
  template <class R, class Visit>
  static void each(R& r, Visit&& v) {
    v("table_expected_peak_bytes", r.expected_peak_bytes);
    v("generate_seconds", r.generate_seconds);
    v("self_check_seconds", r.self_check_seconds);
    v("positions", r.positions);
    v("values", r.values);
  }
  static void run(StageContext& c, Results& r);
  static std::string summary(const StageFigures& f, const Results& r);
  static bool outputs_there(const std::filesystem::path& data_dir, const Balance& b, const Results&);
  static uint64_t expected_memory_bytes(const Balance& b, int cpus);
  static constexpr SlotRate kSecondsPerSlot{1.8e-7, 2.2e-7, 1.2e-7, 1.9e-7};
};

}  // namespace egtmin::run
