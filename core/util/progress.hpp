// SPDX-License-Identifier: GPL-3.0-or-later
// One progress + cancellation interface for all long work in core. The CLI draws a bar on stderr
// from it, the GUI forwards it to its run widgets and charts; core itself never prints.
//
// A report names its stage as a typed value, so that a listener maps stages to parts of its own
// bar without matching text; `detail` (a balance, a pass, a round) is only for people to read.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "util/enum_names.hpp"

namespace egtmin {

enum class Stage : uint8_t {
  Generate,       // retrograde generation of one table (detail: balance and step)
  Verify,         // a table against Syzygy
  SelfCheck,      // a table against its own successors
  CareSet,        // the care function of a table (minimization input)
  Pass,           // one minimization pass (detail: pass name, step)
  Save,           // writing a cover file
  Check,          // a cover against its table
  LoadCovers,     // opening cover files for probing
  Sample,         // drawing benchmark positions
  CompareAnchor,  // every probe method against Fathom on the sampled positions
  Time,           // timing the probe methods (fraction: of all methods and rounds)
  Summarize,      // turning results into statistics or charts
  Sizes,          // file sizes for the size benchmark
};
// As progress bars and run logs show them (util/enum_names.hpp).
inline constexpr EnumName<Stage> kStageNames[] = {{Stage::Generate, "generate"},
                                                  {Stage::Verify, "verify"},
                                                  {Stage::SelfCheck, "self-check"},
                                                  {Stage::CareSet, "care set"},
                                                  {Stage::Pass, "pass"},
                                                  {Stage::Save, "save"},
                                                  {Stage::Check, "check"},
                                                  {Stage::LoadCovers, "loading covers"},
                                                  {Stage::Sample, "sampling"},
                                                  {Stage::CompareAnchor, "checking against Fathom"},
                                                  {Stage::Time, "timing"},
                                                  {Stage::Summarize, "summarizing"},
                                                  {Stage::Sizes, "sizes"}};
constexpr std::span<const EnumName<Stage>> enum_names(Stage) { return kStageNames; }

struct ProgressEvent {
  Stage stage;
  double fraction;          // of this stage, in [0, 1]
  std::string_view detail;  // for people: "KQvK", "expand (3/4)", ...
};
// "expand (3/4)" when there is a detail, else the stage's name.
std::string progress_label(const ProgressEvent& e);

class Progress {
 public:
  using Callback = std::function<void(const ProgressEvent&)>;

  Progress() = default;
  explicit Progress(Callback cb) : cb_(std::move(cb)) {}
  // A progress that reports to `cb` and counts as cancelled once `parent` is (work split into
  // parts gives each part its own view of the fraction, under the caller's one cancel).
  Progress(const Progress& parent, Callback cb) : cb_(std::move(cb)), parent_(&parent) {}

  // Thread-safe as long as the callback is.
  void report(Stage stage, double fraction, std::string_view detail = {}) const {
    if (cb_) cb_(ProgressEvent{stage, fraction, detail});
  }
  void cancel() { cancelled_.store(true, std::memory_order_relaxed); }
  bool cancelled() const { return cancelled_.load(std::memory_order_relaxed) || (parent_ && parent_->cancelled()); }

 private:
  Callback cb_;
  const Progress* parent_ = nullptr;
  std::atomic<bool> cancelled_{false};
};

// A Progress that reports nothing and is never cancelled, for callers that do not care.
inline Progress& no_progress() {
  static Progress p;
  return p;
}

}  // namespace egtmin
