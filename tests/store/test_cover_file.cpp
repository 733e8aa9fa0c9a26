// SPDX-License-Identifier: GPL-3.0-or-later
// Cover files: round trips at every width and kind, the minimizer's covers, and files that are
// old, truncated, corrupted or inconsistent refused by name (the cube layouts alone:
// test_cube_trie.cpp).
#include <gtest/gtest.h>

#include <lzma.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "logic/pipeline.hpp"
#include "store/cover_file.hpp"
#include "store/cube_trie.hpp"
#include "store/xz.hpp"
#include "support/cubes.hpp"
#include "support/env.hpp"
#include "util/atomic_file.hpp"

namespace egtmin::store {
namespace {

using test::random_cubes;
using test::sorted;

CoverFile sample_cover(int cubes = 500) {
  CoverFile c;
  c.balance = *Balance::parse("KRvK");
  c.inputs = 19;
  c.canon = CanonScheme::Full;
  c.passes = "merge,expand,irredundant";
  c.rule_draws = {3, 4, 70, 4096, (1u << 19) - 1};
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

void set_le(std::vector<uint8_t>& b, size_t at, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) b[at + size_t(i)] = uint8_t(v >> (8 * i));
}

// Where the payload starts (the header's variable part: balance name, passes, header CRC).
size_t payload_at(const std::vector<uint8_t>& b) {
  size_t at = 37 + b[36];
  size_t passes = b[at] | (size_t(b[at + 1]) << 8);
  return at + 2 + passes + 8;
}

// Recompute the header CRC after an edit of the fixed part.
std::vector<uint8_t> reseal(std::vector<uint8_t> b) {
  size_t at = payload_at(b) - 8;
  set_le(b, at, lzma_crc64(b.data(), at, 0), 8);
  return b;
}

// A file with its payload replaced (length and both checksums made to match).
std::vector<uint8_t> with_payload(const std::vector<uint8_t>& file, const std::vector<uint8_t>& payload) {
  std::vector<uint8_t> b(file.begin(), file.begin() + long(payload_at(file)));
  b.insert(b.end(), payload.begin(), payload.end());
  size_t old_len = 0;
  for (int i = 7; i >= 0; --i) old_len = (old_len << 8) | file[20 + size_t(i)];
  b.insert(b.end(), file.begin() + long(payload_at(file) + old_len), file.end());  // the rule's draws
  set_le(b, 20, payload.size(), 8);
  set_le(b, 28, lzma_crc64(payload.data(), payload.size(), 0), 8);
  return reseal(b);
}

const uint8_t kV1File[] = {
    0x45, 0x47, 0x54, 0x4d, 0x43, 0x4f, 0x56, 0x1a, 0x01, 0x00, 0x19, 0x02, 0x1d, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2d, 0x19, 0x9e, 0x1b, 0xd4, 0x20, 0x82, 0x69, 0x05, 0x4b,
    0x42, 0x76, 0x4b, 0x4e, 0x20, 0x00, 0x63, 0x61, 0x6e, 0x6f, 0x6e, 0x2c, 0x63, 0x6f, 0x6d, 0x70, 0x61, 0x63, 0x74,
    0x2c, 0x65, 0x78, 0x70, 0x61, 0x6e, 0x64, 0x2c, 0x69, 0x72, 0x72, 0x65, 0x64, 0x75, 0x6e, 0x64, 0x61, 0x6e, 0x74,
    0xe0, 0x45, 0x38, 0x78, 0xcf, 0xe6, 0x2a, 0x13, 0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00, 0x04, 0xe6, 0xd6, 0xb4,
    0x46, 0x02, 0x00, 0x21, 0x01, 0x1c, 0x00, 0x00, 0x00, 0x10, 0xcf, 0x58, 0xcc, 0xe0, 0x00, 0xe7, 0x00, 0x73, 0x5d,
    0x00, 0x7f, 0xbb, 0xd0, 0x4d, 0xc3, 0xbf, 0x6b, 0x84, 0x5e, 0x5f, 0xab, 0x41, 0x42, 0x55, 0x75, 0x90, 0x32, 0x6b,
    0x60, 0x70, 0x9d, 0x5e, 0x1a, 0x14, 0xe1, 0xb5, 0xbd, 0xf6, 0x4a, 0x02, 0xeb, 0x10, 0x52, 0x5b, 0x98, 0xe8, 0xf8,
    0x0c, 0x7d, 0xca, 0x69, 0x8a, 0x5b, 0x53, 0x12, 0xb2, 0x8b, 0xfe, 0xaa, 0xf4, 0x16, 0x44, 0x6a, 0xe8, 0x8a, 0x54,
    0x41, 0xf9, 0x30, 0x02, 0x19, 0x2a, 0xae, 0xd3, 0xee, 0x56, 0x2c, 0xcd, 0xb9, 0x4b, 0xb9, 0x03, 0x04, 0x4c, 0x54,
    0xac, 0x9e, 0xce, 0x2b, 0x01, 0x51, 0x77, 0x2f, 0xc3, 0xc6, 0xba, 0x53, 0xdc, 0xde, 0xc3, 0xf6, 0x0b, 0x56, 0xa4,
    0xe8, 0xbe, 0x0f, 0xb7, 0x7b, 0x3e, 0x5a, 0xec, 0xc0, 0xfe, 0x94, 0xcd, 0xd6, 0x1a, 0x32, 0x88, 0x65, 0x78, 0x56,
    0x8f, 0xf9, 0x00, 0x00, 0xc5, 0xea, 0x97, 0x3a, 0x21, 0x0d, 0x37, 0xdf, 0x00, 0x01, 0x8f, 0x01, 0xe8, 0x01, 0x00,
    0x00, 0x80, 0x58, 0xda, 0x03, 0xb1, 0xc4, 0x67, 0xfb, 0x02, 0x00, 0x00, 0x00, 0x00, 0x04, 0x59, 0x5a,
};
std::string message(const std::vector<uint8_t>& b) {
  auto r = parse_cover(b, "f.egtc");
  return r.ok() ? std::string("OK") : r.error().message;
}

TEST(CoverFile, RoundTrip) {
  CoverFile c = sample_cover();
  auto bytes = serialize_cover(c);
  EXPECT_EQ(bytes[8], 3);  // format version 3
  auto back = parse_cover(bytes, "mem");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->cubes, sorted(c.cubes));
  EXPECT_EQ(back->rule_draws, c.rule_draws);
  EXPECT_TRUE(back->is_rule_draw(70));
  EXPECT_FALSE(back->is_rule_draw(71));
  EXPECT_EQ(back->balance, c.balance);
  EXPECT_EQ(back->inputs, 19);
  EXPECT_EQ(back->canon, CanonScheme::Full);
  EXPECT_EQ(back->passes, c.passes);
  // The bytes depend on the cover alone, not on the order of its cubes.
  CoverFile shuffled = c;
  std::shuffle(shuffled.cubes.begin(), shuffled.cubes.end(), std::mt19937_64(3));
  EXPECT_EQ(serialize_cover(shuffled), bytes);

  auto dir = std::filesystem::temp_directory_path() / ("egtmin-cover-test-" + std::to_string(::getpid()));
  auto path = cover_path(dir, c.balance);
  EXPECT_EQ(path.filename(), "KRvK.egtc");
  ASSERT_TRUE(save_cover(path, c).ok());
  Balance krvk = c.balance;
  auto loaded = load_cover(path, &krvk);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->cubes, sorted(c.cubes));
  Balance other = *Balance::parse("KQvK");
  auto wrong = load_cover(path, &other);
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().message.find("expected KQvK"), std::string::npos) << wrong.error().message;
  EXPECT_NE(wrong.error().message.find(path.string()), std::string::npos);
  std::filesystem::remove_all(dir);
}

// A capture-resolved cover says so (format version 4, the kind beside the scheme) and has its own
// file name; a standalone one stays version 3, readable by every egtmin since the rule's values.
TEST(CoverFile, KindRoundTripsAndNamesItsFile) {
  CoverFile c = sample_cover();
  c.kind = CoverKind::CaptureResolved;
  auto bytes = serialize_cover(c);
  EXPECT_EQ(bytes[8], 4);
  auto back = parse_cover(bytes, "mem");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->kind, CoverKind::CaptureResolved);
  EXPECT_EQ(back->canon, CanonScheme::Full);
  EXPECT_EQ(back->cubes, sorted(c.cubes));
  c.kind = CoverKind::Standalone;
  EXPECT_EQ(serialize_cover(c)[8], 3);
  EXPECT_EQ(parse_cover(serialize_cover(c), "mem")->kind, CoverKind::Standalone);
  EXPECT_EQ(cover_path("d", c.balance, CoverKind::CaptureResolved).filename(), "KRvK.egtcr");
  EXPECT_EQ(cover_path("d", c.balance).filename(), "KRvK.egtc");
  // A damaged kind byte is refused.
  bytes[11] = uint8_t(bytes[11] | 0x70);
  auto bad = parse_cover(bytes, "mem");
  ASSERT_FALSE(bad.ok());
}

// An implied output needs version 5, with the kind beside it; a cover storing every output keeps
// the older version, which older egtmins read.
TEST(CoverFile, ImpliedOutputRoundTripsInVersion5) {
  for (CoverKind kind : {CoverKind::Standalone, CoverKind::CaptureResolved})
    for (logic::Output o : {logic::Output::Win, logic::Output::Draw, logic::Output::Loss}) {
      CoverFile c = sample_cover();
      c.kind = kind;
      c.implied = o;
      const auto bytes = serialize_cover(c);
      EXPECT_EQ(bytes[8], 5);
      auto back = parse_cover(bytes, "mem");
      ASSERT_TRUE(back.ok()) << back.error().message;
      EXPECT_EQ(back->implied, o);
      EXPECT_EQ(back->kind, kind);
      EXPECT_EQ(back->canon, CanonScheme::Full);
      EXPECT_EQ(back->cubes, sorted(c.cubes));
    }
  CoverFile c = sample_cover();
  EXPECT_EQ(serialize_cover(c)[8], 3);
  EXPECT_EQ(parse_cover(serialize_cover(c), "mem")->implied, logic::Output::None);
}

TEST(CoverFile, EmptyCoverRoundTrips) {
  CoverFile c = sample_cover(0);
  auto back = parse_cover(serialize_cover(c), "mem");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_TRUE(back->cubes.empty());
}

// Every width (2 to 5 pieces), sparse and dense cubes, one cube to thousands, repeated cubes:
// the file gives back exactly the sorted list.
TEST(CoverFile, RandomCoversRoundTripAtEveryWidth) {
  const std::pair<const char*, int> balances[] = {{"KvK", 13}, {"KRvK", 19}, {"KRvKP", 25}, {"KQRvKR", 31}};
  uint64_t seed = 1;
  for (auto [name, inputs] : balances)
    for (size_t count : {size_t{1}, size_t{2}, size_t{40}, size_t{3000}})
      for (double fixed : {0.1, 0.5, 0.95}) {
        CoverFile c;
        c.balance = *Balance::parse(name);
        c.inputs = inputs;
        c.passes = "test";
        c.cubes = random_cubes(inputs, count, fixed, seed++);
        if (count > 2) c.cubes.push_back(c.cubes[count / 2]);  // a repeated cube
        auto bytes = serialize_cover(c);
        auto back = parse_cover(bytes, "mem");
        ASSERT_TRUE(back.ok()) << name << " " << count << " " << fixed << ": " << back.error().message;
        EXPECT_EQ(back->cubes, sorted(c.cubes)) << name << " " << count << " " << fixed;
      }
}

// A cover whose raw layout is over 512 KiB: the writer ranks the orders on a sample of the cubes,
// then writes the whole cover in the best of them.
TEST(CoverFile, LargeCoverRoundTrips) {
  CoverFile c;
  c.balance = *Balance::parse("KRvKP");
  c.inputs = 25;
  c.passes = "test";
  c.cubes = random_cubes(25, 90000, 0.7, 77);
  auto back = parse_cover(serialize_cover(c), "mem");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->cubes, sorted(c.cubes));
}

// The minimizer's covers of the 3-piece balances: exact round trip.
TEST(CoverFile, MinimizerCoversRoundTrip) {
  auto passes = logic::parse_passes("canon,compact,expand,irredundant");
  ASSERT_TRUE(passes.ok()) << passes.error().message;
  for (const char* name : {"KQvK", "KRvK", "KPvK"}) {
    auto t = test::shared_store().ensure(*Balance::parse(name));
    ASSERT_TRUE(t.ok()) << t.error().message;
    auto m = logic::minimize_table(**t, *passes, {});
    ASSERT_TRUE(m.ok()) << m.error().message;
    CoverFile c{(*t)->balance(), (*t)->encoding().bits(), m->scheme, "canon,compact,expand,irredundant", m->cover,
                m->rule_draws};
    auto back = parse_cover(serialize_cover(c), name);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->cubes, sorted(c.cubes)) << name;
    EXPECT_EQ(back->rule_draws, c.rule_draws) << name;
  }
}

// Files made before the 50-move rule's values are refused with a message to remake them, never
// read as if they had none.
TEST(CoverFile, RefusesFilesWithoutTheRulesDraws) {
  std::vector<uint8_t> file(std::begin(kV1File), std::end(kV1File));
  Balance kbvkn = *Balance::parse("KBvKN");
  auto c = parse_cover(file, "KBvKN.egtc", &kbvkn);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("50-move rule"), std::string::npos) << c.error().message;
  EXPECT_NE(c.error().message.find("egtmin-cli minimize KBvKN"), std::string::npos) << c.error().message;
  auto v2 = serialize_cover(sample_cover());
  v2[8] = 2;
  EXPECT_NE(message(v2).find("remake"), std::string::npos) << message(v2);
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
  for (auto good : {serialize_cover(sample_cover()), serialize_cover(sample_cover(0))}) {
    {
      auto b = good;
      b[8] = 6;  // newer than this egtmin reads (5 is the implied output's)
      EXPECT_NE(message(b).find("version 6"), std::string::npos) << message(b);
      b[8] = 0;
      EXPECT_NE(message(b).find("version 0"), std::string::npos) << message(b);
    }
    {
      auto b = good;
      b[0] = 'X';
      EXPECT_NE(message(b).find("magic"), std::string::npos);
    }
    {
      auto b = good;
      b.resize(b.size() - 1);
      EXPECT_NE(message(b).find("truncated"), std::string::npos) << message(b);
    }
    {
      auto b = good;
      b.back() ^= 0x10;
      EXPECT_NE(message(b).find("checksum"), std::string::npos) << message(b);
    }
    // Each checksum names a change in the part it guards, before anything reads that part.
    {
      auto b = good;
      b[37 + b[36] + 2] ^= 0x20;  // the first letter of the passes
      EXPECT_NE(message(b).find("header checksum"), std::string::npos) << message(b);
    }
    {
      auto b = good;
      size_t payload_len = 0;
      for (int i = 7; i >= 0; --i) payload_len = (payload_len << 8) | b[20 + size_t(i)];
      ASSERT_GT(payload_len, 0u);
      b[payload_at(b) + payload_len / 2] ^= 0x10;
      EXPECT_NE(message(b).find("payload checksum"), std::string::npos) << message(b);
    }
    for (size_t n = 0; n < good.size(); n += 7) {
      std::vector<uint8_t> b(good.begin(), good.begin() + long(n));
      auto m = message(b);
      EXPECT_NE(m, "OK") << "truncated to " << n;
      EXPECT_EQ(m.rfind("f.egtc: ", 0), 0u) << m;
    }
    // Random byte flips anywhere: always a clean error (and, under ASan, no out-of-bounds read).
    std::mt19937_64 rng(11);
    for (int t = 0; t < 2000; ++t) {
      auto b = good;
      int flips = 1 + int(rng() % 4);
      for (int k = 0; k < flips; ++k) b[rng() % b.size()] ^= uint8_t(1 + rng() % 255);
      EXPECT_NE(message(b), "OK");
    }
  }
}

// A well-formed file (valid checksums) whose content breaks the rules: cube count mismatch, a cube
// with no output, another balance. Built by re-serializing with a hand-edited header.
TEST(CoverFile, RejectsInconsistentContent) {
  CoverFile c = sample_cover(10);
  {
    auto bytes = serialize_cover(c);
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
      EXPECT_NE(r.error().message.find("header says 9"), std::string::npos) << r.error().message;
    }
    {
      CoverFile bad = c;
      bad.cubes[3] &= logic::kInputMask;  // no output; serialize does not check, save does
      auto r = parse_cover(serialize_cover(bad), "f");
      ASSERT_FALSE(r.ok());
      EXPECT_NE(r.error().message.find("no output"), std::string::npos) << r.error().message;
    }
    {
      CoverFile bad = c;
      bad.cubes[5] &= ~logic::pair_mask(7);  // input 7 is 00: an empty cube (stored in planes)
      auto r = parse_cover(serialize_cover(bad), "f");
      ASSERT_FALSE(r.ok());
      EXPECT_NE(r.error().message.find("empty"), std::string::npos) << r.error().message;
    }
    {
      auto b = bytes;
      b[10] = 25;  // inputs of a 4-piece balance
      auto r = parse_cover(reseal(b), "f");
      ASSERT_FALSE(r.ok());
      EXPECT_NE(r.error().message.find("inputs"), std::string::npos) << r.error().message;
    }
  }
  // A cube beyond the cover's width cannot be written at all.
  CoverFile wide = c;
  wide.cubes[0] &= ~logic::pair_mask(25);
  EXPECT_THROW(serialize_cover(wide), std::invalid_argument);
}

// A version 2 payload in the given layout, with the writer's first candidate order.
std::vector<uint8_t> make_payload(const CoverFile& c, TrieLayout layout) {
  const auto order = candidate_orders(c.inputs).front();
  const auto raw = *trie_encode(c.cubes, c.inputs, order, layout);
  std::vector<uint8_t> p{uint8_t(layout), uint8_t(order.size())};
  p.insert(p.end(), order.begin(), order.end());
  for (uint64_t v = raw.size();; v >>= 7) {
    p.push_back(uint8_t((v & 0x7f) | (v >= 0x80 ? 0x80 : 0)));
    if (v < 0x80) break;
  }
  auto z = lzma2_raw_compress(raw, {.lc = layout == TrieLayout::Rows ? 3u : 0u});
  p.insert(p.end(), z->begin(), z->end());
  return p;
}

// Version 2 payloads that pass both checksums but are wrong inside, in both layouts.
TEST(CoverFile, RejectsBadVersion2Payloads) {
  CoverFile c = sample_cover(200);
  const auto file = serialize_cover(c);
  for (TrieLayout layout : {TrieLayout::Planes, TrieLayout::Rows}) {
    const auto payload = make_payload(c, layout);
    ASSERT_EQ(payload[1], 7);                                 // fields of a 3-piece cover
    ASSERT_TRUE(payload[9] & 0x80 && !(payload[10] & 0x80));  // a two-byte layout length
    const size_t lzma_at = 11;
    auto expect = [&](std::vector<uint8_t> p, const std::string& what) {
      auto m = message(with_payload(file, p));
      EXPECT_NE(m.find(what), std::string::npos) << m;
      EXPECT_EQ(m.rfind("f.egtc: ", 0), 0u) << m;
    };
    auto good = parse_cover(with_payload(file, payload), "f");
    ASSERT_TRUE(good.ok()) << good.error().message;
    EXPECT_EQ(good->cubes, sorted(c.cubes));
    {
      auto p = payload;
      p[0] = 9;
      expect(p, "unknown payload layout 9");
    }
    {
      auto p = payload;
      p[1] = 9;
      expect(p, "fields");
    }
    {
      auto p = payload;
      p[3] = p[2];
      expect(p, "not a permutation");
    }
    expect({payload.begin(), payload.begin() + 5}, "too short");
    {
      auto p = payload;
      p[0] = uint8_t(layout == TrieLayout::Rows ? TrieLayout::Planes : TrieLayout::Rows);  // read in the other layout
      EXPECT_NE(message(with_payload(file, p)), "OK");
    }
    {
      auto p = payload;
      p[10] += 1;  // a layout 128 bytes longer than the stream holds
      expect(p, "expected");
    }
    {
      auto p = payload;
      p.insert(p.begin() + 9, {0xff, 0xff, 0xff, 0xff, 0x7f});  // absurd layout length
      expect(p, "does not fit");
    }
    expect({payload.begin(), payload.end() - 3}, "corrupt or truncated");
    {
      auto p = payload;
      p.push_back(0);
      expect(p, "trailing bytes");
    }
    // Flips inside the LZMA2 stream, checksums made to match: a clean error or another valid cover.
    std::mt19937_64 rng(12);
    for (int t = 0; t < 1000; ++t) {
      auto p = payload;
      p[lzma_at + rng() % (p.size() - lzma_at)] ^= uint8_t(1 + rng() % 255);
      auto r = parse_cover(with_payload(file, p), "f");
      if (r.ok()) {
        // Another valid cover: as many sorted cubes as the header says, which a new file keeps.
        EXPECT_EQ(r->cubes.size(), c.cubes.size());
        EXPECT_TRUE(std::is_sorted(r->cubes.begin(), r->cubes.end()));
        auto again = parse_cover(serialize_cover(*r), "again");
        ASSERT_TRUE(again.ok()) << again.error().message;
        EXPECT_EQ(again->cubes, r->cubes);
      } else {
        EXPECT_EQ(r.error().message.rfind("f: ", 0), 0u) << r.error().message;
      }
    }
  }
}

}  // namespace
}  // namespace egtmin::store
