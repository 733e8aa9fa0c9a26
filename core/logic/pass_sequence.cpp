// SPDX-License-Identifier: GPL-3.0-or-later
#include "logic/pass_sequence.hpp"

#include <initializer_list>

namespace egtmin::logic {

namespace {

// A sequence of built-in passes, which are registered before anything runs.
PassSequence builtin_sequence(std::initializer_list<std::string_view> names) {
  std::vector<Pass> passes;
  for (std::string_view name : names) passes.push_back(find_pass(name).value());
  return PassSequence(std::move(passes));
}

}  // namespace

Result<PassSequence> parse_passes(std::string_view list) {
  std::vector<Pass> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string_view::npos) end = list.size();
    std::string_view item = list.substr(start, end - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item.empty()) return Error{"empty pass name in \"" + std::string(list) + "\""};
    auto p = find_pass(item);
    if (!p) return p.error();
    out.push_back(*p);
    start = end + 1;
  }
  return PassSequence(std::move(out));
}

std::string passes_string(const PassSequence& passes) {
  std::string s;
  for (const Pass& p : passes) {
    if (!s.empty()) s += ',';
    s += p.name();
  }
  return s;
}

const PassSequence& default_passes() {
  static const PassSequence passes = builtin_sequence({"canon", "compact", "expand", "irredundant"});
  return passes;
}

std::span<const PassPreset> pass_presets() {
  static const std::vector<PassPreset> presets = {
      {"paper default", default_passes()},
      {"espresso", builtin_sequence({"canon", "compact", "espresso"})},
      {"compact only", builtin_sequence({"canon", "compact"})},
      {"full loop",
       builtin_sequence({"canon", "compact", "expand", "irredundant", "essential", "reduce", "expand", "irredundant"})},
      {"tables only (no minimization)", PassSequence()},
  };
  return presets;
}

}  // namespace egtmin::logic
