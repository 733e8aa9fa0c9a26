// SPDX-License-Identifier: GPL-3.0-or-later
// The indexed probe strategy: a shallow decision tree over the paper's encoding, built from a
// cover's cubes alone. Each inner node switches on the value of a run of 1 to 6 consecutive inputs
// (2 to 64 children); a cube with don't-cares in that run is copied into every child it admits, so
// each leaf holds exactly the cubes that can contain the minterms reaching it, and a probe is a few
// array reads plus a short scan of a leaf.
// Nodes are split best first, by expected scanning (cubes times the share of sampled queries that
// reach the node), with the run that leaves the sampled queries the fewest cubes in their child,
// among runs that copy at most `split_copies` times the node's cubes; splitting stops at small
// leaves, when no run helps, or when the copies reach `max_copies` times the cover. Leaves put the
// cubes most sampled queries hit first, and a front line of the 16 cubes that together hold the most
// sampled queries is checked before the tree (for many balances a few big cubes hold half the
// positions, and those two cache lines stay in L1). Measured on 4-piece covers, small budgets win: the whole
// index stays in cache (see docs/bench-probe.md). Everything lives in two flat arrays of 64-bit
// words.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "logic/cube.hpp"

namespace egtmin::probe {

class CubeIndex {
 public:
  CubeIndex() = default;
  // `inputs` = 1 + 6 * pieces. `max_copies`: the leaves may hold at most this many cube copies per
  // cube of the cover (the memory budget).
  // `queries`: optional sample of the indices probes will ask for (canonical representatives of
  // legal positions). With it, the copy budget is spent where the sample goes and regions no
  // sampled query reaches stay unsplit; without it, the index space is taken as uniform.
  CubeIndex(std::span<const logic::CubeWord> cubes, int inputs, int max_copies = 4, double split_copies = 2.0,
            std::span<const uint64_t> queries = {});

  // The first cube in the leaf of `index` (the table index, stm bit first) that contains `minterm`
  // (= logic::minterm(index, inputs)); 0 when no cube contains it.
  logic::CubeWord find(uint64_t index, logic::CubeWord minterm) const {
    // The few cubes that hold the most sampled queries, in two cache lines that stay hot. All 16
    // are tested without early exit (unused slots are 0 and contain nothing), so the loop has a
    // fixed trip count and no data-dependent branch; the first hit is the lowest set bit.
    unsigned hits = 0;
    for (int k = 0; k < kFront; ++k) hits |= unsigned(logic::contains(front_[size_t(k)], minterm)) << k;
    if (hits) return front_[size_t(__builtin_ctz(hits))];
    uint64_t ref = root_;
    while (!(ref & kLeaf)) {
      const unsigned shift = unsigned(ref >> 32) & 63, width = unsigned(ref >> 40) & 7;
      ref = nodes_[(ref & 0xffffffffu) + ((index >> shift) & ((1u << width) - 1))];
    }
    const logic::CubeWord* c = pool_.data() + (ref & kStartMask);
    const logic::CubeWord* end = c + ((ref >> kCountShift) & kCountMask);
    for (; c != end; ++c)
      if (logic::contains(*c, minterm)) return *c;
    return 0;
  }

  size_t memory_bytes() const { return (nodes_.capacity() + pool_.capacity()) * sizeof(uint64_t) + sizeof(*this); }
  size_t nodes() const { return nodes_.size(); }
  size_t cube_copies() const { return pool_.size(); }
  int depth() const { return depth_; }
  int front_size() const { return front_size_; }
  size_t largest_leaf() const { return largest_leaf_; }

 private:
  // Node references: leaf = kLeaf | count << kCountShift | start in pool_; inner = width << 40 |
  // shift << 32 | offset in nodes_ of its 2^width child references (the children are indexed by
  // (index >> shift) & (2^width - 1)).
  static constexpr uint64_t kLeaf = uint64_t{1} << 63;
  static constexpr int kCountShift = 40;
  static constexpr uint64_t kCountMask = (uint64_t{1} << 23) - 1;
  static constexpr uint64_t kStartMask = (uint64_t{1} << 40) - 1;

  struct Split {
    int first = -1, width = 0;  // inputs first .. first + width - 1
    size_t total = 0;           // cube copies over the children
  };
  Split choose(const std::vector<logic::CubeWord>& cubes, uint64_t used_inputs,
               const std::vector<uint64_t>& queries) const;
  static bool admits(logic::CubeWord c, const Split& sp, int v);
  uint64_t make_leaf(std::vector<logic::CubeWord>& cubes, const std::vector<uint64_t>& queries);

  int inputs_ = 0;
  double split_copies_ = 2.0;
  size_t budget_ = 0;
  void choose_front(std::span<const uint64_t> queries);

  static constexpr int kFront = 16;  // two cache lines
  std::array<logic::CubeWord, kFront> front_{};
  int front_size_ = 0;
  uint64_t root_ = kLeaf;
  std::vector<uint64_t> nodes_;
  std::vector<logic::CubeWord> pool_;
  int depth_ = 0;
  size_t largest_leaf_ = 0;
};

}  // namespace egtmin::probe
