// SPDX-License-Identifier: GPL-3.0-or-later
// The stages a balance goes through in a batch, in their order: its table (generated and proven
// by the self-check), its table compared with Syzygy (when a Syzygy directory is given), its
// cover, and the cover's exhaustive check; then, when asked for, its capture-resolved cover and
// that cover's exhaustive check through the probe's capture search. A stage needs every earlier
// stage done, except that the Syzygy comparison is optional and nothing waits for it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace egtmin::run {

enum class BatchStage : uint8_t { Table, Verify, Minimize, Check, MinimizeCr, CheckCr };

// The standalone cover's stages: what every batch runs, and what a cluster submits as jobs.
inline constexpr std::array<BatchStage, 4> kBatchStages = {BatchStage::Table, BatchStage::Verify, BatchStage::Minimize,
                                                           BatchStage::Check};
// The capture-resolved cover's stages (batch --capture-resolved). Its probe searches captures and
// promotions through the covers of the balances they reach, so a batch runs these after the
// standalone stages of every balance it lists.
inline constexpr std::array<BatchStage, 2> kCaptureResolvedStages = {BatchStage::MinimizeCr, BatchStage::CheckCr};
inline constexpr std::array<BatchStage, 6> kAllBatchStages = {BatchStage::Table,      BatchStage::Verify,
                                                              BatchStage::Minimize,   BatchStage::Check,
                                                              BatchStage::MinimizeCr, BatchStage::CheckCr};

constexpr std::string_view stage_name(BatchStage s) {
  switch (s) {
    case BatchStage::Table: return "table";
    case BatchStage::Verify: return "verify";
    case BatchStage::Minimize: return "minimize";
    case BatchStage::Check: return "check";
    case BatchStage::MinimizeCr: return "minimize-cr";
    case BatchStage::CheckCr: return "check-cr";
  }
  return "?";
}

constexpr bool is_capture_resolved(BatchStage s) { return s == BatchStage::MinimizeCr || s == BatchStage::CheckCr; }

// The stage of that name among `stages` (by default the standalone ones, which a cluster job can be).
constexpr std::optional<BatchStage> parse_stage(std::string_view name,
                                                std::span<const BatchStage> stages = kBatchStages) {
  for (BatchStage s : stages)
    if (stage_name(s) == name) return s;
  return std::nullopt;
}

}  // namespace egtmin::run
