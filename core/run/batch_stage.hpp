// SPDX-License-Identifier: GPL-3.0-or-later
// The stages a balance goes through in a batch, in their order, and the one list that names them:
// its table (generated and proven by the self-check), the table compared with Syzygy (when a
// Syzygy directory is given), its standalone cover and that cover's exhaustive check, and its
// capture-resolved cover and that cover's exhaustive check through the probe's capture search.
//
// A stage needs every earlier stage of its own cover and of the table, except the optional Syzygy
// comparison that nothing waits for: the capture-resolved cover needs the table, not the
// standalone cover. What each stage does, records and costs is its Stage<S> specialization, one
// file each under run/stages/ (run/stages/all.hpp lists them).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "util/enum_names.hpp"

namespace egtmin::run {

enum class BatchStage : uint8_t { Table, Verify, Minimize, Check, MinimizeCr, CheckCr };

// Which cover a stage serves; the table's stages serve both.
enum class StagePart : uint8_t { Table, Standalone, CaptureResolved };

struct BatchStageInfo {
  BatchStage stage;
  std::string_view name;  // as --stage, records, cluster job files and messages spell it
  StagePart part;
  bool optional;     // run only when asked for (verify: when a Syzygy directory is given); nothing waits for it
  bool cluster_job;  // submitted by `cluster submit` as a job of its own
};

// The list, in stage order.
inline constexpr BatchStageInfo kBatchStageInfo[] = {
    {BatchStage::Table, "table", StagePart::Table, false, true},
    {BatchStage::Verify, "verify", StagePart::Table, true, true},
    {BatchStage::Minimize, "minimize", StagePart::Standalone, false, true},
    {BatchStage::Check, "check", StagePart::Standalone, false, true},
    {BatchStage::MinimizeCr, "minimize-cr", StagePart::CaptureResolved, false, false},
    {BatchStage::CheckCr, "check-cr", StagePart::CaptureResolved, false, false},
};
inline constexpr size_t kBatchStageCount = std::size(kBatchStageInfo);
static_assert(
    [] {
      for (size_t i = 0; i < kBatchStageCount; ++i)
        if (size_t(kBatchStageInfo[i].stage) != i) return false;
      return true;
    }(),
    "kBatchStageInfo lists the stages in their enum's order");

constexpr const BatchStageInfo& info(BatchStage s) { return kBatchStageInfo[size_t(s)]; }
constexpr StagePart part_of(BatchStage s) { return info(s).part; }
constexpr bool is_capture_resolved(BatchStage s) { return part_of(s) == StagePart::CaptureResolved; }

// Whether `later` cannot run before `earlier` is done, and so is stale once `earlier` is redone
// (a new table is compared with Syzygy again): an earlier stage of its own cover or of the table,
// not optional. An optional stage only reads (verify compares the table with Syzygy's file), so
// redoing it makes nothing stale: comparing a table made earlier must not make its covers again.
constexpr bool needs(BatchStage later, BatchStage earlier) {
  return earlier < later && !info(earlier).optional &&
         (part_of(earlier) == StagePart::Table || part_of(earlier) == part_of(later));
}

// The covers a batch makes and proves (batch --covers).
enum class CoverSet : uint8_t { Standalone, CaptureResolved, Both };
inline constexpr EnumName<CoverSet> kCoverSetNames[] = {
    {CoverSet::Standalone, "standalone"}, {CoverSet::CaptureResolved, "capture-resolved"}, {CoverSet::Both, "both"}};
constexpr std::span<const EnumName<CoverSet>> enum_names(CoverSet) { return kCoverSetNames; }

// Whether a run asked for `covers` runs the stages of `part`.
constexpr bool serves(StagePart part, CoverSet covers) {
  switch (part) {
    case StagePart::Table: return true;
    case StagePart::Standalone: return covers != CoverSet::CaptureResolved;
    case StagePart::CaptureResolved: return covers != CoverSet::Standalone;
  }
  return false;
}

namespace detail {
template <bool (*Keep)(const BatchStageInfo&)>
constexpr auto stages_where() {
  constexpr size_t n = std::count_if(std::begin(kBatchStageInfo), std::end(kBatchStageInfo), Keep);
  std::array<BatchStage, n> out{};
  size_t i = 0;
  for (const BatchStageInfo& s : kBatchStageInfo)
    if (Keep(s)) out[i++] = s.stage;
  return out;
}
constexpr bool any_stage(const BatchStageInfo&) { return true; }
constexpr bool job_stage(const BatchStageInfo& s) { return s.cluster_job; }
constexpr auto stage_names() {
  std::array<EnumName<BatchStage>, kBatchStageCount> out{};
  for (size_t i = 0; i < kBatchStageCount; ++i) out[i] = {kBatchStageInfo[i].stage, kBatchStageInfo[i].name};
  return out;
}
}  // namespace detail

inline constexpr auto kAllBatchStages = detail::stages_where<detail::any_stage>();
// What a cluster submits as jobs.
inline constexpr auto kClusterStages = detail::stages_where<detail::job_stage>();

inline constexpr auto kBatchStageNames = detail::stage_names();
constexpr std::span<const EnumName<BatchStage>> enum_names(BatchStage) { return kBatchStageNames; }

}  // namespace egtmin::run
