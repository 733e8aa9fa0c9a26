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
// words; frames are compressed by zstd at level 19 with literals raw and a dictionary trained on
// them. Prints per key and T: copies, frames' bytes, dictionary, directory (a 16-bit count a
// bucket, 8 bytes a frame), together and against SYZYGY_BYTES, the mean cubes a probe scans (a
// bucket's, weighted by its positions: here its cubes) and a frame's mean decode time.
//
//   egtmin_framed_cover_study COVER_FILE SYZYGY_BYTES
#define ZDICT_STATIC_LINKING_ONLY
#include <zdict.h>
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "logic/cube.hpp"
#include "store/cover_file.hpp"
#include "table/encoding.hpp"

using namespace egtmin;

namespace {

struct Frames {
  size_t data = 0, dict = 0, frames = 0;
  double decode_us = 0;
};

Frames compress(const std::vector<std::vector<uint64_t>>& frames, size_t dict_capacity) {
  std::vector<uint8_t> all;
  std::vector<size_t> sizes;
  for (const auto& f : frames) {
    const auto* b = reinterpret_cast<const uint8_t*>(f.data());
    all.insert(all.end(), b, b + f.size() * 8);
    sizes.push_back(f.size() * 8);
  }
  std::vector<uint8_t> dict;
  if (dict_capacity && dict_capacity * 4 <= all.size()) {
    dict.resize(dict_capacity);
    ZDICT_cover_params_t p{};
    p.k = 1024;
    p.d = 8;
    p.zParams.compressionLevel = 19;
    const size_t n =
        ZDICT_trainFromBuffer_cover(dict.data(), dict.size(), all.data(), sizes.data(), unsigned(sizes.size()), p);
    if (ZDICT_isError(n))
      dict.clear();
    else
      dict.resize(n);
  }
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 19);
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 0);
  ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 0);
  ZSTD_CCtx_setParameter(c, ZSTD_c_dictIDFlag, 0);
  ZSTD_CCtx_setParameter(c, ZSTD_c_literalCompressionMode, ZSTD_ps_disable);
  ZSTD_CDict* cd = dict.empty() ? nullptr : ZSTD_createCDict(dict.data(), dict.size(), 19);
  if (cd) ZSTD_CCtx_refCDict(c, cd);
  std::vector<std::vector<uint8_t>> out;
  Frames r;
  for (const auto& f : frames) {
    std::vector<uint8_t> buf(ZSTD_compressBound(f.size() * 8));
    const size_t n = ZSTD_compress2(c, buf.data(), buf.size(), f.data(), f.size() * 8);
    buf.resize(n);
    r.data += n;
    out.push_back(std::move(buf));
  }
  r.dict = dict.size();
  r.frames = frames.size();
  // Decode time: random frames.
  ZSTD_DCtx* d = ZSTD_createDCtx();
  ZSTD_DDict* dd = dict.empty() ? nullptr : ZSTD_createDDict(dict.data(), dict.size());
  std::mt19937 rng(1);
  std::vector<uint64_t> dst(1 << 20);
  const int n = 20000;
  const auto t0 = std::chrono::steady_clock::now();
  size_t check = 0;
  for (int i = 0; i < n; ++i) {
    const size_t f = rng() % out.size();
    if (dd) ZSTD_DCtx_refDDict(d, dd);
    check += ZSTD_decompressDCtx(d, dst.data(), frames[f].size() * 8, out[f].data(), out[f].size());
  }
  r.decode_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / n;
  if (check == 0) std::printf("?");
  ZSTD_freeDCtx(d);
  ZSTD_freeDDict(dd);
  ZSTD_freeCDict(cd);
  ZSTD_freeCCtx(c);
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
      std::vector<std::vector<uint64_t>> frames(1);
      for (const auto& b : bucket) {
        if (frames.back().size() * 8 >= t) frames.emplace_back();
        frames.back().insert(frames.back().end(), b.begin(), b.end());
      }
      for (size_t dict : {size_t(0), size_t(128 * 1024)}) {
        const Frames f = compress(frames, dict);
        const size_t dir = nb * 2 + f.frames * 8;
        const size_t total = f.data + f.dict + dir;
        std::printf(
            "  frames of %5zu B, dict %6zu: %zu frames, data %zu + dict %zu + dir %zu = %zu (%.3fx), %.2f bits a copy, "
            "decode %.2f us\n",
            t, dict, f.frames, f.data, f.dict, dir, total, double(total) / syzygy,
            8.0 * double(f.data) / double(copies), f.decode_us);
      }
    }
  }
}
