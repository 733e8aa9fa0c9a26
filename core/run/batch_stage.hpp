// SPDX-License-Identifier: GPL-3.0-or-later
// The stages a balance goes through in a batch, in their order: its table (generated and proven
// by the self-check), its table compared with Syzygy (when a Syzygy directory is given), its
// cover, and the cover's exhaustive check; then, when asked for, its capture-resolved cover and
// that cover's exhaustive check through the probe's capture search. A stage needs every earlier
// stage done, except that the Syzygy comparison is optional and nothing waits for it.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "util/enum_names.hpp"

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

// The stages' names, as --stage, cluster job files and messages spell them (util/enum_names.hpp).
inline constexpr EnumName<BatchStage> kBatchStageNames[] = {
    {BatchStage::Table, "table"}, {BatchStage::Verify, "verify"},          {BatchStage::Minimize, "minimize"},
    {BatchStage::Check, "check"}, {BatchStage::MinimizeCr, "minimize-cr"}, {BatchStage::CheckCr, "check-cr"}};
constexpr std::span<const EnumName<BatchStage>> enum_names(BatchStage) { return kBatchStageNames; }

constexpr bool is_capture_resolved(BatchStage s) { return s == BatchStage::MinimizeCr || s == BatchStage::CheckCr; }

}  // namespace egtmin::run
