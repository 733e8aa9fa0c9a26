// SPDX-License-Identifier: GPL-3.0-or-later
// Compaction straight from the care bitmaps (logic/bitmap_compact.hpp): the word-level merging
// against brute force, the cover's exactness and fixed point on random small functions, and the
// pipeline's bitmap path against the minterm path on 3- and 4-piece tables.
#include <gtest/gtest.h>

#include <random>

#include "logic/bitmap_compact.hpp"
#include "logic/check.hpp"
#include "logic/passes.hpp"
#include "logic/pipeline.hpp"
#include "support/env.hpp"

namespace egtmin::logic {
namespace {

// The minterms (bit v) of a word-level cube pattern over `width` inputs.
uint64_t pattern_minterms(uint16_t pat, int width) {
  uint64_t m = 0;
  for (int v = 0; v < (1 << width); ++v) {
    bool in = true;
    for (int b = 0; b < width; ++b) in &= ((pat >> (2 * b)) & (((v >> b) & 1) ? 1 : 2)) != 0;
    if (in) m |= uint64_t{1} << v;
  }
  return m;
}

// Do two cubes of the same output merge (equal except one input, 0 there in one and 1 in the
// other) or does one swallow the other at one input (X against 0 or 1)? A fixed point has neither.
bool mergeable(CubeWord a, CubeWord b) {
  CubeWord d = (a ^ b) & kInputMask;
  if (!d || output_of(a) != output_of(b)) return false;
  CubeWord pairs = (d | (d >> 1)) & kLowBits;
  return (pairs & (pairs - 1)) == 0;
}

TEST(BitmapCompact, WordCubesCoverTheSetAndAreAFixedPoint) {
  std::mt19937_64 rng(11);
  uint16_t cubes[64];
  for (int width = 1; width <= 6; ++width) {
    const uint64_t full = width == 6 ? ~uint64_t{0} : (uint64_t{1} << (1 << width)) - 1;
    for (int trial = 0; trial < 3000; ++trial) {
      // Dense, sparse and structured sets.
      uint64_t set = rng() & full;
      if (trial % 3 == 1) set &= rng();
      if (trial % 3 == 2) set |= rng() | rng();
      set &= full;
      if (trial % 7 == 0) set = full;
      uint64_t keep = trial % 2 ? set : set & (rng() | rng());
      int k = word_cubes(set, keep, width, cubes);
      uint64_t covered = 0;
      for (int j = 0; j < k; ++j) {
        uint64_t m = pattern_minterms(cubes[j], width);
        ASSERT_EQ(m & ~set, 0u) << "cube outside the set, width " << width;
        ASSERT_NE(m & keep, 0u) << "cube with no kept minterm";
        covered |= m;
        for (int i = 0; i < j; ++i) {
          CubeWord a = with_output(CubeWord(cubes[i]), Output::Win), b = with_output(CubeWord(cubes[j]), Output::Win);
          ASSERT_FALSE(mergeable(a, b)) << "width " << width << " set " << std::hex << set;
        }
      }
      ASSERT_EQ(keep & ~covered, 0u) << "kept minterm uncovered, width " << width;
      if (keep == set) {
        ASSERT_EQ(covered, set);
      }
    }
  }
}

// Random function: about dc_share don't-cares, else W/D/L with runs so that cubes can grow.
std::vector<uint8_t> random_values(int n, double dc_share, std::mt19937_64& rng) {
  std::vector<uint8_t> v(size_t(1) << n);
  std::uniform_real_distribution<double> u(0, 1);
  for (size_t i = 0; i < v.size(); ++i) {
    if (u(rng) < dc_share) continue;
    int base = int(((i >> (n > 2 ? n - 2 : 0)) + (i >> 3)) % 3) + 1;
    v[i] = uint8_t(u(rng) < 0.85 ? base : int(rng() % 3) + 1);
  }
  return v;
}

TEST(BitmapCompact, CoverIsExactAndCompactOnRandomFunctions) {
  std::mt19937_64 rng(5);
  for (int n : {2, 5, 6, 7, 9, 12, 13})
    for (double dc : {0.0, 0.3, 0.8}) {
      auto values = random_values(n, dc, rng);
      CareFunction f = CareFunction::from_values(n, values);
      for (bool use_dc : {false, true})
        for (int chunk : {0, 2, 12}) {
          SCOPED_TRACE("n " + std::to_string(n) + " dc " + std::to_string(dc) + " use_dc " + std::to_string(use_dc) +
                       " chunk " + std::to_string(chunk));
          Cover all;
          for (int s = 0; s < kOutputs; ++s) {
            Output o = slot_output(s);
            Cover c = bitmap_compact(f, o, {use_dc, chunk});
            for (CubeWord q : c) {
              ASSERT_EQ(output_of(q), o);
              ASSERT_FALSE(f.blocked(q)) << to_text(q, n);
              ASSERT_TRUE(f.useful(q)) << to_text(q, n);
            }
            // A fixed point of distance-one merging: compact() finds nothing more to do.
            Cover again = c;
            compact(again);
            EXPECT_EQ(again.size(), c.size());
            // Never more cubes than the minterms.
            EXPECT_LE(c.size(), f.on(o).count());
            all.insert(all.end(), c.begin(), c.end());
          }
          // Every care minterm is covered by a cube of its output; without don't-cares the
          // cubes hold ON minterms only.
          for (uint64_t i = 0; i < values.size(); ++i) {
            CubeWord m = minterm(i, n);
            bool hit = false;
            for (CubeWord q : all)
              if (contains(q, m)) {
                if (!use_dc) {
                  ASSERT_EQ(uint8_t(output_of(q)), values[i]) << "minterm " << i;
                }
                hit |= uint8_t(output_of(q)) == values[i];
              }
            if (values[i]) {
              ASSERT_TRUE(hit) << "minterm " << i << " uncovered";
            }
          }
        }
    }
}

TEST(BitmapCompact, ShrinksStructuredFunctionsLikeCompact) {
  // Mostly one output per top-bit block with scattered don't-cares: both compactions collapse the
  // blocks; the bitmap one (with don't-cares) to no more cubes than compact() on the minterms.
  std::mt19937_64 rng(9);
  const int n = 13;
  auto values = random_values(n, 0.2, rng);
  CareFunction f = CareFunction::from_values(n, values);
  for (int s = 0; s < kOutputs; ++s) {
    Output o = slot_output(s);
    Cover minterms;
    for (uint64_t i = 0; i < values.size(); ++i)
      if (values[i] == uint8_t(o)) minterms.push_back(minterm(i, n, o));
    Cover old = minterms;
    compact(old);
    Cover fresh = bitmap_compact(f, o);
    EXPECT_LT(fresh.size(), minterms.size() / 2);
    EXPECT_LE(fresh.size(), old.size());
  }
}

TEST(BitmapCompact, PipelineBitmapPathMatchesTheMintermPathOnTables) {
  for (const char* name : {"KRvK", "KPvK", "KRvKR"}) {
    auto b = Balance::parse(name)->canonical();
    auto t = test::shared_store().ensure(b);
    ASSERT_TRUE(t) << t.error().message;
    for (const char* passes : {"canon,compact,expand,irredundant", "canon,compact", "compact,canon,expand"}) {
      // The 4-piece table only through the main pipeline (the others take too long for a test).
      if (b.pieces() > 3 && std::string(passes) != "canon,compact,expand,irredundant") continue;
      SCOPED_TRACE(std::string(name) + " " + passes);
      MinimizeOptions old_opt{CanonScheme::Full, 2, CompactSource::Minterms};
      MinimizeOptions new_opt{CanonScheme::Full, 2, CompactSource::Bitmap};
      auto old_r = minimize_table(**t, *parse_passes(passes), old_opt);
      auto new_r = minimize_table(**t, *parse_passes(passes), new_opt);
      ASSERT_TRUE(old_r && new_r);
      EXPECT_EQ(new_r->scheme, old_r->scheme);
      EXPECT_EQ(new_r->initial_cubes, old_r->initial_cubes);
      EXPECT_EQ(new_r->care_positions, old_r->care_positions);
      ASSERT_EQ(new_r->reports.size(), old_r->reports.size());
      if (std::string(passes).starts_with("canon")) {
        EXPECT_EQ(new_r->reports[0].cubes, old_r->reports[0].cubes);
      }
      // Both exact on every legal position (the same function on the care set).
      auto c = check_cover(**t, new_r->cover, new_r->scheme, new_r->rule_draws, logic::Output::None, 0, 1, 2);
      EXPECT_TRUE(c.exhaustive);
      EXPECT_EQ(c.mismatches, 0u) << c.first_mismatch;
      auto d = check_cover(**t, old_r->cover, old_r->scheme, old_r->rule_draws, logic::Output::None, 0, 1, 2);
      EXPECT_EQ(d.mismatches, 0u) << d.first_mismatch;
      EXPECT_EQ(c.positions, d.positions);
      // The bitmap compaction is at least as compact as the minterm one.
      size_t at = std::string(passes).find("compact,canon") == 0 ? 0 : 1;
      EXPECT_LE(new_r->reports[at].cubes, old_r->reports[at].cubes);
    }
  }
}

TEST(BitmapCompact, AutoKeepsSmallTablesOnTheMintermPath) {
  auto b = Balance::parse("KQvK")->canonical();
  auto t = test::shared_store().ensure(b);
  ASSERT_TRUE(t);
  auto passes = *parse_passes("canon,compact,expand,irredundant");
  auto a = minimize_table(**t, passes, MinimizeOptions{CanonScheme::Full, 1, CompactSource::Auto});
  auto m = minimize_table(**t, passes, MinimizeOptions{CanonScheme::Full, 1, CompactSource::Minterms});
  ASSERT_TRUE(a && m);
  EXPECT_EQ(a->cover, m->cover);
}

TEST(BitmapCompact, CancelledBitmapRunIsAnError) {
  std::mt19937_64 rng(3);
  auto values = random_values(13, 0.3, rng);
  Progress p;
  p.cancel();
  auto r = minimize_function(CareFunction::from_values(13, values), *parse_passes("compact,expand"),
                             MinimizeOptions{CanonScheme::Full, 1, CompactSource::Bitmap}, p);
  EXPECT_FALSE(r);
}

}  // namespace
}  // namespace egtmin::logic
