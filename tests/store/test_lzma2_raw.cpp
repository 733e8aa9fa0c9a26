// SPDX-License-Identifier: GPL-3.0-or-later
// Raw LZMA2 streams (store/xz.hpp), as cover payloads hold them: a round trip, and the exact
// size the reader is told, no more and no less.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "store/xz.hpp"

namespace egtmin::store {
namespace {

TEST(Lzma2Raw, RoundTripAndExactSize) {
  std::vector<uint8_t> data(100000);
  std::mt19937_64 rng(2);
  for (auto& x : data) x = uint8_t(rng() % 7);
  auto z = lzma2_raw_compress(data, {.lc = 3});
  ASSERT_TRUE(z.ok()) << z.error().message;
  EXPECT_LT(z->size(), data.size() / 2);
  std::vector<uint8_t> back(data.size());
  ASSERT_TRUE(lzma2_raw_decompress(*z, back).ok());
  EXPECT_EQ(back, data);
  std::vector<uint8_t> small(data.size() - 1), big(data.size() + 1);
  auto s = lzma2_raw_decompress(*z, small);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("more than"), std::string::npos) << s.error().message;
  s = lzma2_raw_decompress(*z, big);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("holds 100000 bytes"), std::string::npos) << s.error().message;
  auto empty = lzma2_raw_compress({}, {});
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(lzma2_raw_decompress(*empty, {}).ok());
}

}  // namespace
}  // namespace egtmin::store
