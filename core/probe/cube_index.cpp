// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/cube_index.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>

namespace egtmin::probe {

namespace {
// Leaves this small are scanned faster than another level of indirection pays for.
constexpr size_t kLeafMax = 4;
}  // namespace

CubeIndex::CubeIndex(std::span<const logic::CubeWord> cubes, int inputs, int max_copies, double split_copies)
    : inputs_(inputs), split_copies_(split_copies) {
  budget_ = size_t(std::max(max_copies - 1, 0)) * cubes.size();
  // Best first: always split the pending node with the most expected scanning (its cubes times the
  // share of the index space that reaches it), so the copy budget goes where probes go instead of
  // to whichever subtree a depth-first build reaches first.
  struct Pending {
    double priority;
    uint64_t used;
    double share;
    size_t slot;  // where its reference goes in nodes_ (SIZE_MAX: the root)
    int level;
    std::vector<logic::CubeWord> cubes;
  };
  auto cmp = [](const Pending* a, const Pending* b) { return a->priority < b->priority; };
  std::vector<Pending*> heap;
  std::vector<std::unique_ptr<Pending>> owned;
  auto push = [&](std::vector<logic::CubeWord> cs, uint64_t used, double share, size_t slot, int level) {
    depth_ = std::max(depth_, level);
    owned.push_back(
        std::make_unique<Pending>(Pending{share * double(cs.size()), used, share, slot, level, std::move(cs)}));
    heap.push_back(owned.back().get());
    std::push_heap(heap.begin(), heap.end(), cmp);
  };
  auto set_ref = [&](size_t slot, uint64_t ref) {
    if (slot == SIZE_MAX) root_ = ref;
    else nodes_[slot] = ref;
  };
  push(std::vector<logic::CubeWord>(cubes.begin(), cubes.end()), 0, 1.0, SIZE_MAX, 0);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), cmp);
    Pending* p = heap.back();
    heap.pop_back();
    const Split sp = choose(p->cubes, p->used);
    if (sp.first < 0 || sp.total - p->cubes.size() > budget_) {
      set_ref(p->slot, make_leaf(p->cubes));
    } else {
      budget_ -= sp.total - p->cubes.size();
      const int w = sp.width, n = 1 << w;
      const size_t off = nodes_.size();
      nodes_.resize(off + size_t(n));
      set_ref(p->slot, (uint64_t(w) << 40) | (uint64_t(inputs_ - sp.first - w) << 32) | off);
      uint64_t used = p->used;
      for (int b = 0; b < w; ++b) used |= uint64_t{1} << (sp.first + b);
      for (int v = 0; v < n; ++v) {
        std::vector<logic::CubeWord> child;
        for (logic::CubeWord c : p->cubes)
          if (admits(c, sp, v)) child.push_back(c);
        push(std::move(child), used, p->share / double(n), off + size_t(v), p->level + 1);
      }
    }
    p->cubes = {};
  }
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

bool CubeIndex::admits(logic::CubeWord c, const Split& sp, int v) {
  // Child v takes the cubes admitting value v of the run (the run's first input is v's top bit).
  for (int b = 0; b < sp.width; ++b) {
    const unsigned pair = unsigned(c >> logic::pair_shift(sp.first + b)) & 3;
    const unsigned bit = unsigned(v >> (sp.width - 1 - b)) & 1;
    if (!(pair & (bit ? 1u : 2u))) return false;
  }
  return true;
}

CubeIndex::Split CubeIndex::choose(const std::vector<logic::CubeWord>& cubes, uint64_t used_inputs) const {
  Split best;
  if (cubes.size() <= kLeafMax) return best;
  // total(i, w) = sum over cubes of 2^(the cube's don't-cares among inputs i .. i+w-1): the copies.
  std::vector<uint8_t> dc(cubes.size());
  double best_expected = 0;
  for (int i = 0; i < inputs_; ++i) {
    if (used_inputs >> i & 1) continue;
    std::fill(dc.begin(), dc.end(), 0);
    for (int w = 1; w <= 6 && i + w <= inputs_; ++w) {
      if (used_inputs >> (i + w - 1) & 1) break;
      const int shift = logic::pair_shift(i + w - 1);
      size_t total = 0;
      for (size_t c = 0; c < cubes.size(); ++c) {
        dc[c] = uint8_t(dc[c] + (((cubes[c] >> shift) & 3) == 3));
        total += size_t{1} << dc[c];
      }
      if (double(total) > split_copies_ * double(cubes.size())) break;  // wider only copies more
      const double expected = double(total) / double(1 << w);
      if (best.first < 0 || expected < best_expected) best = {i, w, total}, best_expected = expected;
    }
  }
  if (best.first >= 0 && best_expected > 0.75 * double(cubes.size())) best = {};
  return best;
}

}  // namespace egtmin::probe
