// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <lzma.h>
#include <unistd.h>

#include <algorithm>
#include <random>

#include "store/cover_file.hpp"
#include "util/atomic_file.hpp"

namespace egtmin::store {
namespace {

CoverFile sample_cover(int cubes = 500) {
  CoverFile c;
  c.balance = *Balance::parse("KRvK");
  c.inputs = 19;
  c.canon = CanonScheme::Full;
  c.passes = "merge,expand,irredundant";
  std::mt19937_64 rng(7);
  for (int i = 0; i < cubes; ++i) {
    uint64_t idx = rng() & ((uint64_t{1} << 19) - 1);
    logic::CubeWord m = logic::minterm(idx, 19, logic::Output(1 + rng() % 3));
    // Widen a few inputs to don't care so cubes are not all minterms.
    for (int k = 0; k < 3; ++k) m |= logic::pair_mask(int(rng() % 19));
    c.cubes.push_back(m);
  }
  return c;
}

TEST(CoverFile, RoundTrip) {
  CoverFile c = sample_cover();
  auto bytes = serialize_cover(c);
  auto back = parse_cover(bytes, "mem");
  ASSERT_TRUE(back.ok()) << back.error().message;
  auto sorted = c.cubes;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(back->cubes, sorted);
  EXPECT_EQ(back->balance, c.balance);
  EXPECT_EQ(back->inputs, 19);
  EXPECT_EQ(back->canon, CanonScheme::Full);
  EXPECT_EQ(back->passes, c.passes);

  auto dir = std::filesystem::temp_directory_path() / ("egtmin-cover-test-" + std::to_string(::getpid()));
  auto path = cover_path(dir, c.balance);
  EXPECT_EQ(path.filename(), "KRvK.egtc");
  ASSERT_TRUE(save_cover(path, c).ok());
  Balance krvk = c.balance;
  auto loaded = load_cover(path, &krvk);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->cubes, sorted);
  Balance other = *Balance::parse("KQvK");
  auto wrong = load_cover(path, &other);
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().message.find("expected KQvK"), std::string::npos) << wrong.error().message;
  EXPECT_NE(wrong.error().message.find(path.string()), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(CoverFile, EmptyCoverRoundTrips) {
  CoverFile c = sample_cover(0);
  auto back = parse_cover(serialize_cover(c), "mem");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_TRUE(back->cubes.empty());
}

TEST(CoverFile, SaveRefusesCubeWithoutOutput) {
  CoverFile c = sample_cover(3);
  c.cubes.push_back(logic::minterm(5, 19));  // Output::None
  auto dir = std::filesystem::temp_directory_path() / ("egtmin-cover-test2-" + std::to_string(::getpid()));
  auto s = save_cover(cover_path(dir, c.balance), c);
  EXPECT_FALSE(s.ok());
  std::filesystem::remove_all(dir);
}

TEST(CoverFile, RejectsWrongVersionTruncationAndCorruption) {
  auto good = serialize_cover(sample_cover());
  auto msg = [](const std::vector<uint8_t>& b) {
    auto r = parse_cover(b, "f.egtc");
    return r.ok() ? std::string("OK") : r.error().message;
  };
  {
    auto b = good;
    b[8] = 2;
    EXPECT_NE(msg(b).find("version 2"), std::string::npos) << msg(b);
  }
  {
    auto b = good;
    b[0] = 'X';
    EXPECT_NE(msg(b).find("magic"), std::string::npos);
  }
  {
    auto b = good;
    b.resize(b.size() - 1);
    EXPECT_NE(msg(b).find("truncated"), std::string::npos) << msg(b);
  }
  {
    auto b = good;
    b.back() ^= 0x10;
    EXPECT_NE(msg(b).find("checksum"), std::string::npos) << msg(b);
  }
  for (size_t n = 0; n < good.size(); n += 7) {
    std::vector<uint8_t> b(good.begin(), good.begin() + long(n));
    auto m = msg(b);
    EXPECT_NE(m, "OK") << "truncated to " << n;
    EXPECT_EQ(m.rfind("f.egtc: ", 0), 0u) << m;
  }
  // Random byte flips anywhere: always a clean error (and, under ASan, no out-of-bounds read).
  std::mt19937_64 rng(11);
  for (int t = 0; t < 2000; ++t) {
    auto b = good;
    int flips = 1 + int(rng() % 4);
    for (int k = 0; k < flips; ++k) b[rng() % b.size()] ^= uint8_t(1 + rng() % 255);
    EXPECT_NE(msg(b), "OK");
  }
}

// A well-formed file (valid checksums) whose content breaks the rules: cube count mismatch, a cube
// with no output, another balance. Built by re-serializing with a hand-edited header.
TEST(CoverFile, RejectsInconsistentContent) {
  CoverFile c = sample_cover(10);
  auto bytes = serialize_cover(c);
  auto reseal = [](std::vector<uint8_t> b) {
    // Recompute the header CRC after an edit of the fixed part.
    size_t name_len = b[36];
    size_t at = 37 + name_len;
    size_t passes = b[at] | (size_t(b[at + 1]) << 8);
    at += 2 + passes;
    uint64_t crc = lzma_crc64(b.data(), at, 0);
    for (int i = 0; i < 8; ++i) b[at + i] = uint8_t(crc >> (8 * i));
    return b;
  };
  {
    // Count too large: header says 11, payload holds 10.
    auto b = bytes;
    b[12] = 11;
    auto r = parse_cover(reseal(b), "f");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("header says 11"), std::string::npos) << r.error().message;
  }
  {
    auto b = bytes;
    b[12] = 9;
    auto r = parse_cover(reseal(b), "f");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("more cubes"), std::string::npos) << r.error().message;
  }
  {
    CoverFile bad = c;
    bad.cubes[3] &= logic::kInputMask;  // no output; serialize does not check, save does
    auto r = parse_cover(serialize_cover(bad), "f");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("no output"), std::string::npos) << r.error().message;
  }
  {
    auto b = bytes;
    b[10] = 25;  // inputs of a 4-piece balance
    auto r = parse_cover(reseal(b), "f");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("inputs"), std::string::npos) << r.error().message;
  }
}

}  // namespace
}  // namespace egtmin::store
