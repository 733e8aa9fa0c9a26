// SPDX-License-Identifier: GPL-3.0-or-later
// Whether a probe layout's region index repeats itself: its regions' cube lists (with their
// fallbacks) counted once each, and its distinct cube words. A list shared by many regions could
// be stored once behind a pointer; a word shared by many lists could be stored once behind a
// shorter number. Prints the regions, the non-empty ones, their cubes and bytes; the distinct
// lists and their cubes; the distinct words; and the lists' lengths (median, 90th and 99th
// percentile, largest, mean). At five pieces, also the words that repeat across siblings, the 64
// regions that differ only in the third fixed piece's square: a word held by at least T of them
// stored once per group of siblings, as 6 bytes (the word and the third piece's rows and files)
// instead of once per sibling, with the cubes a probe of a non-empty region would then scan (its
// own left, and the group's). Then what the words would take entropy-coded: each field of the word
// (the free pieces' rows and files, the output) given a Huffman code of its own over the whole
// layout, a probe decoding its region's cubes one after another, and a directory of a 16-bit bit
// offset a region (a 32-bit one a block of 48) to find where they start. And what they would take
// packed per region: each cube at only the bits its region's cubes vary, behind a descriptor. And
// as raw LZMA2 streams of 48, 192 and 768 regions' words, which a probe would decode whole (the
// streams' bytes and the mean time to decode one on this host).
//
// --dump-streams writes each run of REGIONS regions' words (little-endian) to DIR/N.bin, for
// measuring other coders on them (zstd --train, zstd -D).
//
//   egtmin_layout_dedup_study COVER_FILE [--dump-streams REGIONS DIR]
//
// COVER_FILE is NAME.egtc or NAME.egtcr; its layout (NAME.egtl, NAME.egtlr) must be beside it and
// current. Covers without a region index print their index's shape only.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <queue>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "probe/probe_layout.hpp"
#include "store/xz.hpp"

using namespace egtmin;
using namespace egtmin::probe;

namespace {
// The bits a Huffman code of these symbol counts takes for all of them (the sum of each merge).
double huffman_bits(const std::vector<uint64_t>& count) {
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<>> q;
  for (uint64_t c : count)
    if (c) q.push(c);
  if (q.size() == 1) return double(q.top());  // one value still takes a bit
  double bits = 0;
  while (q.size() > 1) {
    const uint64_t a = q.top();
    q.pop();
    const uint64_t b = q.top();
    q.pop();
    bits += double(a + b);
    q.push(a + b);
  }
  return bits;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 5) {
    std::fprintf(stderr, "usage: egtmin_layout_dedup_study COVER_FILE [--dump-streams REGIONS DIR]\n");
    return 2;
  }
  // --dump-streams: each run of REGIONS regions' words written to DIR/N.bin, for other coders.
  size_t dump_run = 0;
  std::filesystem::path dump_dir;
  if (argc == 5) {
    dump_run = std::strtoull(argv[3], nullptr, 10);
    dump_dir = argv[4];
    if (std::string(argv[2]) != "--dump-streams" || dump_run == 0) {
      std::fprintf(stderr, "usage: egtmin_layout_dedup_study COVER_FILE [--dump-streams REGIONS DIR]\n");
      return 2;
    }
    std::error_code ec;
    std::filesystem::create_directories(dump_dir, ec);
    if (ec) {
      std::fprintf(stderr, "%s: %s\n", dump_dir.c_str(), ec.message().c_str());
      return 1;
    }
  }
  const std::filesystem::path cover = argv[1];
  auto id = cover_identity(cover);
  if (!id) {
    std::fprintf(stderr, "%s\n", id.error().message.c_str());
    return 1;
  }
  auto lc = open_layout(layout_path(cover), *id, cover);
  if (!lc) {
    std::fprintf(stderr, "%s\n", lc.error().message.c_str());
    return 1;
  }
  const RegionIndex& ri = (*lc)->region;
  std::printf("%s: region index %s, tree words %zu, front line %d cubes\n", argv[1], ri.built() ? "yes" : "no",
              (*lc)->index.nodes(), (*lc)->index.front_size());
  if (!ri.built()) return 0;
  // The study reads the cubes where they lie: a framed layout's are coded.
  if (ri.framed()) {
    std::fprintf(stderr,
                 "%s: its layout's region cubes are framed: remove the layout and make a plain one "
                 "(egtmin-cli layouts NAME, without --max-bytes)\n",
                 argv[1]);
    return 1;
  }
  const RegionIndex::Hot h = ri.hot();
  // The directory ends where the cubes start, or, where some regions leave positions to the
  // evasion search, where the bitmap marking them starts.
  const auto* dir_end = reinterpret_cast<const uint8_t*>(h.searched ? static_cast<const void*>(h.searched)
                                                                    : static_cast<const void*>(h.cubes));
  const size_t dir_bytes = size_t(dir_end - reinterpret_cast<const uint8_t*>(h.dir));
  const size_t blocks = dir_bytes / RegionIndex::kBlockBytes;
  std::unordered_map<std::string, size_t> lists;
  std::unordered_set<uint32_t> words;
  size_t cubes = 0, regions = 0, distinct_cubes = 0;
  std::vector<size_t> lengths;
  std::vector<std::vector<uint32_t>> region_lists;  // in directory order: siblings are 64 in a row
  for (size_t b = 0; b < blocks; ++b) {
    // A block (RegionIndex): its first cube, then each region's units and its fallback.
    const uint8_t* block = reinterpret_cast<const uint8_t*>(h.dir) + b * RegionIndex::kBlockBytes;
    uint32_t first;
    std::memcpy(&first, block, sizeof first);
    uint32_t before = 0;
    for (uint32_t i = 0; i < RegionIndex::kBlockRegions; ++i) {
      const uint32_t units = block[RegionIndex::kBlockCounts + i];
      const uint32_t fallback = (block[RegionIndex::kBlockFallbacks + i / 4] >> (2 * (i % 4))) & 3;
      const uint32_t* c = h.cubes + first + (before << h.unit_shift);
      before += units;
      ++regions;
      uint32_t n = units << h.unit_shift;
      while (n && c[n - 1] == 0) --n;  // the padding to whole units matches nothing
      cubes += n;
      if (n) lengths.push_back(n);
      std::string key(reinterpret_cast<const char*>(c), n * sizeof(uint32_t));
      key.push_back(char(fallback));
      if (lists.emplace(std::move(key), n).second) distinct_cubes += n;
      words.insert(c, c + n);
      region_lists.emplace_back(c, c + n);
    }
  }
  std::printf(
      "regions %zu, non-empty %zu, cubes %zu (%zu bytes); distinct lists %zu, their cubes %zu (%zu bytes); "
      "distinct cube words %zu\n",
      regions, lengths.size(), cubes, cubes * 4, lists.size(), distinct_cubes, distinct_cubes * 4, words.size());
  std::printf("layout: directory %zu bytes, cubes with their padding %zu bytes\n", dir_bytes,
              (*lc)->region.hot_words().size_bytes() - dir_bytes);
  // Both coded forms below find a region's cubes by a bit offset: 16 bits a region, 32 a block of 48.
  const double bit_offsets = double(regions) * 2 + double(blocks) * 4;
  {
    // Field f of a word: its width from the layout's subcube field; the output last.
    std::array<int, 5> width{}, shift{};
    const int nfree = ri.pieces() - RegionIndex::fixed_count(ri.pieces());
    for (int f = 0; f < 4; ++f) {
      width[size_t(f)] = f < 2 * nfree ? region_cube::field_width(f, h.subcube) : 0;
      shift[size_t(f)] = region_cube::field_shift(f, h.subcube);
    }
    width[4] = 2, shift[4] = RegionIndex::kOutputShift;
    double bits = 0;
    for (size_t f = 0; f < 5; ++f) {
      if (!width[f]) continue;
      std::vector<uint64_t> count(size_t{1} << width[f]);
      for (const auto& list : region_lists)
        for (uint32_t w : list) ++count[(w >> shift[f]) & ((1u << width[f]) - 1)];
      const double field_bits = huffman_bits(count);
      size_t used = 0;
      for (uint64_t c : count) used += c > 0;
      std::printf("field %zu (%d bits): %zu values, Huffman %.2f bits a cube\n", f, width[f], used,
                  field_bits / double(cubes));
      bits += field_bits;
    }
    const double cube_bytes = bits / 8;
    std::printf("entropy-coded: cubes %.0f bytes (%.2f bits a cube), directory %.0f bytes, together %.0f bytes\n",
                cube_bytes, bits / double(cubes), bit_offsets, cube_bytes + bit_offsets);
  }
  {
    // Packed per region: a bit of the word's fields that every cube of the region has, or none
    // has, is stored once in the region's descriptor (the AND and the OR of its words, 30 bits
    // each); each cube keeps only the bits its region's cubes vary, and 1 bit of output when the
    // region's cubes have two. A probe tests its own bits against the descriptor (a bit no cube
    // has: the fallback), packs them the same way (a popcount per bit set) and matches each packed
    // cube as today (AND, compare). A region of one cube is its descriptor.
    constexpr uint32_t kFields = (1u << RegionIndex::kOutputShift) - 1;
    double packed_bits = 0, descriptor_bits = 0;
    std::vector<uint64_t> width_count(33);
    for (const auto& list : region_lists) {
      if (list.empty()) continue;
      uint32_t all = kFields, any = 0, outputs = 0;
      for (uint32_t w : list) all &= w, any |= w, outputs |= 1u << region_cube::output(w);
      const int varied = std::popcount(any & ~all & kFields) + (std::popcount(outputs) > 1 ? 1 : 0);
      descriptor_bits += 2 * 30 + 2;  // the AND, the OR, and the output of a region of one output
      if (list.size() > 1) {
        packed_bits += double(varied) * double(list.size());
        width_count[size_t(varied)] += list.size();
      }
    }
    const double bytes = (packed_bits + descriptor_bits) / 8 + bit_offsets;
    std::printf(
        "packed per region: cubes %.0f bytes (%.2f bits a cube), descriptors %.0f bytes, directory %.0f bytes, "
        "together %.0f bytes (%.3fx the layout's cubes and directory)\n",
        packed_bits / 8, packed_bits / double(cubes), descriptor_bits / 8, bit_offsets, bytes,
        bytes / double((*lc)->region.hot_words().size_bytes()));
    std::printf("packed widths (bits: cubes):");
    for (size_t w = 0; w < width_count.size(); ++w)
      if (width_count[w]) std::printf(" %zu: %llu", w, static_cast<unsigned long long>(width_count[w]));
    std::printf("\n");
  }
  std::sort(lengths.begin(), lengths.end());
  if (!lengths.empty())
    std::printf("cubes a non-empty region: median %zu, 90th percentile %zu, 99th %zu, largest %zu, mean %.1f\n",
                lengths[lengths.size() / 2], lengths[lengths.size() * 9 / 10], lengths[lengths.size() * 99 / 100],
                lengths.back(), double(cubes) / double(lengths.size()));
  if (ri.pieces() != 5) return 0;
  // The directory numbers a region (side to move, fixed squares) with the third fixed square in its
  // low 6 bits. A region's words are distinct (the build keeps each grown word once), so a word's
  // holders in a group are the siblings whose lists have it. Each group counted once, for every T.
  constexpr std::array<int, 4> kHolders = {2, 4, 8, 16};
  std::array<size_t, 4> own{}, shared{};
  std::array<double, 4> scan_own{}, scan_shared{};
  size_t nonempty = 0;
  for (size_t g = 0; g + 64 <= region_lists.size(); g += 64) {
    std::unordered_map<uint32_t, int> holders;
    for (size_t s = 0; s < 64; ++s)
      for (uint32_t w : region_lists[g + s]) ++holders[w];
    for (size_t t = 0; t < kHolders.size(); ++t) {
      size_t up = 0;
      for (const auto& [w, n] : holders) up += n >= kHolders[t];
      shared[t] += up;
      for (size_t s = 0; s < 64; ++s) {
        size_t keep = 0;
        for (uint32_t w : region_lists[g + s]) keep += holders[w] < kHolders[t];
        own[t] += keep;
        if (!region_lists[g + s].empty()) scan_own[t] += double(keep), scan_shared[t] += double(up);
      }
    }
    for (size_t s = 0; s < 64; ++s) nonempty += !region_lists[g + s].empty();
  }
  for (size_t t = 0; t < kHolders.size(); ++t) {
    const size_t bytes = own[t] * 4 + shared[t] * 6;
    std::printf(
        "siblings, words held by at least %2d stored once: %zu own + %zu shared, %zu bytes (%.3fx); "
        "a non-empty region's probe scans %.1f + %.1f cubes\n",
        kHolders[t], own[t], shared[t], bytes, double(bytes) / double(cubes * 4), scan_own[t] / double(nonempty),
        scan_shared[t] / double(nonempty));
  }
  // LZMA blocks: the words of each run of R regions in directory order (R a multiple of a
  // directory block's 48) as one raw LZMA2 stream, which a probe of any of them decodes whole,
  // with a 4-byte offset a stream; the directory stays as it is.
  store::Lzma2Options options;
  options.preset = 6, options.extreme = false, options.lc = 0, options.lp = 2, options.pb = 2;
  if (dump_run)
    for (size_t r = 0, n = 0; r < region_lists.size(); r += dump_run, ++n) {
      std::ofstream out(dump_dir / (std::to_string(n) + ".bin"), std::ios::binary);
      for (size_t i = r; i < std::min(r + dump_run, region_lists.size()); ++i)
        out.write(reinterpret_cast<const char*>(region_lists[i].data()),
                  std::streamsize(region_lists[i].size() * sizeof(uint32_t)));
      if (!out) {
        std::fprintf(stderr, "%s: cannot write\n", dump_dir.c_str());
        return 1;
      }
    }
  for (size_t run : {size_t{48}, size_t{192}, size_t{768}}) {
    double bytes = 0, seconds = 0, streams = 0;
    std::vector<uint8_t> raw, decoded;
    for (size_t r = 0; r < region_lists.size(); r += run) {
      raw.clear();
      for (size_t i = r; i < std::min(r + run, region_lists.size()); ++i)
        for (uint32_t w : region_lists[i])
          for (int b = 0; b < 4; ++b) raw.push_back(uint8_t(w >> (8 * b)));
      if (raw.empty()) continue;
      auto packed = store::lzma2_raw_compress(raw, options);
      if (!packed) {
        std::fprintf(stderr, "%s\n", packed.error().message.c_str());
        return 1;
      }
      decoded.resize(raw.size());
      const auto start = std::chrono::steady_clock::now();
      if (!store::lzma2_raw_decompress(*packed, decoded)) {
        std::fprintf(stderr, "a stream did not decode\n");
        return 1;
      }
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      bytes += double(packed->size()) + 4, streams += 1;
    }
    std::printf(
        "LZMA streams of %zu regions' words: %.0f streams, %.0f bytes (%.3fx the words), with the directory %.0f; "
        "decoding a stream %.1f us\n",
        run, streams, bytes, bytes / double(cubes * 4), bytes + double(dir_bytes),
        streams ? 1e6 * seconds / streams : 0);
  }
  return 0;
}
