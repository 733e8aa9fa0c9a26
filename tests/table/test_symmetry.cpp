// SPDX-License-Identifier: GPL-3.0-or-later
// Symmetry::canonical_slot against its definition: the representative is the image under the
// balance's board symmetries, identical pieces sorted, with the smallest index.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <random>
#include <vector>

#include "table/symmetry.hpp"

namespace egtmin {
namespace {

// The definition, by brute force: every transform of the group, runs sorted by a plain sort.
uint64_t canonical_index_by_definition(const Encoding& enc, const Placement& p) {
  const int group = enc.balance().has_pawns() ? 2 : 8;
  uint64_t best = ~uint64_t{0};
  for (int g = 0; g < group; ++g) {
    Placement t = p;
    for (int i = 0; i < enc.pieces(); ++i) t.sq[size_t(i)] = kTransforms[size_t(g)][p.sq[size_t(i)]];
    // Each run of identical pieces in ascending squares, by insertion: GCC 12 warns
    // (-Warray-bounds) of std::sort's reach past the six squares, a false alarm.
    for (int i = 1; i < enc.pieces(); ++i)
      for (int k = i; k > 0 && enc.piece(k - 1) == enc.piece(k) && t.sq[size_t(k)] < t.sq[size_t(k - 1)]; --k)
        std::swap(t.sq[size_t(k)], t.sq[size_t(k - 1)]);
    best = std::min(best, enc.encode(t));
  }
  return best;
}

// Runs of one, two and three identical pieces on either side, with and without pawns, 2 to 6
// pieces (6: the general path, a run of four and two runs of two).
TEST(Symmetry, CanonicalSlotIsTheSmallestImage) {
  std::mt19937_64 rng(7);
  for (const char* name : {"KvK", "KQvK", "KNNvK", "KPvKP", "KRvKNN", "KBBvKN", "KNNNvK", "KPPPvK", "KRPvKR", "KPPvKP",
                           "KQQvKQ", "KRRvKNN", "KNNNNvK", "KPPPvKP"}) {
    auto b = Balance::parse(name);
    ASSERT_TRUE(b.ok()) << name;
    const Encoding enc(*b);
    const Symmetry sym(enc);
    for (int n = 0; n < 20000; ++n) {
      // Any squares (collisions and pawns on the back ranks too: the slot is defined for them).
      const Placement p = enc.decode(rng() & (enc.size() - 1));
      const uint64_t slot = sym.canonical_slot(p);
      const Placement rep = sym.from_slot(slot);
      ASSERT_EQ(enc.encode(rep), canonical_index_by_definition(enc, p)) << name << " " << enc.encode(p);
      ASSERT_EQ(sym.slot(rep), slot) << name;
      ASSERT_TRUE(sym.is_canonical(rep)) << name;
    }
  }
}

// moved_slot (a move from a representative, the turn passed) against canonical_slot of the
// placement after it: every piece to every square, kings on and off the diagonals, runs of one to
// four identical pieces, with and without pawns.
TEST(Symmetry, MovedSlotIsTheCanonicalSlotAfterTheMove) {
  std::mt19937_64 rng(11);
  for (const char* name : {"KQvK", "KRvKB", "KNNvK", "KPPvKP", "KRPvKR", "KNNNvK", "KBBvKN", "KNNNNvK"}) {
    auto b = Balance::parse(name);
    ASSERT_TRUE(b.ok()) << name;
    const Encoding enc(*b);
    const Symmetry sym(enc);
    for (int n = 0; n < 2000; ++n) {
      const uint64_t slot = sym.canonical_slot(enc.decode(rng() & (enc.size() - 1)));
      const Placement p = sym.from_slot(slot);
      for (int i = 0; i < enc.pieces(); ++i)
        for (int to = 0; to < 64; ++to) {
          Placement q = p;
          q.sq[size_t(i)] = Square(to);
          q.stm = ~p.stm;
          ASSERT_EQ(sym.moved_slot(p, slot, i, Square(to)), sym.canonical_slot(q))
              << name << " slot " << slot << " piece " << i << " to " << to;
        }
    }
  }
}

// is_canonical against the definition, on placements whose white king stands anywhere (off its
// orbit's minimum, on a diagonal, elsewhere) and whose identical pieces come in any order.
TEST(Symmetry, IsCanonicalExactlyForTheSmallestImage) {
  std::mt19937_64 rng(13);
  for (const char* name : {"KQvK", "KNNvK", "KPPvKP", "KRPvKR", "KNNNvK", "KBBvKN", "KNNNNvK"}) {
    auto b = Balance::parse(name);
    ASSERT_TRUE(b.ok()) << name;
    const Encoding enc(*b);
    const Symmetry sym(enc);
    int canonical = 0;
    for (int n = 0; n < 100000; ++n) {
      const Placement p = enc.decode(rng() & (enc.size() - 1));
      const bool expected = enc.encode(p) == canonical_index_by_definition(enc, p);
      ASSERT_EQ(sym.is_canonical(p), expected) << name << " " << enc.encode(p);
      canonical += expected;
    }
    EXPECT_GT(canonical, 0) << name;
  }
}

// class_size counts the indices whose representative a canonical placement is: every placement
// with distinct squares, counted at its representative, adds up to each class_size (kings on and
// off the diagonals, runs of identical pieces, with and without pawns).
TEST(Symmetry, ClassSizeCountsTheIndicesOfARepresentative) {
  for (const char* name : {"KQvK", "KPvK", "KNNvK", "KPPvK", "KRvKB"}) {
    auto b = Balance::parse(name);
    ASSERT_TRUE(b.ok()) << name;
    const Encoding enc(*b);
    const Symmetry sym(enc);
    std::vector<uint32_t> seen(sym.domain_size());
    for (uint64_t i = 0; i < enc.size(); ++i) {
      const Placement p = enc.decode(i);
      uint64_t squares = 0;
      for (int j = 0; j < enc.pieces(); ++j) squares |= uint64_t{1} << p.sq[size_t(j)];
      if (std::popcount(squares) == enc.pieces()) ++seen[sym.canonical_slot(p)];
    }
    uint64_t classes = 0;
    for (uint64_t s = 0; s < seen.size(); ++s) {
      if (!seen[s]) continue;
      ++classes;
      ASSERT_EQ(sym.class_size(sym.from_slot(s)), seen[s]) << name << " slot " << s;
    }
    EXPECT_GT(classes, 1000u) << name;
  }
}

}  // namespace
}  // namespace egtmin
