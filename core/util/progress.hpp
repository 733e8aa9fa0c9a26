// SPDX-License-Identifier: GPL-3.0-or-later
// One progress + cancellation interface for all long work in core. The CLI draws a bar on stderr
// from it, the GUI forwards it to its run widgets; core itself never prints.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <string_view>

namespace egtmin {

class Progress {
 public:
  using Callback = std::function<void(std::string_view stage, double fraction)>;

  Progress() = default;
  explicit Progress(Callback cb) : cb_(std::move(cb)) {}

  // Thread-safe; fraction in [0, 1] of the named stage.
  void report(std::string_view stage, double fraction) const {
    if (cb_) cb_(stage, fraction);
  }
  void cancel() { cancelled_.store(true, std::memory_order_relaxed); }
  bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

 private:
  Callback cb_;
  std::atomic<bool> cancelled_{false};
};

// A Progress that reports nothing and is never cancelled, for callers that do not care.
inline Progress& no_progress() {
  static Progress p;
  return p;
}

}  // namespace egtmin
