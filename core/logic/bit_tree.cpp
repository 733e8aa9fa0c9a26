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

CubeMasks cube_masks(CubeWord c, int n) {
  CubeMasks m{};
  int g_count = level_count(n);
  for (int g = 0; g < g_count; ++g) {
    uint64_t mask = ~uint64_t{0};
    for (int b = 0; b < 6; ++b) {
      int p = 6 * g + b;  // index bit
      if (p >= n) {
        mask &= kValueBit[b][0];
        continue;
      }
      unsigned pair = unsigned(c >> pair_shift(n - 1 - p)) & 3;
      uint64_t allowed = ((pair & 2) ? kValueBit[b][0] : 0) | ((pair & 1) ? kValueBit[b][1] : 0);
      mask &= allowed;
    }
    m.m[g] = mask;
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
