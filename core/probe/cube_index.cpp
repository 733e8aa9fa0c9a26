// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/cube_index.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace egtmin::probe {

namespace {
// Leaves this small are scanned faster than another level of indirection pays for.
constexpr size_t kLeafMax = 4;
}  // namespace

CubeIndex::CubeIndex(std::span<const logic::CubeWord> cubes, int inputs, int max_copies, double split_copies,
                     std::span<const uint64_t> queries)
    : inputs_(inputs), split_copies_(split_copies) {
  const bool sampled = !queries.empty();
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
    std::vector<uint64_t> queries;  // the sampled queries reaching this node
  };
  auto cmp = [](const Pending* a, const Pending* b) { return a->priority < b->priority; };
  std::vector<Pending*> heap;
  std::vector<std::unique_ptr<Pending>> owned;
  auto push = [&](std::vector<logic::CubeWord> cs, uint64_t used, double share, size_t slot, int level,
                  std::vector<uint64_t> qs) {
    depth_ = std::max(depth_, level);
    // Expected scanning here: the share of probes reaching the node times its cubes.
    const double reach = sampled ? double(qs.size()) / double(queries.size()) : share;
    owned.push_back(std::make_unique<Pending>(
        Pending{reach * double(cs.size()), used, share, slot, level, std::move(cs), std::move(qs)}));
    heap.push_back(owned.back().get());
    std::push_heap(heap.begin(), heap.end(), cmp);
  };
  auto set_ref = [&](size_t slot, uint64_t ref) {
    if (slot == SIZE_MAX) root_ = ref;
    else nodes_[slot] = ref;
  };
  push(std::vector<logic::CubeWord>(cubes.begin(), cubes.end()), 0, 1.0, SIZE_MAX, 0,
       std::vector<uint64_t>(queries.begin(), queries.end()));
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), cmp);
    Pending* p = heap.back();
    heap.pop_back();
    const Split sp = sampled && p->queries.empty() ? Split{} : choose(p->cubes, p->used, p->queries);
    if (sp.first < 0 || sp.total - p->cubes.size() > budget_) {
      set_ref(p->slot, make_leaf(p->cubes, p->queries));
    } else {
      budget_ -= sp.total - p->cubes.size();
      const int w = sp.width, n = 1 << w;
      const size_t off = nodes_.size();
      nodes_.resize(off + size_t(n));
      set_ref(p->slot, (uint64_t(w) << 40) | (uint64_t(inputs_ - sp.first - w) << 32) | off);
      uint64_t used = p->used;
      for (int b = 0; b < w; ++b) used |= uint64_t{1} << (sp.first + b);
      const unsigned shift = unsigned(inputs_ - sp.first - w);
      std::vector<std::vector<uint64_t>> qs(static_cast<size_t>(n));
      for (uint64_t q : p->queries) qs[(q >> shift) & uint64_t(n - 1)].push_back(q);
      for (int v = 0; v < n; ++v) {
        std::vector<logic::CubeWord> child;
        for (logic::CubeWord c : p->cubes)
          if (admits(c, sp, v)) child.push_back(c);
        push(std::move(child), used, p->share / double(n), off + size_t(v), p->level + 1, std::move(qs[size_t(v)]));
      }
    }
    p->cubes = {};
    p->queries = {};
  }
  nodes_.shrink_to_fit();
  pool_.shrink_to_fit();
  choose_front(queries);
}

void CubeIndex::choose_front(std::span<const uint64_t> queries) {
  // Greedy maximum coverage of the sampled queries by kFront cubes. Each query's containing cubes
  // come from its leaf (every cube containing it is there), so this costs one leaf scan per query.
  std::vector<std::vector<logic::CubeWord>> holds(queries.size());
  std::unordered_map<logic::CubeWord, uint32_t> count;
  for (size_t q = 0; q < queries.size(); ++q) {
    uint64_t ref = root_;
    while (!(ref & kLeaf)) {
      const unsigned shift = unsigned(ref >> 32) & 63, width = unsigned(ref >> 40) & 7;
      ref = nodes_[(ref & 0xffffffffu) + ((queries[q] >> shift) & ((1u << width) - 1))];
    }
    const logic::CubeWord m = logic::minterm(queries[q], inputs_);
    const logic::CubeWord* c = pool_.data() + (ref & kStartMask);
    const logic::CubeWord* end = c + ((ref >> kCountShift) & kCountMask);
    for (; c != end; ++c)
      if (logic::contains(*c, m)) {
        holds[q].push_back(*c);
        ++count[*c];
      }
  }
  std::vector<char> covered(queries.size(), 0);
  for (front_size_ = 0; front_size_ < kFront; ++front_size_) {
    logic::CubeWord best = 0;
    uint32_t best_n = 0;
    for (const auto& [cube, n] : count)
      if (n > best_n || (n == best_n && n > 0 && cube < best)) best = cube, best_n = n;
    if (best_n == 0) break;
    front_[size_t(front_size_)] = best;
    for (size_t q = 0; q < queries.size(); ++q) {
      if (covered[q] || std::find(holds[q].begin(), holds[q].end(), best) == holds[q].end()) continue;
      covered[q] = 1;
      for (logic::CubeWord c : holds[q]) --count[c];
    }
  }
}

uint64_t CubeIndex::make_leaf(std::vector<logic::CubeWord>& cubes, const std::vector<uint64_t>& queries) {
  // Scans stop at the first match, so the cubes most queries hit go first: by how many sampled
  // queries each contains, then bigger cubes (fewer literals) first, which hold more positions.
  std::vector<std::pair<uint64_t, logic::CubeWord>> order(cubes.size());
  for (size_t i = 0; i < cubes.size(); ++i) order[i] = {0, cubes[i]};
  if (cubes.size() > 1)
    for (uint64_t q : queries) {
      const logic::CubeWord m = logic::minterm(q, inputs_);
      for (auto& [hits, c] : order) hits += logic::contains(c, m);
    }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first > b.first;
    return logic::literals(a.second) < logic::literals(b.second);
  });
  for (size_t i = 0; i < cubes.size(); ++i) cubes[i] = order[i].second;
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

CubeIndex::Split CubeIndex::choose(const std::vector<logic::CubeWord>& cubes, uint64_t used_inputs,
                                   const std::vector<uint64_t>& queries) const {
  Split best;
  if (cubes.size() <= kLeafMax) return best;
  // Enough sampled queries: judge a split by the cubes the sampled queries would find in their
  // child (where probes really go); else by the mean child size over the run's values.
  const bool weighted = queries.size() >= 16;
  std::vector<uint8_t> dc(cubes.size());
  std::vector<uint32_t> child(64), hits(64);
  double best_expected = 0;
  for (int i = 0; i < inputs_; ++i) {
    if (used_inputs >> i & 1) continue;
    std::fill(dc.begin(), dc.end(), 0);
    for (int w = 1; w <= 6 && i + w <= inputs_; ++w) {
      if (used_inputs >> (i + w - 1) & 1) break;
      const int shift = logic::pair_shift(i + w - 1);
      // total(i, w) = sum over cubes of 2^(the cube's don't-cares among inputs i .. i+w-1).
      size_t total = 0;
      for (size_t c = 0; c < cubes.size(); ++c) {
        dc[c] = uint8_t(dc[c] + (((cubes[c] >> shift) & 3) == 3));
        total += size_t{1} << dc[c];
      }
      if (double(total) > split_copies_ * double(cubes.size())) break;  // wider only copies more
      double expected = double(total) / double(1 << w);
      if (weighted) {
        std::fill(child.begin(), child.end(), 0);
        for (logic::CubeWord c : cubes) {
          // The run's fixed value bits and its don't-care bits; every value they admit gets a copy.
          unsigned ones = 0, x = 0;
          for (int b = 0; b < w; ++b) {
            const unsigned pair = unsigned(c >> logic::pair_shift(i + b)) & 3, bit = 1u << (w - 1 - b);
            if (pair == 3) x |= bit;
            else if (pair == 1) ones |= bit;
          }
          unsigned sub = 0;
          do {
            ++child[ones | sub];
            sub = (sub - x) & x;
          } while (sub != 0);
        }
        const unsigned qshift = unsigned(inputs_ - i - w);
        double sum = 0;
        for (uint64_t q : queries) sum += child[(q >> qshift) & ((1u << w) - 1)];
        expected = sum / double(queries.size());
      }
      if (best.first < 0 || expected < best_expected) best = {i, w, total}, best_expected = expected;
    }
  }
  if (best.first >= 0 && best_expected > 0.75 * double(cubes.size())) best = {};
  return best;
}

}  // namespace egtmin::probe
