// SPDX-License-Identifier: GPL-3.0-or-later
// The cube layouts of version 2 cover files (store/cube_trie.hpp), without LZMA: round trips
// under every field order, the orders the writer tries, and damaged layouts refused or read as
// another layout the writer could have written.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <random>

#include "store/cover_file.hpp"  // candidate_orders: the orders the writer tries
#include "store/cube_trie.hpp"
#include "support/cubes.hpp"

namespace egtmin::store {
namespace {

using test::random_cubes;
using test::sorted;

// Both layouts under every order the writer tries and some it does not (field 0 elsewhere).
TEST(CubeTrie, LayoutsRoundTripUnderEveryOrder) {
  for (int inputs : {13, 19, 25, 31}) {
    auto cubes = random_cubes(inputs, 700, 0.6, uint64_t(inputs));
    auto orders = candidate_orders(inputs);
    const int m = trie_field_count(inputs);
    EXPECT_EQ(m, 1 + 2 * ((inputs - 1) / 6));
    std::mt19937_64 rng(5);
    for (int k = 0; k < 10; ++k) {
      std::vector<uint8_t> o(static_cast<size_t>(m));
      std::iota(o.begin(), o.end(), 0);
      std::shuffle(o.begin(), o.end(), rng);
      orders.push_back(o);
    }
    for (const auto& order : orders) {
      ASSERT_TRUE(trie_order_valid(order, inputs));
      for (TrieLayout layout : {TrieLayout::Planes, TrieLayout::Rows}) {
        auto raw = trie_encode(cubes, inputs, order, layout);
        if (layout == TrieLayout::Rows && inputs == 31) {
          EXPECT_FALSE(raw.has_value());  // rows hold up to 4 pieces
          continue;
        }
        ASSERT_TRUE(raw.has_value());
        auto back = trie_decode(*raw, cubes.size(), inputs, order, layout);
        ASSERT_TRUE(back.ok()) << back.error().message;
        EXPECT_EQ(sorted(*back), sorted(cubes));
      }
    }
  }
  // Rows cannot hold a repeated cube; planes can.
  auto cubes = random_cubes(19, 10, 0.5, 9);
  cubes.push_back(cubes[3]);
  auto order = candidate_orders(19).front();
  EXPECT_FALSE(trie_encode(cubes, 19, order, TrieLayout::Rows).has_value());
  auto raw = trie_encode(cubes, 19, order, TrieLayout::Planes);
  auto back = trie_decode(*raw, cubes.size(), 19, order, TrieLayout::Planes);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(sorted(*back), sorted(cubes));
}

TEST(CubeTrie, OrdersTried) {
  EXPECT_EQ(candidate_orders(13).size(), 6u);
  EXPECT_EQ(candidate_orders(25).size(), 72u);
  EXPECT_EQ(candidate_orders(31).size(), 360u);
  for (const auto& o : candidate_orders(25)) EXPECT_TRUE(trie_order_valid(o, 25));
  EXPECT_FALSE(trie_order_valid(std::vector<uint8_t>{0, 1, 1, 3, 4, 5, 6, 7, 8}, 25));
  EXPECT_FALSE(trie_order_valid(std::vector<uint8_t>{0, 1, 2, 3, 4, 5, 6}, 25));
  EXPECT_EQ(trie_field_count(20), 0);
}

// The layouts' own checks, on raw bytes (no LZMA in between).
TEST(CubeTrie, DecodeRejectsBadLayouts) {
  auto cubes = random_cubes(19, 50, 0.5, 4);
  const auto order = candidate_orders(19).front();
  for (TrieLayout layout : {TrieLayout::Planes, TrieLayout::Rows}) {
    const auto raw = *trie_encode(cubes, 19, order, layout);
    auto err = [&](const std::vector<uint8_t>& r, uint64_t count) {
      auto d = trie_decode(r, count, 19, order, layout);
      return d.ok() ? std::string("OK") : d.error().message;
    };
    EXPECT_EQ(err(raw, 50), "OK");
    EXPECT_NE(err(raw, 49), "OK");
    EXPECT_NE(err(raw, 51), "OK");
    EXPECT_NE(err({raw.begin(), raw.end() - 1}, 50), "OK");
    auto longer = raw;
    longer.push_back(longer.back());
    EXPECT_NE(err(longer, 50), "OK");
    // In the layout's order: each pair of neighbours comes back from a layout of the two alone
    // as it stands.
    auto in_layout_order = [&](const std::vector<logic::CubeWord>& d) {
      for (size_t k = 1; k < d.size(); ++k) {
        const auto pair = trie_encode(std::vector{d[k - 1], d[k]}, 19, order, layout);
        if (!pair) return false;
        auto back = trie_decode(*pair, 2, 19, order, layout);
        if (!back.ok() || (*back)[0] != d[k - 1] || (*back)[1] != d[k]) return false;
      }
      return true;
    };
    // Every single-byte change: an error or a sorted, valid decode; never a read past the end.
    // Valid: 50 cubes, in the layout's order, that trie_encode writes as exactly the changed bytes
    // (the decoder refuses anything the encoder cannot have written), so never the original cubes.
    int decoded = 0;
    for (size_t i = 0; i < raw.size(); ++i)
      for (uint8_t x : {uint8_t(1), uint8_t(0x20), uint8_t(0x80), uint8_t(0xff)}) {
        auto r = raw;
        r[i] ^= x;
        auto d = trie_decode(r, 50, 19, order, layout);
        if (!d.ok()) {
          EXPECT_FALSE(d.error().message.empty()) << "byte " << i << " ^ " << int(x);
          continue;
        }
        ++decoded;
        ASSERT_EQ(d->size(), 50u) << "byte " << i << " ^ " << int(x);
        for (logic::CubeWord c : *d) EXPECT_TRUE(trie_representable(c, 19)) << "byte " << i << " ^ " << int(x);
        EXPECT_TRUE(in_layout_order(*d)) << "byte " << i << " ^ " << int(x);
        EXPECT_EQ(trie_encode(*d, 19, order, layout), std::optional(r)) << "byte " << i << " ^ " << int(x);
      }
    EXPECT_GT(decoded, 0);  // some changes give other covers, so the checks above ran
  }
  std::vector<uint8_t> rows_first_not_field0{0x00};
  EXPECT_FALSE(trie_decode(rows_first_not_field0, 1, 19, order, TrieLayout::Rows).ok());
}

}  // namespace
}  // namespace egtmin::store
