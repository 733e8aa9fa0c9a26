// SPDX-License-Identifier: GPL-3.0-or-later
// What a probe-ready form made of the cover's own cubes would take, bucketed by a few pieces'
// squares and stored in zstd frames: the form a balance whose region index outgrows its Syzygy file
// even framed (KBNvKQ) could take instead. A region index copies a cube into every region whose
// three fixed pieces' squares it admits and grows each copy again as rows and files (about 29
// bits a copy that no coder shortens much); a bucket that fixes fewer pieces takes fewer copies, and
// the cover's cubes (input pairs, subcubes) code far tighter than rows and files (the cover file
// takes 23 bits a cube).
//
// For each key (the side to move and the squares of one or two pieces), each cube goes into every
// bucket whose key it admits, with the key's pairs set to don't-care (a bucket's cubes all hold its
// key); a bucket's cubes are sorted; runs of buckets are cut into frames of at least T bytes of
// words, stored as a layout stores its framed region cubes (RegionFrames::encode). Keys that copy
// a cube more than three times on average stop at the copies. Prints per key and T: copies,
// frames' bytes, dictionary, directory (a 16-bit count a bucket, 8 bytes a frame), together and
// against SYZYGY_BYTES, the mean cubes a probe scans (a bucket's, weighted by its positions: here
// its cubes) and a frame's mean decode time.
//
//   egtmin_framed_cover_study COVER_FILE SYZYGY_BYTES
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "logic/cube.hpp"
#include "probe/region_frames.hpp"
#include "store/cover_file.hpp"
#include "table/encoding.hpp"

using namespace egtmin;

namespace {

// The frames of `words` (each frame's first word, then the end) as a layout stores them
// (RegionFrames: the smallest of its dictionaries), and a frame's mean decode time through the
// probe's own path, at random.
struct Frames {
  size_t data = 0, dict = 0, frames = 0;
  double decode_us = 0;
};
Frames compress(const std::vector<uint64_t>& words, const std::vector<uint32_t>& first_word) {
  // RegionFrames holds 32-bit cubes: each 64-bit word is two of them.
  const std::span<const uint32_t> halves(reinterpret_cast<const uint32_t*>(words.data()), 2 * words.size());
  std::vector<uint32_t> first;
  for (uint32_t f : first_word) first.push_back(2 * f);
  // A frame holds a directory block: here zeros, which code to a few bytes (the study counts its
  // directory apart).
  const std::vector<uint8_t> directory((first.size() - 1) * probe::RegionFrames::kBlockBytes, 0);
  const std::vector<uint64_t> stored =
      probe::RegionFrames::encode(directory, halves, first, {1, probe::FrameLiterals::Raw});
  Frames r{size_t(stored[4]), size_t(stored[3]), first.size() - 1, 0};
  auto frames = probe::RegionFrames::attach(stored);
  if (!frames) {
    std::fprintf(stderr, "%s\n", frames.error().message.c_str());
    std::exit(1);
  }
  std::mt19937 rng(1);
  const int n = 20000;
  uint64_t check = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    const uint32_t f = uint32_t(rng() % r.frames);
    check += *(*frames)->cubes(f, first[f]);
  }
  r.decode_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / n;
  if (check == 1) std::printf(" ");  // keeps the decodes
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s COVER_FILE SYZYGY_BYTES\n", argv[0]);
    return 2;
  }
  auto cover = store::load_cover(argv[1]);
  if (!cover) {
    std::fprintf(stderr, "%s\n", cover.error().message.c_str());
    return 1;
  }
  const double syzygy = std::atof(argv[2]);
  const std::vector<logic::CubeWord>& cubes = cover->cubes;
  const int inputs = cover->inputs;
  const int pieces = (inputs - 1) / kSquareBits;
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  std::printf("%s: %zu cubes, %d pieces\n", argv[1], cubes.size(), pieces);
  std::vector<std::vector<int>> keys;
  for (int p = 0; p < pieces; ++p) keys.push_back({p});
  for (int p = 0; p < pieces; ++p)
    for (int q = p + 1; q < pieces; ++q) keys.push_back({p, q});
  for (const auto& key : keys) {
    std::vector<int> in{0};
    for (int p : key)
      for (int b = 0; b < kSquareBits; ++b) in.push_back(square_input(p) + b);
    const size_t nb = size_t(1) << in.size();
    std::vector<std::vector<uint64_t>> bucket(nb);
    logic::CubeWord key_mask = 0;
    for (int i : in) key_mask |= logic::pair_mask(i);
    for (logic::CubeWord c : cubes) {
      // Every key value the cube admits: its fixed key bits, each don't-care one either way.
      size_t fixed = 0;
      std::vector<size_t> free_bits;
      for (size_t j = 0; j < in.size(); ++j) {
        const size_t bit = size_t(1) << (in.size() - 1 - j);
        const unsigned pair = unsigned(c >> logic::pair_shift(in[j])) & 3;
        if (pair == 3)
          free_bits.push_back(bit);
        else if (pair == 1)
          fixed |= bit;
      }
      for (size_t m = 0; m < (size_t(1) << free_bits.size()); ++m) {
        size_t v = fixed;
        for (size_t j = 0; j < free_bits.size(); ++j)
          if (m >> j & 1) v |= free_bits[j];
        bucket[v].push_back(c | key_mask);
      }
    }
    size_t copies = 0, scan = 0;
    for (auto& b : bucket) {
      std::sort(b.begin(), b.end());
      copies += b.size();
      scan += b.size() * b.size();
    }
    std::printf(" key stm");
    for (int p : key) std::printf(" %d", p);
    std::printf(": %zu buckets, %zu copies (%.2f a cube), a probe scans %.0f cubes\n", nb, copies,
                double(copies) / double(cubes.size()), double(scan) / double(copies));
    if (copies > 3 * cubes.size()) continue;  // no form at all
    for (size_t t : {1024, 4096}) {
      std::vector<uint64_t> words;
      std::vector<uint32_t> first{0};
      for (const auto& b : bucket) {
        if ((words.size() - first.back()) * 8 >= t) first.push_back(uint32_t(words.size()));
        words.insert(words.end(), b.begin(), b.end());
      }
      first.push_back(uint32_t(words.size()));
      const Frames f = compress(words, first);
      const size_t dir = nb * 2 + f.frames * 8;
      const size_t total = f.data + f.dict + dir;
      std::printf(
          "  frames of %5zu B: %zu frames, data %zu + dict %zu + dir %zu = %zu (%.3fx), %.2f bits a copy, "
          "decode %.2f us\n",
          t, f.frames, f.data, f.dict, dir, total, double(total) / syzygy, 8.0 * double(f.data) / double(copies),
          f.decode_us);
    }
  }
}
