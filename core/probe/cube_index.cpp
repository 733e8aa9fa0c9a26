// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/cube_index.hpp"

#include <algorithm>

namespace egtmin::probe {

namespace {
// Leaves this small are scanned faster than another level of indirection pays for.
constexpr size_t kLeafMax = 4;
}  // namespace

CubeIndex::CubeIndex(std::span<const logic::CubeWord> cubes, int inputs, int max_copies) : inputs_(inputs) {
  const int pieces = (inputs - 1) / 6;
  fields_ = 1 + pieces;
  first_input_.push_back(0);
  width_.push_back(1);
  shift_[0] = uint8_t(inputs - 1);
  mask_[0] = 1;
  for (int j = 1; j <= pieces; ++j) {
    first_input_.push_back(1 + 6 * (j - 1));
    width_.push_back(6);
    shift_[j] = uint8_t(6 * (pieces - j));
    mask_[j] = 63;
  }
  budget_ = size_t(std::max(max_copies - 1, 0)) * cubes.size();
  std::vector<logic::CubeWord> all(cubes.begin(), cubes.end());
  root_ = build(all, 0, 0);
  nodes_.shrink_to_fit();
  pool_.shrink_to_fit();
}

uint64_t CubeIndex::make_leaf(std::vector<logic::CubeWord>& cubes) {
  // Bigger cubes (fewer literals) first: they hold most positions, so scans end sooner on average.
  std::stable_sort(cubes.begin(), cubes.end(),
                   [](logic::CubeWord a, logic::CubeWord b) { return logic::literals(a) < logic::literals(b); });
  const uint64_t start = pool_.size();
  pool_.insert(pool_.end(), cubes.begin(), cubes.end());
  largest_leaf_ = std::max(largest_leaf_, cubes.size());
  return kLeaf | (uint64_t(cubes.size()) << kCountShift) | start;
}

uint64_t CubeIndex::build(std::vector<logic::CubeWord>& cubes, unsigned used_fields, int level) {
  depth_ = std::max(depth_, level);
  if (cubes.size() <= kLeafMax) return make_leaf(cubes);

  // The values of field f that cube c admits, as a bit mask over the 2^width values.
  auto admits = [&](logic::CubeWord c, int f) {
    const int w = width_[f];
    uint64_t m = w == 6 ? ~uint64_t{0} : 3;
    for (int b = 0; b < w; ++b) {
      const unsigned pair = unsigned(c >> logic::pair_shift(first_input_[f] + b)) & 3;
      // Values whose bit (w-1-b) is set.
      uint64_t ones = 0;
      for (int v = 0; v < (1 << w); ++v)
        if ((v >> (w - 1 - b)) & 1) ones |= uint64_t{1} << v;
      if (pair == 2) m &= ~ones;      // input must be 0
      else if (pair == 1) m &= ones;  // input must be 1
    }
    return m;
  };

  int best = -1;
  double best_expected = 0;
  size_t best_total = 0;
  for (int f = 0; f < fields_; ++f) {
    if (used_fields & (1u << f)) continue;
    size_t total = 0;
    for (logic::CubeWord c : cubes) total += size_t(__builtin_popcountll(admits(c, f)));
    const double expected = double(total) / double(1 << width_[f]);
    if (best < 0 || expected < best_expected) best = f, best_expected = expected, best_total = total;
  }
  if (best < 0 || best_expected > 0.75 * double(cubes.size())) return make_leaf(cubes);
  const size_t extra = best_total - cubes.size();
  if (extra > budget_) return make_leaf(cubes);
  budget_ -= extra;

  const int n = 1 << width_[best];
  const size_t off = nodes_.size();
  nodes_.resize(off + size_t(n));
  std::vector<uint64_t> masks(cubes.size());
  for (size_t i = 0; i < cubes.size(); ++i) masks[i] = admits(cubes[i], best);
  std::vector<logic::CubeWord> child;
  for (int v = 0; v < n; ++v) {
    child.clear();
    for (size_t i = 0; i < cubes.size(); ++i)
      if ((masks[i] >> v) & 1) child.push_back(cubes[i]);
    const uint64_t ref = build(child, used_fields | (1u << best), level + 1);
    nodes_[off + size_t(v)] = ref;
  }
  return (uint64_t(best) << 32) | off;
}

}  // namespace egtmin::probe
