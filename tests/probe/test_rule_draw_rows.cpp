// SPDX-License-Identifier: GPL-3.0-or-later
// The rule's draws as rows (probe/rule_draw_rows.hpp): every member found and nothing else, for
// every slot left free; the rank a RuleDrawSet look-up gives; rows of few patterns in fewer words
// than the gaps take; and damaged words refused, or answered without reading outside them.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "probe/rule_draw_rows.hpp"
#include "probe/rule_draws.hpp"
#include "table/encoding.hpp"

namespace {

using egtmin::probe::RuleDrawRows;
using egtmin::probe::RuleDraws;
using egtmin::probe::RuleDrawSet;

constexpr int kPieces = 5;

// Indices of five pieces where the draws follow a few patterns of one piece's squares (as a
// king's squares do near the rule's draws), with some noise.
std::vector<uint32_t> patterned(uint64_t rows, int slot, uint32_t seed) {
  std::mt19937_64 rng(seed);
  const unsigned shift = unsigned(egtmin::square_shift(kPieces, slot));
  const uint64_t patterns[] = {0x000000000000FF00ull, 0x0101010101010101ull, 0x8040201008040201ull, 0x3ull};
  std::set<uint32_t> out;
  for (uint64_t r = 0; r < rows; ++r) {
    const uint64_t key = rng() & ((uint64_t{1} << 25) - 1);  // 31 index bits without the 6 free ones
    uint64_t mask = patterns[rng() % 4];
    if (rng() % 10 == 0) mask ^= uint64_t{1} << (rng() % 64);  // now and then a mask of its own
    const uint64_t low = key & ((uint64_t{1} << shift) - 1), high = key >> shift;
    for (uint64_t m = mask; m; m &= m - 1)
      out.insert(uint32_t(high << (shift + 6) | uint64_t(std::countr_zero(m)) << shift | low));
  }
  return {out.begin(), out.end()};
}

void expect_same_as_list(const RuleDrawRows& s, const std::vector<uint32_t>& list) {
  ASSERT_EQ(s.size(), list.size());
  std::set<uint64_t> probes{0, 1, (uint64_t{1} << 31) - 1};
  for (uint32_t v : list)
    for (int64_t d : {-64, -1, 0, 1, 64, 4096})
      probes.insert(uint64_t(std::clamp<int64_t>(int64_t(v) + d, 0, (1ll << 31) - 1)));
  for (uint64_t p : probes) ASSERT_EQ(s.contains(p), std::binary_search(list.begin(), list.end(), uint32_t(p))) << p;
}

TEST(RuleDrawSet, RankIsTheMembersPlaceInOrder) {
  std::vector<uint32_t> list;
  for (uint32_t x = 7; list.size() < 1'000; x += 1 + x % 13) list.push_back(x);
  auto s = RuleDrawSet::build(list);
  ASSERT_TRUE(s.ok());
  for (size_t i = 0; i < list.size(); ++i) {
    EXPECT_EQ(RuleDrawSet::rank(s->hot(), list[i]), i);
    if (list[i] + 1 != (i + 1 < list.size() ? list[i + 1] : 0)) {
      EXPECT_EQ(RuleDrawSet::rank(s->hot(), list[i] + 1), RuleDrawSet::kAbsent);
    }
  }
}

TEST(RuleDrawRows, FindsEveryMemberAndNothingElseWhicheverSlotIsFree) {
  for (int pattern_slot = 0; pattern_slot < kPieces; pattern_slot += 2) {
    const std::vector<uint32_t> list = patterned(3'000, pattern_slot, uint32_t(pattern_slot));
    for (int slot = 0; slot < kPieces; ++slot) {
      auto s = RuleDrawRows::build(list, kPieces, slot);
      ASSERT_TRUE(s.ok()) << s.error().message;
      EXPECT_EQ(s->free_shift(), egtmin::square_shift(kPieces, slot));
      expect_same_as_list(*s, list);
      auto attached = RuleDrawRows::attach(s->words());
      ASSERT_TRUE(attached.ok()) << attached.error().message;
      expect_same_as_list(*attached, list);
    }
  }
  for (const std::vector<uint32_t>& list : {std::vector<uint32_t>{0}, std::vector<uint32_t>{(1u << 31) - 1}}) {
    auto s = RuleDrawRows::build(list, kPieces, 0);
    ASSERT_TRUE(s.ok()) << s.error().message;
    expect_same_as_list(*s, list);
  }
}

TEST(RuleDrawRows, RowsOfFewPatternsTakeFewerWordsThanTheGaps) {
  const int slot = 1;
  const std::vector<uint32_t> list = patterned(20'000, slot, 9);
  auto gaps = RuleDrawSet::build(list);
  auto rows = RuleDrawRows::build_smallest(list, kPieces);
  ASSERT_TRUE(gaps.ok() && rows.ok());
  EXPECT_EQ(rows->free_shift(), egtmin::square_shift(kPieces, slot));
  EXPECT_LT(rows->words().size() * 2, gaps->words().size());
  expect_same_as_list(*rows, list);
}

// RuleDraws keeps whichever form takes fewer words, and reads either from its words.
TEST(RuleDraws, KeepsTheSmallerFormAndReadsEither) {
  std::vector<uint32_t> scattered;
  std::mt19937_64 rng(3);
  for (uint32_t x = 0; scattered.size() < 5'000;) scattered.push_back(x += 1 + uint32_t(rng() % 400'000));
  const std::vector<uint32_t> rowed = patterned(5'000, 2, 4);
  for (const auto& [list, rows] : {std::pair{scattered, false}, std::pair{rowed, true}}) {
    auto d = RuleDraws::build(list, kPieces);
    ASSERT_TRUE(d.ok()) << d.error().message;
    EXPECT_EQ(d->rows(), rows);
    auto gaps = RuleDrawSet::build(list);
    ASSERT_TRUE(gaps.ok());
    EXPECT_LE(d->words().size(), gaps->words().size());
    auto attached = RuleDraws::attach(d->words());
    ASSERT_TRUE(attached.ok()) << attached.error().message;
    EXPECT_EQ(attached->rows(), rows);
    for (uint32_t v : list) {
      ASSERT_TRUE(RuleDraws::contains(attached->hot(), v)) << v;
      ASSERT_EQ(RuleDraws::contains(attached->hot(), v + 1), std::binary_search(list.begin(), list.end(), v + 1)) << v;
    }
  }
  auto none = RuleDraws::build({}, kPieces);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  EXPECT_EQ(none->hot(), nullptr);
}

TEST(RuleDrawRows, RefusesListsThatAreNotAscending) {
  const std::vector<uint32_t> repeated{3, 3}, descending{4, 2};
  EXPECT_FALSE(RuleDrawRows::build(repeated, kPieces, 0).ok());
  EXPECT_FALSE(RuleDrawRows::build(descending, kPieces, 0).ok());
  EXPECT_FALSE(RuleDrawRows::build(std::vector<uint32_t>{1}, kPieces, kPieces).ok());
}

TEST(RuleDrawRows, DamagedWordsAreRefusedOrReadInside) {
  const std::vector<uint32_t> list = patterned(2'000, 3, 11);
  auto s = RuleDrawRows::build(list, kPieces, 3);
  ASSERT_TRUE(s.ok());
  const std::vector<uint64_t> good(s->words().begin(), s->words().end());
  auto damaged = [&](auto change) {
    std::vector<uint64_t> w = good;
    change(w);
    return RuleDrawRows::attach(w);
  };
  EXPECT_FALSE(damaged([](auto& w) { w.pop_back(); }).ok());
  EXPECT_FALSE(damaged([](auto& w) { w[0] &= ~RuleDrawRows::kTag; }).ok());
  EXPECT_FALSE(damaged([](auto& w) { w[0] |= uint64_t{5} << 32; }).ok());  // a shift inside a square
  EXPECT_FALSE(damaged([](auto& w) { w[1] += 1; }).ok());
  EXPECT_FALSE(damaged([](auto& w) { w[2] += 1; }).ok());
  EXPECT_FALSE(damaged([](auto& w) { w[3] += 1; }).ok());
  // A stream of all ones or all zeros is accepted (the tables are sound) and answers without
  // reading outside the words: under AddressSanitizer this fails if it did.
  const size_t stream_words = size_t(good[3]);
  for (uint64_t fill : {~uint64_t{0}, uint64_t{0}}) {
    std::vector<uint64_t> w = good;
    std::fill(w.end() - std::ptrdiff_t(stream_words), w.end(), fill);
    auto attached = RuleDrawRows::attach(w);
    ASSERT_TRUE(attached.ok()) << attached.error().message;
    for (uint32_t v : list) (void)attached->contains(v), (void)attached->contains(v + 1);
  }
}

}  // namespace
