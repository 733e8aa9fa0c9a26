// SPDX-License-Identifier: GPL-3.0-or-later
// Every slab-scan build this CPU runs (portable, AVX2, AVX-512F) against a plain reference on
// random slabs: block counts that are not multiples of the vector width, hits only in the last
// lanes or past them, scans that start after block 0, and sparse rows where most blocks miss.
// The index and prober tests run with the fastest build; ctest runs them again with
// EGTMIN_SLAB_SCAN=portable (tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <random>

#include "probe/slab_scan.hpp"

namespace egtmin::probe {
namespace {

SlabHit reference(const std::vector<uint64_t>& slab, uint64_t blocks, const std::vector<uint32_t>& at, uint64_t first) {
  for (uint64_t b = first; b < blocks; ++b) {
    uint64_t acc = ~uint64_t{0};
    for (uint32_t row : at) acc &= slab[row + b];
    if (acc) return {b, acc};
  }
  return {};
}

TEST(SlabScan, EveryBuildFindsTheFirstMatchingBlock) {
  const std::vector<SlabScanner> builds = available_slab_scanners();
  ASSERT_FALSE(builds.empty());
  EXPECT_EQ(builds.front().name, "portable");
  std::mt19937_64 rng(2024);
  int checked = 0, found = 0;
  for (uint64_t blocks : {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 63, 64, 65, 200}) {
    for (int trial = 0; trial < 60; ++trial) {
      const int rows = 3 + int(rng() % 12), groups = 1 + int(rng() % 9);
      // Sparse words (an AND of a few of them is mostly zero), so matches are rare and late.
      std::vector<uint64_t> slab(size_t(rows) * blocks + kSlabPadding, ~uint64_t{0});  // padding: garbage-like ones
      for (size_t w = 0; w < size_t(rows) * blocks; ++w) slab[w] = rng() & rng() & rng() & rng();
      std::vector<uint32_t> at(static_cast<size_t>(groups));
      for (auto& a : at) a = uint32_t(rng() % uint64_t(rows)) * uint32_t(blocks);
      const uint64_t first = blocks == 0 ? 0 : rng() % (blocks + 1);
      const SlabHit want = reference(slab, blocks, at, first);
      for (const SlabScanner& s : builds) {
        const SlabHit got = s.scan(slab.data(), blocks, at.data(), groups, first);
        ASSERT_EQ(got.hits, want.hits) << s.name << " blocks " << blocks << " groups " << groups << " first " << first;
        if (want.hits) {
          ASSERT_EQ(got.block, want.block) << s.name;
        }
      }
      ++checked;
      found += want.hits != 0;
    }
  }
  // The random slabs must exercise both outcomes.
  EXPECT_GT(found, checked / 10);
  EXPECT_LT(found, checked);
}

TEST(SlabScan, MatchInTheLastBlockOnly) {
  // A match only in the last block of a row whose next row is all ones: the vector builds read
  // those ones past the row's end and must not take them for blocks.
  for (const SlabScanner& s : available_slab_scanners()) {
    for (uint64_t blocks = 1; blocks <= 20; ++blocks) {
      std::vector<uint64_t> slab(2 * blocks + kSlabPadding, ~uint64_t{0});
      for (uint64_t b = 0; b < blocks; ++b) slab[b] = 0;
      slab[blocks - 1] = 0x80;
      const std::vector<uint32_t> at{0};
      SlabHit h = s.scan(slab.data(), blocks, at.data(), 1, 0);
      EXPECT_EQ(h.block, blocks - 1) << s.name;
      EXPECT_EQ(h.hits, 0x80u) << s.name;
      slab[blocks - 1] = 0;
      h = s.scan(slab.data(), blocks, at.data(), 1, 0);
      EXPECT_EQ(h.hits, 0u) << s.name << " blocks " << blocks;
    }
  }
}

TEST(SlabScan, ChosenBuildIsAvailable) {
  const SlabScanner& chosen = slab_scanner();
  bool listed = false;
  for (const SlabScanner& s : available_slab_scanners()) listed |= s.name == chosen.name;
  EXPECT_TRUE(listed) << chosen.name;
  EXPECT_EQ(chosen.vector, chosen.name != "portable");
}

}  // namespace
}  // namespace egtmin::probe
