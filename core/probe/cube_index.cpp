// SPDX-License-Identifier: GPL-3.0-or-later
// CubeIndex read back from a probe layout and queried outside the hot path; building an index and
// saving its state are in cube_index_build.cpp.
#include "probe/cube_index.hpp"

#include <bit>
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
  // The front line: block 0's column, then (more than one block) its slab of front_blocks_
  // blocks; its cubes fill the blocks but the last, whose unused places no row admits (find()
  // names a front cube by place).
  if (front_blocks_ < 0 || size_t(front_blocks_) > kFront / 64 || front_count_ > uint64_t(front_blocks_) * 64 ||
      front_count_ + 64 <= uint64_t(front_blocks_) * 64 ||
      front_words_ != front_line_words(front_rows_, front_blocks_) ||
      hot_words.size() != front_words_ + node_words_ + slice_words_)
    return false;
  if (front_blocks_ > 0 && front_count_ % 64 != 0) {
    const uint64_t unused = ~uint64_t{0} << (front_count_ % 64);
    const size_t last = size_t(front_blocks_) - 1;
    const uint64_t* slab = hot_words.data() + front_slab_offset(front_rows_, front_blocks_);
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
      if (leaf_rows(ref) == LeafRows::Inputs) {
        if (leaf_active(ref) != 0 ||
            !input_rows_fit(leaf_offset(ref), leaf_blocks(ref), hot_words.data() + front_words_ + node_words_))
          return false;
        continue;
      }
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
  front_cubes_from_rows();
  return true;
}

bool CubeIndex::input_rows_fit(uint64_t offset, uint64_t blocks, const uint64_t* slices) const {
  // Header, default output, then each block's header and rows, all inside the slices; the cube
  // count fills the blocks but the last.
  if (offset + 2 > slice_words_) return false;
  const uint64_t count = slices[offset] >> kHeaderCountShift, word = slices[offset + 1];
  const uint64_t guide_shift = word >> kGuideShift;
  if ((count + 63) / 64 != blocks || (word & ((uint64_t{1} << kGuideShift) - 4)) != 0 ||
      guide_shift % kSquareBits != 0 || guide_shift + kSquareBits >= uint64_t(inputs_))
    return false;
  // The directory (each block's squares and header), then every block's rows one after another,
  // all inside the slices.
  const uint64_t inputs_bits = (uint64_t{1} << (2 * inputs_)) - 1;
  uint64_t at = 2 + 2 * blocks;  // from the leaf's header word
  if (offset + at > slice_words_) return false;
  for (uint64_t b = 0; b < blocks; ++b) {
    const uint64_t head = slices[offset + 2 + 2 * b + 1];
    if (head & ~(inputs_bits | kOutputRowsStored)) return false;
    at += block_rows(head);
  }
  return offset + at <= slice_words_;
}

void CubeIndex::front_cubes_from_rows() {
  const uint64_t* slab = front();
  const size_t blocks = size_t(front_blocks_);
  front_cubes_.assign(front_count_, 0);
  for (size_t f = 0; f < front_count_; ++f) {
    const size_t b = f / 64;
    const unsigned bit = unsigned(f % 64);
    auto row = [&](size_t r) { return (slab[r * blocks + b] >> bit) & 1; };
    // Inputs past the cover's are don't-cares, as in its cubes.
    logic::CubeWord c = logic::CubeWord(row(kOutHiRow) << 1 | row(kOutLoRow)) << 62 |
                        ((logic::CubeWord{1} << logic::pair_shift(inputs_ - 1)) - 1);
    for (int g = 0; g < front_groups_; ++g) {
      const int first = front_first_[size_t(g)], width = front_width_[size_t(g)];
      // Pair bit 1: some admitted value has a 0 there ("may be 0"); bit 0: some has a 1.
      std::array<unsigned, 6> pair{};
      for (uint32_t v = 0; v <= front_mask_[size_t(g)]; ++v)
        if (row(front_offset_[size_t(g)] + v))
          for (int k = 0; k < width; ++k) pair[size_t(k)] |= (v >> (width - 1 - k) & 1) ? 1u : 2u;
      for (int k = 0; k < width; ++k) c |= logic::CubeWord(pair[size_t(k)]) << logic::pair_shift(first + k);
    }
    front_cubes_[f] = c;
  }
}

double CubeIndex::leaf_blocks_per_query(std::span<const uint64_t> queries) const {
  if (queries.empty()) return 0;
  double blocks = 0;
  for (uint64_t q : queries) {
    if (front_match(q).hits) continue;
    const Match m = match(q);
    const uint64_t end = m.hit.hits ? m.hit.block + 1 : m.blocks;
    blocks += double(m.input_rows ? input_blocks_entered(m.slab - 1, end, q) : end);
  }
  return blocks / double(queries.size());
}

}  // namespace egtmin::probe
