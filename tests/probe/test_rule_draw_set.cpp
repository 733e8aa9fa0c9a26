// SPDX-License-Identifier: GPL-3.0-or-later
// The Rice-coded list of a cover's 50-move-rule draws: every member found and nothing else, across
// block edges, runs, wide gaps and the index space's ends; a few bits an index where they cluster;
// and damaged words refused, or answered without reading outside them.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "probe/rule_draw_set.hpp"

namespace {

using egtmin::probe::RuleDrawSet;

// Every member, and every index next to one, against a binary search of the list.
void expect_same_as_list(const RuleDrawSet& s, const std::vector<uint32_t>& list) {
  ASSERT_EQ(s.size(), list.size());
  std::set<uint64_t> probes{0, 1, (uint64_t{1} << 31) - 1, uint64_t{1} << 31, 0xFFFFFFFFull};
  for (uint32_t v : list) {
    probes.insert(v);
    if (v > 0) probes.insert(v - 1);
    probes.insert(uint64_t(v) + 1);
  }
  for (uint64_t p : probes)
    ASSERT_EQ(s.contains(p), std::binary_search(list.begin(), list.end(), uint32_t(p)) && p <= 0xFFFFFFFFull) << p;
}

std::vector<uint32_t> clustered(uint64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> v;
  uint64_t x = rng() % 1000;
  while (v.size() < n) {
    // Runs of consecutive indices with small and, now and then, very wide gaps between them.
    const int run = 1 + int(rng() % 12);
    for (int i = 0; i < run && v.size() < n; ++i) v.push_back(uint32_t(x++));
    x += rng() % 50 == 0 ? rng() % 5'000'000 : rng() % 40;
    if (x >= (uint64_t{1} << 31)) break;
  }
  return v;
}

TEST(RuleDrawSet, EmptyHasNoWordsAndNoMembers) {
  auto s = RuleDrawSet::build({});
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->empty());
  EXPECT_TRUE(s->words().empty());
  EXPECT_EQ(s->hot(), nullptr);
  EXPECT_FALSE(s->contains(0));
  auto attached = RuleDrawSet::attach({});
  ASSERT_TRUE(attached.ok());
  EXPECT_TRUE(attached->empty());
}

TEST(RuleDrawSet, FindsEveryMemberAndNothingElse) {
  const std::vector<std::vector<uint32_t>> lists{
      {0},
      {(uint32_t{1} << 31) - 1},
      {5, 6, 7, 8},
      {0, 0x7FFFFFFF, 0xFFFFFFFF},  // the widest gaps, to 32-bit indices
      clustered(63, 1),
      clustered(64, 2),  // one whole block
      clustered(65, 3),  // and one index more
      clustered(20'000, 4),
  };
  for (const auto& list : lists) {
    auto s = RuleDrawSet::build(list);
    ASSERT_TRUE(s.ok()) << s.error().message;
    expect_same_as_list(*s, list);
    // The same words attached where they lie (as in a mapped layout) answer the same.
    auto attached = RuleDrawSet::attach(s->words());
    ASSERT_TRUE(attached.ok()) << attached.error().message;
    EXPECT_EQ(attached->memory_bytes(), 0u);
    expect_same_as_list(*attached, list);
  }
}

TEST(RuleDrawSet, ClusteredIndicesTakeAFewBitsEach) {
  std::vector<uint32_t> list;
  for (uint32_t x = 0; list.size() < 100'000; x += 3) list.push_back(x);  // every third index
  auto s = RuleDrawSet::build(list);
  ASSERT_TRUE(s.ok());
  // Gaps of 2: k = 1, 3 bits a gap, and a 64-bit head each 64 indices: about 4 bits an index,
  // where the list takes 32.
  EXPECT_LT(s->words().size_bytes() * 8, list.size() * 5);
  expect_same_as_list(*s, list);
}

TEST(RuleDrawSet, RefusesListsThatAreNotAscending) {
  const std::vector<uint32_t> repeated{3, 3}, descending{4, 2};
  EXPECT_FALSE(RuleDrawSet::build(repeated).ok());
  EXPECT_FALSE(RuleDrawSet::build(descending).ok());
}

TEST(RuleDrawSet, DamagedWordsAreRefusedOrReadInside) {
  const std::vector<uint32_t> list = clustered(1'000, 5);
  auto s = RuleDrawSet::build(list);
  ASSERT_TRUE(s.ok());
  const std::vector<uint64_t> good(s->words().begin(), s->words().end());
  const uint64_t blocks = (list.size() + 63) / 64;

  auto damaged = [&](auto change) {
    std::vector<uint64_t> w = good;
    change(w);
    return RuleDrawSet::attach(w);
  };
  auto r = damaged([](auto& w) { w.pop_back(); });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("do not add up"), std::string::npos) << r.error().message;
  EXPECT_FALSE(damaged([](auto& w) { w[0] = 0; }).ok());
  EXPECT_FALSE(damaged([](auto& w) { w[1] += 1; }).ok());
  EXPECT_FALSE(damaged([&](auto& w) { w[2 + blocks - 1] |= uint64_t{0xFFFFFFFF} << 32; }).ok());  // offset past the end
  EXPECT_FALSE(damaged([](auto& w) { std::swap(w[2], w[3]); }).ok());                             // heads out of order
  // A stream of all ones or all zeros is accepted (the heads are sound) and answers without
  // reading outside the words: under AddressSanitizer this fails if it did.
  for (uint64_t fill : {~uint64_t{0}, uint64_t{0}}) {
    std::vector<uint64_t> w = good;
    std::fill(w.begin() + std::ptrdiff_t(2 + blocks), w.end(), fill);
    auto attached = RuleDrawSet::attach(w);
    ASSERT_TRUE(attached.ok());
    for (uint32_t v : list) {
      (void)attached->contains(v + 1);
      EXPECT_TRUE(attached->contains(list[(std::lower_bound(list.begin(), list.end(), v) - list.begin()) / 64 * 64]));
    }
  }
}

}  // namespace
