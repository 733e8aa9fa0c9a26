// SPDX-License-Identifier: GPL-3.0-or-later
// Every stage of run/batch_stage.hpp's list, with what a record holds of each, and the one loop
// over them that the record file, the reports and the cluster's plans are written with.
#pragma once

#include <tuple>
#include <utility>

#include "run/stages/check_cr_stage.hpp"
#include "run/stages/check_stage.hpp"
#include "run/stages/minimize_cr_stage.hpp"
#include "run/stages/minimize_stage.hpp"
#include "run/stages/table_stage.hpp"
#include "run/stages/verify_stage.hpp"

namespace egtmin::run {

// Calls f.template operator()<S>() for every stage S, in stage order.
template <class F>
constexpr void for_each_stage(F&& f) {
  [&]<size_t... I>(std::index_sequence<I...>) { (f.template operator()<BatchStage(I)>(), ...); }
  (std::make_index_sequence<kBatchStageCount>{});
}

// Calls f.template operator()<S>() for the stage s and returns what it returns.
template <class F>
constexpr auto with_stage(BatchStage s, F&& f) {
  using R = decltype(f.template operator()<BatchStage::Table>());
  if constexpr (std::is_void_v<R>) {
    for_each_stage([&]<BatchStage S>() {
      if (S == s) f.template operator()<S>();
    });
  } else {
    R out{};
    for_each_stage([&]<BatchStage S>() {
      if (S == s) out = f.template operator()<S>();
    });
    return out;
  }
}

// What a record holds of stage S.
template <BatchStage S>
struct StageRecord {
  StageFigures figures;
  typename Stage<S>::Results results;
};

namespace detail {
template <size_t... I>
auto stage_records(std::index_sequence<I...>) -> std::tuple<StageRecord<BatchStage(I)>...>;
}  // namespace detail
using StageRecords = decltype(detail::stage_records(std::make_index_sequence<kBatchStageCount>{}));

}  // namespace egtmin::run
