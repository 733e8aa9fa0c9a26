// SPDX-License-Identifier: GPL-3.0-or-later
// A cover's 50-move-rule draws as a probe reads them, in whichever of two forms takes fewer words:
// the Rice-coded gaps between their indices (RuleDrawSet), or rows of one piece's squares
// (RuleDrawRows), which is smaller where the draws are many and follow a piece's few patterns
// (docs/measured.md). The first word tells the forms apart (RuleDrawRows::kTag). A probe asks
// only when its cube says win or loss, in a balance that has such draws.
#pragma once

#include <cstdint>
#include <span>

#include "probe/rule_draw_rows.hpp"
#include "probe/rule_draw_set.hpp"
#include "util/result.hpp"

namespace egtmin::probe {

class RuleDraws {
 public:
  RuleDraws() = default;
  // From a cover's ascending, distinct indices, its balance of `pieces` pieces.
  static Result<RuleDraws> build(std::span<const uint32_t> ascending, int pieces);
  // Either form's words where they lie (a mapped layout), which must outlive this. An error names
  // what does not add up.
  static Result<RuleDraws> attach(std::span<const uint64_t> words);

  uint64_t size() const { return rows_.size() ? rows_.size() : gaps_.size(); }
  bool empty() const { return size() == 0; }
  bool rows() const { return rows_.size() != 0; }
  bool contains(uint64_t index) const { return !empty() && contains(hot(), index); }
  // What a layout stores (empty for no draws).
  std::span<const uint64_t> words() const { return rows() ? rows_.words() : gaps_.words(); }
  // The hot path's handle: null for no draws.
  const uint64_t* hot() const { return empty() ? nullptr : words().data(); }

  // Is `index` a draw of the words at `w` (hot(), non-null)?
  static bool contains(const uint64_t* w, uint64_t index) {
    return RuleDrawRows::is_rows(w) ? RuleDrawRows::contains(w, index) : RuleDrawSet::contains(w, index);
  }

 private:
  RuleDrawSet gaps_;
  RuleDrawRows rows_;  // or this one
};

}  // namespace egtmin::probe
