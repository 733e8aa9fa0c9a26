// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/region_frames.hpp"

#include <gtest/gtest.h>

#include <iterator>
#include <optional>
#include <random>
#include <vector>

#include "probe/probe_layout.hpp"

namespace egtmin::probe {
namespace {

// Frames of cube words drawn from a small pool of runs, as a layout's regions repeat each other's
// cube lists: a dictionary trained on them pays, and every frame decodes to its own words.
struct Sample {
  std::vector<uint8_t> directory;
  std::vector<uint32_t> cubes;
  std::vector<uint32_t> first;
};
// Directory blocks for `frames` frames of `blocks_a_frame` blocks, the last frame one block short
// when it has more than one: bytes of a few values, as a directory's counts are.
std::vector<uint8_t> directory_of(uint32_t frames, uint32_t blocks_a_frame) {
  std::mt19937 rng(5);
  const uint32_t blocks = frames * blocks_a_frame - (blocks_a_frame > 1 ? 1 : 0);
  std::vector<uint8_t> d(blocks * RegionFrames::kBlockBytes);
  for (uint8_t& b : d) b = uint8_t(rng() % 4);
  return d;
}
Sample repetitive_frames(uint32_t frames, uint32_t blocks_a_frame = 2) {
  std::mt19937 rng(7);
  std::vector<std::vector<uint32_t>> pool(64);
  for (auto& run : pool) {
    run.resize(40);
    for (uint32_t& w : run) w = uint32_t(rng());
  }
  Sample s;
  for (uint32_t f = 0; f < frames; ++f) {
    s.first.push_back(uint32_t(s.cubes.size()));
    if (f % 7 == 3) continue;  // an empty frame (regions without cubes)
    for (int r = 0; r < 6; ++r) {
      const auto& run = pool[rng() % pool.size()];
      s.cubes.insert(s.cubes.end(), run.begin(), run.end());
      s.cubes.push_back(uint32_t(rng()));
    }
  }
  s.first.push_back(uint32_t(s.cubes.size()));
  s.directory = directory_of(frames, blocks_a_frame);
  return s;
}
std::vector<uint64_t> encode(const Sample& s, Framing framing) {
  return RegionFrames::encode(s.directory, s.cubes, s.first, framing);
}
constexpr Framing kTwoBlocks{2, FrameLiterals::Raw};
constexpr size_t kHeaderWords = 5;

TEST(RegionFrames, EveryFrameDecodesToItsCubesWithATrainedDictionary) {
  const Sample s = repetitive_frames(600);
  const std::vector<uint64_t> words = encode(s, kTwoBlocks);
  EXPECT_GT(words[3], 0u) << "no dictionary trained";
  EXPECT_LT(words.size() * 8, s.cubes.size() * sizeof(uint32_t) / 2) << "the frames should take under half";
  auto frames = RegionFrames::attach(words);
  ASSERT_TRUE(frames.ok()) << frames.error().message;
  ASSERT_EQ((*frames)->frames(), 600u);
  EXPECT_EQ((*frames)->blocks_a_frame(), 2u);
  EXPECT_EQ((*frames)->block_shift(), 1u);
  EXPECT_EQ((*frames)->bytes(), words.size() * 8);
  EXPECT_EQ((*frames)->blocks(), 1199u);
  // Frames asked in an order that evicts the thread's decoded ones, each from every cube on.
  for (uint32_t k = 0; k < 600; ++k) {
    const uint32_t f = (k * 389) % 600;
    ASSERT_EQ((*frames)->first(f), s.first[f]);
    for (uint32_t at = s.first[f]; at < s.first[f + 1]; at += 37) {
      const uint32_t* c = (*frames)->cubes(f, at);
      for (uint32_t j = 0; at + j < s.first[f + 1]; ++j) ASSERT_EQ(c[j], s.cubes[at + j]) << f << " " << at;
      // The pad a region's scan may read past its frame's end.
      const uint32_t end = s.first[f + 1] - at;
      for (uint32_t j = end; j < end + RegionFrames::kDecodedPad; ++j) ASSERT_EQ(c[j], 0u);
    }
    // The frame's directory blocks (the last frame holds one).
    for (uint32_t b = 2 * f; b < std::min(2 * f + 2, (*frames)->blocks()); ++b)
      ASSERT_TRUE(std::equal(s.directory.begin() + b * RegionFrames::kBlockBytes,
                             s.directory.begin() + (b + 1) * RegionFrames::kBlockBytes, (*frames)->block(b)))
          << b;
  }
}

// The literals section type of each compressed block of a zstd frame (RFC 8878, 3.1.1): 0 raw,
// 1 RLE, 2 Huffman-coded, 3 Huffman with the previous table.
std::vector<int> literal_types(const uint8_t* p, size_t n) {
  std::vector<int> types;
  if (n < 6 || p[0] != 0x28 || p[1] != 0xB5 || p[2] != 0x2F || p[3] != 0xFD) return {-1};
  const uint8_t fhd = p[4];
  const bool single_segment = fhd & 0x20;
  const size_t fcs_bytes[] = {size_t(single_segment ? 1 : 0), 2, 4, 8};
  const size_t did_bytes[] = {0, 1, 2, 4};
  size_t at = 5 + (single_segment ? 0 : 1) + did_bytes[fhd & 3] + fcs_bytes[fhd >> 6];
  for (bool last = false; !last && at + 3 <= n;) {
    const uint32_t h = p[at] | p[at + 1] << 8 | p[at + 2] << 16;
    last = h & 1;
    const uint32_t type = (h >> 1) & 3, size = h >> 3;
    if (type == 2) types.push_back(p[at + 3] & 3);
    at += 3 + (type == 1 ? 1 : size);
  }
  return types;
}

// Raw literals stay raw, so such a frame decodes without building a Huffman table; Huffman-coded
// ones are coded where that pays.
TEST(RegionFrames, LiteralsAreCodedAsTheFramingSays) {
  // Words of few distinct bytes that seldom repeat: zstd Huffman-codes their literals (4 bits
  // a byte) when it is let, with a dictionary (many frames) and without one (few).
  for (const FrameLiterals literals : {FrameLiterals::Raw, FrameLiterals::Huffman})
    for (uint32_t frame_count : {400u, 3u}) {
      std::mt19937 rng(11);
      Sample t;
      for (uint32_t f = 0; f < frame_count; ++f) {
        t.first.push_back(uint32_t(t.cubes.size()));
        for (int w = 0; w < 200; ++w) t.cubes.push_back(uint32_t(rng()) & 0x0F0F0F0Fu);
      }
      t.first.push_back(uint32_t(t.cubes.size()));
      t.directory = directory_of(frame_count, 1);
      const std::vector<uint64_t> words = encode(t, {1, literals});
      const uint64_t frames = words[0], dict_bytes = words[3];
      const auto* offset = reinterpret_cast<const uint32_t*>(words.data() + kHeaderWords) + frames + 1;
      const auto* data =
          reinterpret_cast<const uint8_t*>(words.data() + kHeaderWords + (2 * (frames + 1) * 4 + 7) / 8) +
          (dict_bytes + 7) / 8 * 8;
      size_t compressed_blocks = 0, huffman = 0;
      for (uint64_t f = 0; f < frames; ++f)
        for (int type : literal_types(data + offset[f], offset[f + 1] - offset[f])) {
          if (literals == FrameLiterals::Raw) {
            EXPECT_EQ(type, 0) << "frame " << f << " of " << frame_count;
          }
          huffman += type == 2 || type == 3;
          ++compressed_blocks;
        }
      EXPECT_GT(compressed_blocks, 0u);
      if (literals == FrameLiterals::Huffman) {
        EXPECT_GT(huffman, 0u) << frame_count;
      }
    }
}

TEST(RegionFrames, FewCubesTakeNoDictionary) {
  const Sample s = repetitive_frames(3);
  const std::vector<uint64_t> words = encode(s, kTwoBlocks);
  EXPECT_EQ(words[3], 0u);
  auto frames = RegionFrames::attach(words);
  ASSERT_TRUE(frames.ok()) << frames.error().message;
  EXPECT_EQ((*frames)->cubes(2, s.first[2])[0], s.cubes[s.first[2]]);
}

TEST(RegionFrames, DamagedWordsAreRefusedByName) {
  const Sample s = repetitive_frames(50);
  const std::vector<uint64_t> good = encode(s, kTwoBlocks);
  auto refused = [&](std::vector<uint64_t> words) {
    auto r = RegionFrames::attach(words);
    return r.ok() ? std::string("accepted") : r.error().message;
  };
  EXPECT_NE(refused({}).find("too short"), std::string::npos);
  std::vector<uint64_t> w = good;
  w[0] = ~uint64_t{0};  // frames beyond any words
  EXPECT_NE(refused(w).find("damaged counts"), std::string::npos);
  // Directory blocks a frame: none, not a power of two, more than a frame may hold.
  for (uint64_t blocks : {uint64_t{0}, uint64_t{3}, uint64_t{RegionFrames::kMostBlocksAFrame * 2}}) {
    w = good;
    w[1] = blocks;
    EXPECT_NE(refused(w).find("directory blocks a frame"), std::string::npos) << blocks;
  }
  w = good;
  w[2] += 2;  // more directory blocks than the frames hold
  EXPECT_NE(refused(w).find("directory blocks in"), std::string::npos) << refused(w);
  w = good;
  w[0] -= 1;  // one frame fewer: the tables no longer end where the dictionary starts
  EXPECT_NE(refused(w).find("region frames"), std::string::npos);
  w = good;
  w.pop_back();
  EXPECT_NE(refused(w).find("region frames"), std::string::npos);
  // A frame's first cube after the next one's.
  w = good;
  auto* first = reinterpret_cast<uint32_t*>(w.data() + kHeaderWords);
  std::swap(first[1], first[2]);
  if (first[1] != first[2]) {
    EXPECT_NE(refused(w).find("ends before it starts"), std::string::npos);
  }
  // A frame's magic number changed: found when attaching, which decodes every frame. (Changed
  // literals may decode to as many bytes: the layout's checksum is what finds those.)
  w = good;
  const uint64_t frames = w[0], table_words = (2 * (frames + 1) * 4 + 7) / 8, dict_words = (w[3] + 7) / 8;
  w[kHeaderWords + table_words + dict_words] ^= 0xff;
  EXPECT_NE(refused(w).find("frame 0 is damaged"), std::string::npos) << refused(w);
}

// make_layout keeps the fastest form within its target; when none is, the fastest within its
// ceiling, the plain one first; over both, the smallest; and only a framing that takes fewer bytes
// than the plain cubes.
TEST(RegionFrames, TheFastestFormWithinTheTargetElseWithinTheCeilingElseTheSmallestIsKept) {
  const auto within = [](uint64_t target, uint64_t ceiling) {
    return LayoutBytes{.target = target, .ceiling = ceiling};
  };
  // The first within the target.
  EXPECT_EQ(chosen_framing(within(700, 700), 1000, std::vector<uint64_t>{660, 650, 640}), std::optional<size_t>(0));
  EXPECT_EQ(chosen_framing(within(680, 680), 1000, std::vector<uint64_t>{700, 670, 640}), std::optional<size_t>(1));
  // A later framing within the target wins over an earlier one within the ceiling only.
  EXPECT_EQ(chosen_framing(within(680, 900), 1000, std::vector<uint64_t>{700, 670, 640}), std::optional<size_t>(1));
  // None within the target: the first within the ceiling.
  EXPECT_EQ(chosen_framing(within(500, 750), 1000, std::vector<uint64_t>{800, 700, 600}), std::optional<size_t>(1));
  // None within the target, and the plain form within the ceiling: the plain one, the fastest.
  EXPECT_EQ(chosen_framing(within(500, 1000), 900, std::vector<uint64_t>{800, 700, 600}), std::nullopt);
  // None within either: the smallest.
  EXPECT_EQ(chosen_framing(within(500, 500), 1000, std::vector<uint64_t>{800, 600, 700}), std::optional<size_t>(1));
  // A ceiling under the target counts as the target.
  EXPECT_EQ(chosen_framing(within(700, 0), 1000, std::vector<uint64_t>{800, 650}), std::optional<size_t>(1));
  // Within the target but not under the plain layout's bytes: the plain form, within the target too.
  EXPECT_EQ(chosen_framing(within(700, 700), 650, std::vector<uint64_t>{660, 640, 630}), std::nullopt);
  // None smaller than the plain layout: the plain one.
  EXPECT_EQ(chosen_framing(within(500, 500), 600, std::vector<uint64_t>{660, 650, 640}), std::nullopt);
  EXPECT_EQ(chosen_framing(within(500, 500), 600, std::vector<uint64_t>{}), std::nullopt);
  // The framings are listed fastest first: never more blocks a frame, nor Huffman before raw, than the one before.
  for (size_t i = 1; i < std::size(RegionFrames::kFramings); ++i) {
    const Framing a = RegionFrames::kFramings[i - 1], b = RegionFrames::kFramings[i];
    EXPECT_TRUE(a.blocks_a_frame < b.blocks_a_frame ||
                (a.blocks_a_frame == b.blocks_a_frame && a.literals < b.literals))
        << i;
  }
}

}  // namespace
}  // namespace egtmin::probe
