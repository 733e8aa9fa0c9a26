// SPDX-License-Identifier: GPL-3.0-or-later
// The check stage: the standalone cover against the table on every legal position.
#pragma once

#include "run/stage.hpp"

namespace egtmin::run {

template <>
struct Stage<BatchStage::Check> {
  struct Results {
    uint64_t checked_positions = 0;
    uint64_t mismatches = 0;
  };
  template <class R, class Visit>
  static void each(R& r, Visit&& v) {
    v("checked_positions", r.checked_positions);
    v("mismatches", r.mismatches);
  }
  static void run(StageContext& c, Results& r);
  static std::string summary(const StageFigures& f, const Results& r);
  static bool outputs_there(const std::filesystem::path&, const Balance&, const Results&) { return true; }
  static uint64_t expected_memory_bytes(const Balance& b, int cpus);
  static constexpr SlotRate kSecondsPerSlot = SlotRate::by_pawns(5.3e-8, 8.6e-8);
};

}  // namespace egtmin::run
