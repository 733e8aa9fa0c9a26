// SPDX-License-Identifier: GPL-3.0-or-later
// The stages a balance goes through in a batch, in their order: its table (generated and proven
// by the self-check), its table compared with Syzygy (when a Syzygy directory is given), its
// cover, and the cover's exhaustive check. A stage needs every earlier stage done, except that
// the Syzygy comparison is optional and nothing waits for it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace egtmin::run {

enum class BatchStage : uint8_t { Table, Verify, Minimize, Check };

inline constexpr std::array<BatchStage, 4> kBatchStages = {BatchStage::Table, BatchStage::Verify, BatchStage::Minimize,
                                                           BatchStage::Check};

constexpr std::string_view stage_name(BatchStage s) {
  switch (s) {
    case BatchStage::Table: return "table";
    case BatchStage::Verify: return "verify";
    case BatchStage::Minimize: return "minimize";
    case BatchStage::Check: return "check";
  }
  return "?";
}

constexpr std::optional<BatchStage> parse_stage(std::string_view name) {
  for (BatchStage s : kBatchStages)
    if (stage_name(s) == name) return s;
  return std::nullopt;
}

}  // namespace egtmin::run
