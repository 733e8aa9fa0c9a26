// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/rule_draws.hpp"

namespace egtmin::probe {

Result<RuleDraws> RuleDraws::build(std::span<const uint32_t> ascending, int pieces) {
  RuleDraws d;
  auto gaps = RuleDrawSet::build(ascending);
  if (!gaps) return gaps.error();
  auto rows = RuleDrawRows::build_smallest(ascending, pieces);
  if (!rows) return rows.error();
  if (rows->size() != 0 && rows->words().size() < gaps->words().size())
    d.rows_ = std::move(*rows);
  else
    d.gaps_ = std::move(*gaps);
  return d;
}

Result<RuleDraws> RuleDraws::attach(std::span<const uint64_t> words) {
  RuleDraws d;
  if (words.empty()) return d;
  if (RuleDrawRows::is_rows(words.data())) {
    auto rows = RuleDrawRows::attach(words);
    if (!rows) return rows.error();
    d.rows_ = std::move(*rows);
  } else {
    auto gaps = RuleDrawSet::attach(words);
    if (!gaps) return gaps.error();
    d.gaps_ = std::move(*gaps);
  }
  return d;
}

}  // namespace egtmin::probe
