// SPDX-License-Identifier: GPL-3.0-or-later
// Every minimization pass in one list: the name --passes and the GUI spell it with, a one-line
// description (the CLI's help, the GUI's tooltips) and the function that runs it. The CLI's pass
// list, the GUI's pass buttons and presets, and the pipeline all read from here, so a new pass is
// its function, one entry in builtin_passes.cpp (or one register_pass call) and its test. A run's
// chosen passes, in order, are a PassSequence (logic/pass_sequence.hpp).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "logic/pass_state.hpp"
#include "util/progress.hpp"
#include "util/result.hpp"

namespace egtmin::logic {

struct PassContext {
  const MinimizeOptions& options;
  const Progress& progress;
};

// Whether a pass can start from minterms the pipeline has not listed yet (PassState::
// minterms_pending): only those that build their cover from the care bitmaps themselves.
enum class MintermInput : uint8_t { Listed, Either };

struct PassInfo {
  std::string name;         // lower case, no commas or spaces
  std::string description;  // one line
  // Runs the pass; it must leave every output's cover exact on the care set: each care minterm of
  // output o covered by some cube of output o (work or fixed), no cube holding a care minterm of
  // another output. A cancelled pass may stop early but must leave the cover exact.
  std::function<void(PassState&, const PassContext&)> run;
  MintermInput minterms = MintermInput::Listed;  // Listed: the pipeline lists them first
};

// A registered pass (registrations are never removed, so the handle stays valid).
class Pass {
 public:
  const PassInfo& info() const { return *info_; }
  std::string_view name() const { return info_->name; }
  bool operator==(const Pass& o) const { return info_ == o.info_; }

 private:
  friend class PassRegistry;
  explicit Pass(const PassInfo* info) : info_(info) {}
  const PassInfo* info_;
};

// The passes in registration order, the built-in ones (builtin_passes.cpp) first.
std::vector<Pass> registered_passes();
// Adds a pass; the error says why a name is refused (empty, taken, or not a plain word).
Result<Pass> register_pass(PassInfo info);
// The error names the bad entry and lists the valid ones.
Result<Pass> find_pass(std::string_view name);
// The built-in passes, registered before anything else (builtin_passes.cpp).
std::vector<PassInfo> builtin_passes();

}  // namespace egtmin::logic
