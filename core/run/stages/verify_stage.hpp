// SPDX-License-Identifier: GPL-3.0-or-later
// The verify stage: the table compared with Syzygy's WDL file on every legal position, when the
// batch is given Syzygy's directory. A balance Syzygy's directory has no file for is not compared,
// and the self-check stays its proof.
#pragma once

#include "run/stage.hpp"

namespace egtmin::run {

template <>
struct Stage<BatchStage::Verify> {
  struct Results {
    bool syzygy_compared = false;
    uint64_t syzygy_positions = 0;
    uint64_t syzygy_mismatches = 0;
  };
  template <class R, class Visit>
  static void each(R& r, Visit&& v) {
    v("syzygy_compared", r.syzygy_compared);
    v("syzygy_positions", r.syzygy_positions);
    v("syzygy_mismatches", r.syzygy_mismatches);
  }
  static void run(StageContext& c, Results& r);
  static std::string summary(const StageFigures& f, const Results& r);
  static bool outputs_there(const std::filesystem::path&, const Balance&, const Results&) { return true; }
  // The table loaded, and Syzygy's file mapped beside it.
  static uint64_t expected_memory_bytes(const Balance& b, int cpus);
  static constexpr SlotRate kSecondsPerSlot = SlotRate::by_pawns(2e-6, 2e-6);
};

}  // namespace egtmin::run
