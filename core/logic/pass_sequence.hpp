// SPDX-License-Identifier: GPL-3.0-or-later
// The passes a minimization runs, in their order (a pass may repeat): what --passes, the GUI's pass
// field, the run services and cover files speak of. Text becomes a sequence once, at the edge (a
// flag, a text field, a file), where each name is checked against the pass registry
// (logic/pass_registry.hpp); from there on it travels as this type, and passes_string prints it.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "logic/pass_registry.hpp"
#include "util/result.hpp"

namespace egtmin::logic {

class PassSequence {
 public:
  PassSequence() = default;  // no pass: the tables alone
  explicit PassSequence(std::vector<Pass> passes) : passes_(std::move(passes)) {}

  bool empty() const { return passes_.empty(); }
  size_t size() const { return passes_.size(); }
  const Pass& operator[](size_t i) const { return passes_[i]; }
  const Pass& front() const { return passes_.front(); }
  auto begin() const { return passes_.begin(); }
  auto end() const { return passes_.end(); }
  bool operator==(const PassSequence& o) const { return passes_ == o.passes_; }

 private:
  std::vector<Pass> passes_;
};

// "canon,compact,expand" -> its passes (spaces around names allowed). The error names the bad
// entry and lists the valid passes; an empty text is an error too (an edge where no pass means
// "tables only", as the GUI's field, says so itself).
Result<PassSequence> parse_passes(std::string_view list);
// "canon,compact,expand": how reports, cover files and the GUI print a sequence.
std::string passes_string(const PassSequence& passes);

// The sequence the paper reports, and what `minimize`, `batch` and the GUI run unless told otherwise.
const PassSequence& default_passes();

// Named sequences the GUI offers; the first is default_passes(), an empty one means tables only.
struct PassPreset {
  std::string_view name;
  PassSequence passes;
};
std::span<const PassPreset> pass_presets();

}  // namespace egtmin::logic
