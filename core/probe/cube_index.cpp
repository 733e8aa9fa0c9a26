// SPDX-License-Identifier: GPL-3.0-or-later
// CubeIndex read back from a probe layout and queried outside the hot path; building an index and
// saving its state are in cube_index_build.cpp.
#include "probe/cube_index.hpp"

#include <utility>
#include <vector>

namespace egtmin::probe {

void CubeIndex::load_state(ByteReader& r) {
  visit_state([&](auto& field) { r.get(field); });
}

bool CubeIndex::attach_hot_words(std::span<const uint64_t> hot_words) {
  // A layout's checksum catches damage, not a file made to mislead: every offset the hot path
  // follows is checked here, so that an accepted layout sends no probe outside its words.
  if (inputs_ < 1 || inputs_ > logic::kMaxInputs || (inputs_ - 1) % 6 != 0) return false;
  // The groups are a function of the inputs: they must be the ones set_groups makes (the hot
  // path reads rows by the paper's layout, 2 for the side to move and 8 a rank or file).
  CubeIndex expected;
  expected.inputs_ = inputs_;
  expected.set_groups();
  if (groups_ != expected.groups_ || group_first_ != expected.group_first_ || group_width_ != expected.group_width_ ||
      group_shift_ != expected.group_shift_ || group_mask_ != expected.group_mask_ ||
      front_groups_ != expected.front_groups_ || front_rows_ != expected.front_rows_ ||
      front_first_ != expected.front_first_ || front_width_ != expected.front_width_ ||
      front_shift_ != expected.front_shift_ || front_mask_ != expected.front_mask_ ||
      front_offset_ != expected.front_offset_)
    return false;
  // The front line: block 0's column, then its slab of front_blocks_ blocks; its cubes fill the
  // blocks but the last, whose unused places no row admits (find() names a front cube by place).
  if (front_blocks_ < 0 || size_t(front_blocks_) > kFront / 64 || front_cubes_.size() > size_t(front_blocks_) * 64 ||
      front_cubes_.size() + 64 <= size_t(front_blocks_) * 64 ||
      front_words_ != size_t(front_rows_) * (1 + size_t(front_blocks_)) ||
      hot_words.size() != front_words_ + node_words_ + slice_words_)
    return false;
  if (front_blocks_ > 0 && front_cubes_.size() % 64 != 0) {
    const uint64_t unused = ~uint64_t{0} << (front_cubes_.size() % 64);
    const size_t last = size_t(front_blocks_) - 1;
    const uint64_t* slab = hot_words.data() + front_rows_;
    for (uint32_t stm_row : {kFirstGroupRow, kFirstGroupRow + 1})
      if (slab[stm_row * size_t(front_blocks_) + last] & unused || (last == 0 && hot_words[stm_row] & unused))
        return false;
  }
  // The tree: every inner node's children inside the nodes, each node reached once (no cycle, no
  // shared child), every leaf's header and rows inside the slices.
  if (node_words_ == 0 && slice_words_ == 0 && root_ != kLeaf) return false;  // no tree, but a root
  if (node_words_ != 0 && slice_words_ == 0) return false;
  const uint64_t* nodes = hot_words.data() + front_words_;
  std::vector<bool> reached(node_words_, false);
  std::vector<std::pair<uint64_t, int>> todo = {{root_, 0}};
  while (slice_words_ != 0 && !todo.empty()) {
    const auto [ref, depth] = todo.back();
    todo.pop_back();
    if (is_leaf(ref)) {
      const unsigned active = leaf_active(ref);
      if (active >> groups_) return false;
      uint64_t rows = kFirstGroupRow;
      for (int g = 0; g < groups_; ++g)
        if (active >> g & 1) rows += group_mask_[size_t(g)] + 1;
      if (leaf_offset(ref) + 1 + rows * leaf_blocks(ref) > slice_words_) return false;
      continue;
    }
    const uint64_t width = (ref >> kWidthShift) & 7, shift = (ref >> kSplitShift) & 63, children = ref & kChildrenMask;
    if (ref & ~(kChildrenMask | uint64_t{7} << kWidthShift | uint64_t{63} << kSplitShift) || width < 1 || width > 6 ||
        shift + width > uint64_t(inputs_) || children + (uint64_t{1} << width) > node_words_ || depth >= inputs_)
      return false;
    for (uint64_t c = children; c < children + (uint64_t{1} << width); ++c) {
      if (reached[c]) return false;
      reached[c] = true;
      todo.emplace_back(nodes[c], depth + 1);
    }
  }
  own_ = {};
  words_ = hot_words.data();
  return true;
}

double CubeIndex::leaf_blocks_per_query(std::span<const uint64_t> queries) const {
  if (queries.empty()) return 0;
  double blocks = 0;
  for (uint64_t q : queries) {
    if (front_match(q).hits) continue;
    const Match m = match(q);
    blocks += double(m.hit.hits ? m.hit.block + 1 : m.blocks);
  }
  return blocks / double(queries.size());
}

}  // namespace egtmin::probe
