// SPDX-License-Identifier: GPL-3.0-or-later
#include "logic/bit_tree.hpp"

#include <algorithm>
#include <array>
#include <bit>

namespace egtmin::logic {

namespace {

int level_count(int n) { return std::max(1, (n + 5) / 6); }
}  // namespace

BitTree::BitTree(int n) : n_(n) {
  int g_count = level_count(n);
  levels_.resize(g_count);
  for (int g = 0; g < g_count; ++g) {
    int bits = n - 6 * g;  // log2 of the bits at this level
    levels_[g].assign(bits > 6 ? uint64_t{1} << (bits - 6) : 1, 0);
  }
}

void BitTree::finish() {
  for (size_t g = 0; g + 1 < levels_.size(); ++g) {
    const auto& lo = levels_[g];
    auto& hi = levels_[g + 1];
    std::fill(hi.begin(), hi.end(), 0);
    for (size_t w = 0; w < lo.size(); ++w)
      if (lo[w]) hi[w >> 6] |= uint64_t{1} << (w & 63);
  }
}

uint64_t BitTree::count() const {
  uint64_t c = 0;
  for (uint64_t w : levels_[0]) c += std::popcount(w);
  return c;
}

namespace {
// A group's six index bits have their cube pairs in twelve adjacent bits of the cube word (index
// bit p's pair at bit 62 - 2n + 2p), bit b's pair at bits 2b..2b+1 of the twelve. The group's mask
// is the AND of each pair's allowed values: the low three pairs' share and the high three's, looked
// up rather than built pair by pair, since expand and the coverage counts ask for the masks of every
// cube they test.
constexpr auto kHalfGroupMasks = [] {
  std::array<std::array<uint64_t, 64>, 2> t{};
  for (int half = 0; half < 2; ++half)
    for (unsigned code = 0; code < 64; ++code) {
      uint64_t mask = ~uint64_t{0};
      for (int j = 0; j < 3; ++j) {
        const unsigned pair = (code >> (2 * j)) & 3;
        const int b = 3 * half + j;
        mask &= ((pair & 2) ? kValueBit[size_t(b)][0] : 0) | ((pair & 1) ? kValueBit[size_t(b)][1] : 0);
      }
      t[size_t(half)][code] = mask;
    }
  return t;
}();
// Index bits past the last input read as 0: the pair that allows only 0, in all six places.
constexpr unsigned kZeroOnlyPairs = 0b101010101010;
}  // namespace

CubeMasks cube_masks(CubeWord c, int n) {
  CubeMasks m{};
  const int g_count = level_count(n);
  const int base = 62 - 2 * n;
  for (int g = 0; g < g_count; ++g) {
    unsigned code = unsigned(c >> (base + 12 * g)) & 0xFFF;
    if (const int inputs = n - 6 * g; inputs < 6) {
      const unsigned real = (1u << (2 * inputs)) - 1;
      code = (code & real) | (kZeroOnlyPairs & ~real);
    }
    m.m[g] = kHalfGroupMasks[0][code & 63] & kHalfGroupMasks[1][code >> 6];
  }
  return m;
}

namespace {
bool any_visit(const BitTree* const* trees, int count, const CubeMasks& m, int g, uint64_t node) {
  uint64_t w = 0;
  for (int t = 0; t < count; ++t) w |= trees[t]->levels()[g][node];
  w &= m.m[g];
  if (g == 0) return w != 0;
  while (w) {
    int v = std::countr_zero(w);
    w &= w - 1;
    if (any_visit(trees, count, m, g - 1, (node << 6) | uint64_t(v))) return true;
  }
  return false;
}
}  // namespace

bool intersects_any(const BitTree* const* trees, int count, CubeWord c) {
  if (count == 0) return false;
  int n = trees[0]->inputs();
  CubeMasks m = cube_masks(c, n);
  return any_visit(trees, count, m, int(trees[0]->levels().size()) - 1, 0);
}

}  // namespace egtmin::logic
