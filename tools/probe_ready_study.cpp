// SPDX-License-Identifier: GPL-3.0-or-later
// Where the bytes of a probe-ready form of a cover would go: the cover's own cubes, uncompressed
// and split into lists a probe finds from the position's inputs, against the Syzygy WDL file of
// the balance. Counted from the cover alone: nothing is built or timed.
//
// Forms:
// - flat: every cube at 2 bits an input and its output's bits, one list;
// - regions keyed by a set of inputs (the side to move and the kings' squares; the side to move
//   and the squares of the two pieces whose inputs the cubes fix most often; the greedy choice of
//   egtmin_region_bits_study, 7, 10, 13 and 16 inputs, then every prefix of it up to 16; or
//   --key): a cube is copied into every region whose key it admits and that holds a
//   representative (per group of inputs, a pattern its representatives give: White's king on its
//   canonical squares, identical pieces in ascending order, a pawn off the first and last ranks),
//   and is stored without the key's inputs;
// - regions whose last inputs group rather than copy ("greedy C + G", the greedy choice's first C
//   inputs copied, its next G grouped): within a region, cubes are kept by their codes on the G
//   inputs (0, 1 or don't care: 3^G groups, no copies), and a probe visits the 2^G groups its
//   position admits;
// - a second level (--split N, for the copied forms): each region of more than N cubes is split
//   again on the inputs left, one at a time, each the one leaving the fewest copies, until every
//   part holds at most N cubes; its sub-directory is counted as an array of offsets.
// A stored cube takes 2 bits an input left ("fixed width"), or only what its region's cubes vary:
// 0, 1 or 2 bits an input for 1, 2 or 3 of the codes 0, 1 and don't care among them, behind a
// descriptor of 3 bits an input and 3 for the outputs ("varied"); "better" takes the smaller per
// region (1 bit says which). The directory numbers the live regions only (a mixed radix over the
// groups' patterns), one entry a region (a group with grouped inputs), as an array of offsets or
// as an Elias-Fano sequence, estimated as n * (2 + ceil(log2(U / n))) bits for n offsets below
// U. The 50-move rule's draws, which a probe answered by a win or loss looks up, are counted as
// the file holds them (LZMA) and as an Elias-Fano set over the balance's indices. The total is
// "better" with the Elias-Fano directory and the rule's draws; "64-bit cubes" keeps the cover's
// own words instead, with an array of offsets in cubes (a scan with no unpacking).
//
// Probe work: cubes per non-empty list (mean and max); over random legal positions mapped to
// their representatives (--samples), the cubes the probed list holds for the position (what a
// miss scans: no cube holds the position, its value is the implied output), the mean and max of
// those, the cubes scanned up to the first that holds the position (all on a miss), the share of
// misses and the non-empty groups a miss visits. A list keeps its cubes in one order, trained on
// a second draw of as many positions: greedily, the cube holding the most positions no earlier
// cube holds. The capture-resolved covers' capture search comes on top, as in every probe.
//
// With --blocks B, each form's cubes are also counted entropy-coded as a probe would decode them:
// its regions' 64-bit words without the key's inputs, cut into blocks of at least B bytes, each
// a raw LZMA2 stream (liblzma, preset 6, 8-byte alignment), with a 4-byte offset a block, and the
// mean time to decode a block on this host.
//
//   egtmin_probe_ready_study COVER_FILE [--samples N] [--split N] [--key I,J,...] [--seed S]
//                            [--blocks B] [--syzygy DIR] [--sizes TSV]
//
// Inputs are numbered as in logic/cube.hpp (0 the side to move, then 6 a piece's square, row
// first); the tables print a key as stm and sN[bits] (slot N's square bits, 0 the highest). The
// Syzygy size: DIR/NAME.rtbw when present (default ../shared/syzygy), else the line of TSV
// (default docs/syzygy-wdl-sizes.tsv); run from the repository's root. Defaults: 1,000,000
// samples, no second level, seed 5.
#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <queue>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "logic/cube.hpp"
#include "store/cover_file.hpp"
#include "store/xz.hpp"
#include "table/cover_canon.hpp"
#include "table/encoding.hpp"

using namespace egtmin;
using logic::CubeWord;

namespace {

constexpr int kMaxKey = 22;

int code_of(CubeWord c, int input) { return int((c >> logic::pair_shift(input)) & 3); }  // 2: 0, 1: 1, 3: X
int ceil_log2(double x) { return x <= 1 ? 0 : int(std::ceil(std::log2(x))); }
double elias_fano_bits(double n, double universe) { return n <= 0 ? 0 : n * (2 + ceil_log2(universe / n)); }
double array_bits(double n, double universe) { return n * std::max(1, ceil_log2(universe + 1)); }

// What the cover's file and its representatives tell the forms.
struct Study {
  std::string name;
  int inputs = 0, pieces = 0;
  std::vector<CubeWord> cubes;
  int output_count = 0;  // distinct outputs among the cubes
  uint64_t rule_draws = 0, rule_bytes_file = 0, file_bytes = 0;
  uint64_t syzygy = 0;
  // Representatives seen per slot and side to move.
  std::array<uint64_t, kMaxTablePieces> squares{};  // bit s: slot's square s occurs
  unsigned stms = 0;                                // bit c: side to move c occurs
  std::vector<uint64_t> samples;                    // representatives' indices
  std::vector<uint32_t> rank;                       // per cube: its place in the scan order
  int split = 0;
  size_t block_bytes = 0;  // --blocks: the regions' words LZMA-compressed in blocks of this many bytes
};

int slot_of(int input) { return input == 0 ? -1 : (input - 1) / kSquareBits; }

// The live regions of a key: per group of inputs (the side to move; each run of identical pieces,
// whose squares ascend), the patterns its representatives give the key's bits.
struct Liveness {
  std::vector<uint8_t> live;  // per region id
  double directory = 0;       // live regions as a mixed radix over the groups' patterns numbers them
};

Liveness liveness(const Study& s, const Encoding& enc, const std::vector<int>& key) {
  const int k = int(key.size());
  Liveness l;
  l.live.assign(size_t(1) << k, 1);
  // Groups: first slot and slot count (-1: the side to move).
  std::vector<std::pair<int, int>> groups{{-1, 1}};
  for (int slot = 0; slot < s.pieces;) {
    int n = 1;
    while (slot + n < s.pieces && enc.piece(slot + n) == enc.piece(slot)) ++n;
    groups.push_back({slot, n});
    slot += n;
  }
  double dir = 1;
  for (auto [first, count] : groups) {
    std::vector<int> pos;  // key positions of the group's inputs
    for (int j = 0; j < k; ++j) {
      const int slot = slot_of(key[size_t(j)]);
      if (first < 0 ? slot < 0 : slot >= first && slot < first + count) pos.push_back(j);
    }
    if (pos.empty()) continue;
    std::vector<uint8_t> allowed(size_t(1) << pos.size(), 0);
    auto mark = [&](const std::array<int, kMaxTablePieces>& v) {  // v: the group's values
      unsigned pattern = 0;
      for (int j : pos) {
        const int input = key[size_t(j)];
        const int slot = slot_of(input);
        const int bit =
            slot < 0 ? v[0] : (v[size_t(slot - first)] >> (kSquareBits - 1 - (input - square_input(slot)))) & 1;
        pattern = pattern << 1 | unsigned(bit);
      }
      allowed[pattern] = 1;
    };
    std::array<int, kMaxTablePieces> v{};
    if (first < 0) {
      for (int c = 0; c < 2; ++c)
        if (s.stms >> c & 1) v[0] = c, mark(v);
    } else {
      // Ascending squares, each one its slot takes.
      auto walk = [&](auto&& self, int i, int from) -> void {
        if (i == count) return mark(v);
        for (int sq = from; sq < 64; ++sq)
          if (s.squares[size_t(first + i)] >> sq & 1) v[size_t(i)] = sq, self(self, i + 1, sq + 1);
      };
      walk(walk, 0, 0);
    }
    dir *= double(std::count(allowed.begin(), allowed.end(), 1));
    for (size_t r = 0; r < l.live.size(); ++r) {
      if (!l.live[r]) continue;
      unsigned pattern = 0;
      for (int j : pos) pattern = pattern << 1 | unsigned(r >> (k - 1 - j) & 1);
      l.live[r] = allowed[pattern];
    }
  }
  l.directory = dir;
  return l;
}

// The regions a cube reaches: its key bits with the don't-cares enumerated.
template <class F>
void for_each_region(CubeWord c, const std::vector<int>& key, F&& f) {
  const int k = int(key.size());
  uint32_t base = 0, free = 0;
  for (int j = 0; j < k; ++j) {
    const int code = code_of(c, key[size_t(j)]);
    const uint32_t bit = uint32_t{1} << (k - 1 - j);
    if (code == 3)
      free |= bit;
    else if (code == 1)
      base |= bit;
  }
  for (uint32_t sub = free;; sub = (sub - 1) & free) {
    f(base | sub);
    if (!sub) break;
  }
}

uint32_t region_of(uint64_t index, int inputs, const std::vector<int>& key) {
  uint32_t r = 0;
  for (int i : key) r = r << 1 | uint32_t(index >> (inputs - 1 - i) & 1);
  return r;
}

// Bits of one region's cubes. `left`: the inputs outside the key (and any split's).
struct RegionBits {
  double fixed = 0, varied = 0, varied_descriptor = 0, better = 0;
};
RegionBits region_bits(const Study& s, const std::vector<uint32_t>& ids, const std::vector<int>& left) {
  RegionBits b;
  if (ids.empty()) return b;
  unsigned outputs = 0;
  for (uint32_t i : ids) outputs |= 1u << int(logic::output_of(s.cubes[i]));
  const int out_bits = ceil_log2(std::popcount(outputs));
  const double n = double(ids.size());
  b.fixed = n * (2.0 * double(left.size()) + ceil_log2(s.output_count));
  int width = out_bits;
  for (int input : left) {
    unsigned codes = 0;
    for (uint32_t i : ids) codes |= 1u << code_of(s.cubes[i], input);
    width += ceil_log2(std::popcount(codes));
  }
  b.varied = n * width;
  b.varied_descriptor = 3.0 * double(left.size()) + 3;
  b.better = 1 + std::min(b.fixed, b.varied + b.varied_descriptor);
  return b;
}

// A list's cubes in the order a scan would keep them (Study::rank).
void order_for_scan(const Study& s, std::vector<uint32_t>& ids) {
  std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) { return s.rank[a] < s.rank[b]; });
}

struct Row {
  std::string form;
  int key = 0, ternary = 0;
  double directory = 0, non_empty = 0, copies = 0;
  double mean = 0, max = 0, probe_max = 0, probe_region = 0, probe_scanned = 0, probe_empty = 0, probe_miss = 0,
         probe_buckets = 0;
  double fixed_bytes = 0, varied_bytes = 0, better_bytes = 0, dir_array = 0, dir_ef = 0, sub_dir = 0, total = 0,
         word_bytes = 0, word_total = 0;
  double block_total = 0, block_count = 0, block_decode_us = 0;  // --blocks
};

double rule_and_header_bytes(const Study& s);

// The regions' cubes as 64-bit words without the key's inputs, region after region, cut into
// blocks of at least `block_bytes` (a region never split), each a raw LZMA2 stream (what a probe
// would decode before scanning its region): the streams' bytes and a 4-byte offset a block, the
// blocks, and the mean time to decode one.
void study_blocks(const Study& s, const std::vector<std::vector<uint32_t>>& regions, const std::vector<int>& key,
                  Row& row) {
  CubeWord key_bits = 0;
  for (int i : key) key_bits |= CubeWord{3} << logic::pair_shift(i);
  store::Lzma2Options options;
  options.preset = 6, options.extreme = false, options.lc = 0, options.lp = 3, options.pb = 3;
  std::vector<uint8_t> block, decoded;
  double bytes = 0, seconds = 0;
  auto flush = [&] {
    if (block.empty()) return;
    auto packed = store::lzma2_raw_compress(block, options);
    if (!packed) return;
    decoded.resize(block.size());
    const auto start = std::chrono::steady_clock::now();
    if (store::lzma2_raw_decompress(*packed, decoded))
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    bytes += double(packed->size()) + 4;
    row.block_count += 1;
    block.clear();
  };
  for (const auto& ids : regions) {
    for (uint32_t i : ids) {
      const CubeWord w = s.cubes[i] & ~key_bits;
      for (int b = 0; b < 8; ++b) block.push_back(uint8_t(w >> (8 * b)));
    }
    if (block.size() >= s.block_bytes) flush();
  }
  flush();
  row.block_total = bytes + row.dir_ef + rule_and_header_bytes(s);
  row.block_decode_us = row.block_count ? 1e6 * seconds / row.block_count : 0;
}

std::string key_text(const Study& s, const std::vector<int>& key) {
  std::string t;
  for (int slot = -1; slot < s.pieces; ++slot) {
    std::string bits;
    int n = 0;
    for (int i : key)
      if (slot_of(i) == slot) {
        if (n++) bits.push_back(',');
        bits.append(std::to_string(slot < 0 ? 0 : i - square_input(slot)));
      }
    if (!n) continue;
    if (!t.empty()) t.push_back(' ');
    if (slot < 0) {
      t.append("stm");
      continue;
    }
    t.push_back('s');
    t.append(std::to_string(slot));
    if (n == kSquareBits) continue;
    t.push_back('[');
    t.append(bits);
    t.push_back(']');
  }
  return t;
}

double rule_and_header_bytes(const Study& s) {
  return elias_fano_bits(double(s.rule_draws), std::ldexp(1.0, s.inputs)) / 8 + 16;
}

// Splits a region's cubes on the inputs left until each part holds at most `limit` cubes; adds
// the parts' bits and their sub-directories' offsets, and the parts (for the sampled probes).
struct Part {
  std::vector<int> key;  // split inputs
  std::vector<std::vector<uint32_t>> cubes;
};
Part split_region(const Study& s, const std::vector<uint32_t>& ids, std::vector<int> left, int limit) {
  Part p;
  p.cubes.push_back(ids);
  for (;;) {
    size_t largest = 0;
    for (auto& c : p.cubes) largest = std::max(largest, c.size());
    if (largest <= size_t(limit) || p.key.size() >= 8) break;
    // The input that leaves the fewest copies over all the region's cubes.
    int best = -1;
    double best_copies = 0;
    for (int input : left) {
      double copies = 0;
      for (uint32_t i : ids) copies += code_of(s.cubes[i], input) == 3 ? 2 : 1;
      if (best < 0 || copies < best_copies) best = input, best_copies = copies;
    }
    if (best < 0 || best_copies >= 2.0 * double(ids.size())) break;  // no input splits
    p.key.push_back(best);
    left.erase(std::find(left.begin(), left.end(), best));
    p.cubes.assign(size_t(1) << p.key.size(), {});
    for (uint32_t i : ids) for_each_region(s.cubes[i], p.key, [&](uint32_t r) { p.cubes[r].push_back(i); });
  }
  return p;
}

// Ternary inputs: within a region, cubes are grouped by their codes on these inputs (0, 1 or don't
// care: 3^t groups, none copied), and a probe visits the 2^t groups its position admits.
uint32_t ternary_group(CubeWord c, const std::vector<int>& ternary) {
  uint32_t g = 0;
  for (int i : ternary) g = g * 3 + uint32_t(code_of(c, i) == 3 ? 2 : code_of(c, i) == 1);
  return g;
}

Row study_key(const Study& s, const Encoding& enc, const std::string& form, const std::vector<int>& key,
              const std::vector<int>& ternary = {}, bool verbose = true) {
  Row row;
  row.form = form;
  row.key = int(key.size());
  row.ternary = int(ternary.size());
  const bool split = s.split > 0 && ternary.empty();
  const Liveness live = liveness(s, enc, key);
  std::vector<std::vector<uint32_t>> regions(size_t(1) << key.size());
  for (uint32_t i = 0; i < s.cubes.size(); ++i)
    for_each_region(s.cubes[i], key, [&](uint32_t r) {
      if (live.live[r]) regions[r].push_back(i);
    });
  std::vector<int> left;
  for (int i = 0; i < s.inputs; ++i)
    if (std::find(key.begin(), key.end(), i) == key.end() &&
        std::find(ternary.begin(), ternary.end(), i) == ternary.end())
      left.push_back(i);
  // Second level: each oversized region split; its parts replace it (sub-directory counted).
  std::vector<Part> parts(regions.size());
  double fixed = 0, varied = 0, better = 0, sub_dir_bits = 0;
  for (size_t r = 0; r < regions.size(); ++r) {
    auto& ids = regions[r];
    if (ids.empty()) continue;
    row.non_empty += 1;
    if (split && ids.size() > size_t(s.split)) {
      parts[r] = split_region(s, ids, left, s.split);
      std::vector<int> sub_left;
      for (int i : left)
        if (std::find(parts[r].key.begin(), parts[r].key.end(), i) == parts[r].key.end()) sub_left.push_back(i);
      double region_better = 0, n = 0;
      for (auto& c : parts[r].cubes) {
        const RegionBits b = region_bits(s, c, sub_left);
        fixed += b.fixed, varied += b.varied + b.varied_descriptor, region_better += b.better;
        row.copies += double(c.size());
        n += double(c.size());
        order_for_scan(s, c);
      }
      better += region_better;
      // The sub-directory: its split inputs (5 bits each) and one offset a part.
      sub_dir_bits +=
          8 + 5.0 * double(parts[r].key.size()) + array_bits(double(parts[r].cubes.size()), std::max(n, region_better));
      for (auto& c : parts[r].cubes) row.max = std::max(row.max, double(c.size()));
      continue;
    }
    const RegionBits b = region_bits(s, ids, left);
    fixed += b.fixed, varied += b.varied + b.varied_descriptor, better += b.better;
    row.copies += double(ids.size());
    row.max = std::max(row.max, double(ids.size()));
    order_for_scan(s, ids);
  }
  row.directory = live.directory;
  row.mean = row.non_empty ? row.copies / row.non_empty : 0;  // before a split: per region
  if (split) {
    double stored_lists = 0;
    for (size_t r = 0; r < regions.size(); ++r)
      stored_lists += parts[r].cubes.empty() ? !regions[r].empty() : double(parts[r].cubes.size());
    row.mean = stored_lists ? row.copies / stored_lists : 0;  // per list a probe scans
  }
  row.fixed_bytes = fixed / 8, row.varied_bytes = varied / 8, row.better_bytes = better / 8;
  row.sub_dir = sub_dir_bits / 8;
  // One offset a region (a ternary group with ternary inputs), in bits: the regions' widths differ.
  const double entries = live.directory * std::pow(3.0, double(ternary.size()));
  row.dir_array = array_bits(entries + 1, better + sub_dir_bits) / 8;
  row.dir_ef = elias_fano_bits(entries, better + sub_dir_bits) / 8;
  row.total = row.better_bytes + row.sub_dir + row.dir_ef + rule_and_header_bytes(s);

  // Sampled probes: cubes in the probed list (the groups the position admits: what a miss scans),
  // those scanned up to the first that holds it (all on a miss), and the non-empty groups admitted.
  // With ternary inputs a region keeps its groups one after another, a group's cubes in scan
  // order, and a probe visits the groups it admits in the order of their first cubes.
  struct Group {
    uint32_t rank = UINT32_MAX, begin = 0, end = 0;
  };
  std::vector<std::vector<Group>> groups(regions.size());
  const size_t groups_per_region = size_t(std::pow(3.0, double(ternary.size())));
  if (!ternary.empty())
    for (size_t r = 0; r < regions.size(); ++r) {
      auto& ids = regions[r];
      if (ids.empty()) continue;
      auto& g = groups[r];
      g.assign(groups_per_region, {});
      for (uint32_t i : ids) {
        Group& x = g[ternary_group(s.cubes[i], ternary)];
        x.rank = std::min(x.rank, s.rank[i]);
      }
      std::stable_sort(ids.begin(), ids.end(), [&](uint32_t x, uint32_t y) {
        return g[ternary_group(s.cubes[x], ternary)].rank < g[ternary_group(s.cubes[y], ternary)].rank;
      });
      for (uint32_t n = 0; n < ids.size(); ++n) {
        Group& x = g[ternary_group(s.cubes[ids[n]], ternary)];
        if (x.end == 0) x.begin = n;
        x.end = n + 1;
      }
    }
  double in_region = 0, scanned = 0, empty = 0, misses = 0, buckets = 0;
  std::vector<const Group*> admitted_groups;
  for (uint64_t index : s.samples) {
    const uint32_t r = region_of(index, s.inputs, key);
    const CubeWord m = logic::minterm(index, s.inputs);
    const std::vector<uint32_t>* ids = &regions[r];
    if (!parts[r].cubes.empty()) ids = &parts[r].cubes[region_of(index, s.inputs, parts[r].key)];
    if (ids->empty()) ++empty;
    double admitted = double(ids->size()), seen = 0;
    bool found = false;
    if (ternary.empty()) {
      for (uint32_t i : *ids) {
        ++seen;
        if ((found = logic::contains(s.cubes[i], m))) break;
      }
    } else if (!ids->empty()) {
      // The groups whose codes the position admits: each ternary input its value or don't care.
      admitted = 0;
      admitted_groups.clear();
      const uint32_t value = region_of(index, s.inputs, ternary);
      const int t = int(ternary.size());
      for (uint32_t as_x = 0; as_x < (1u << t); ++as_x) {
        uint32_t g = 0;
        for (int j = 0; j < t; ++j) g = g * 3 + ((as_x >> (t - 1 - j) & 1) ? 2 : (value >> (t - 1 - j) & 1));
        const Group& x = groups[r][g];
        if (x.end == 0) continue;
        admitted += x.end - x.begin, ++buckets;
        admitted_groups.push_back(&x);
      }
      std::sort(admitted_groups.begin(), admitted_groups.end(),
                [](const Group* a, const Group* b) { return a->rank < b->rank; });
      for (const Group* x : admitted_groups) {
        for (uint32_t n = x->begin; n < x->end && !found; ++n) {
          ++seen;
          found = logic::contains(s.cubes[(*ids)[n]], m);
        }
        if (found) break;
      }
    }
    in_region += admitted, scanned += seen, misses += !found;
    row.probe_max = std::max(row.probe_max, admitted);
  }
  const double samples = double(std::max<size_t>(1, s.samples.size()));
  row.probe_region = in_region / samples, row.probe_scanned = scanned / samples, row.probe_empty = empty / samples;
  row.probe_miss = misses / samples, row.probe_buckets = buckets / samples;
  // Cubes kept as the cover's own 64-bit words, one offset (in cubes) a region or group.
  row.word_bytes = 8 * row.copies + array_bits(entries + 1, row.copies) / 8 + row.sub_dir;
  row.word_total = row.word_bytes + rule_and_header_bytes(s);
  if (s.block_bytes && !split) study_blocks(s, regions, key, row);
  if (!verbose) return row;

  std::printf("%s (%s", form.c_str(), key_text(s, key).c_str());
  if (!ternary.empty()) std::printf("; ternary %s", key_text(s, ternary).c_str());
  std::printf("): %d key inputs, %zu ternary, %zu left\n", row.key, ternary.size(), left.size());
  std::printf("  regions: %.0f live (directory), %.0f non-empty; %.0f cube copies (%.2f a cube)\n", live.directory,
              row.non_empty, row.copies, row.copies / double(s.cubes.size()));
  std::printf("  cubes a non-empty %s: mean %.1f, max %.0f\n", split ? "list" : "region", row.mean, row.max);
  std::printf(
      "  probes: %.1f cubes in the list, %.1f scanned to the first holding the position (all on a miss), "
      "%.1f %% misses, %.1f %% in empty regions",
      row.probe_region, row.probe_scanned, 100 * row.probe_miss, 100 * row.probe_empty);
  if (!ternary.empty()) std::printf(", %.1f non-empty groups visited", row.probe_buckets);
  std::printf(
      "\n  cubes: fixed width %.0f B (%.1f bits a cube), varied %.0f B with descriptors, better per region "
      "%.0f B\n",
      row.fixed_bytes, 8 * row.fixed_bytes / std::max(1.0, row.copies), row.varied_bytes, row.better_bytes);
  if (split) std::printf("  sub-directories: %.0f B\n", row.sub_dir);
  std::printf("  directory: offsets %.0f B, Elias-Fano %.0f B\n", row.dir_array, row.dir_ef);
  std::printf("  total (better + directory as Elias-Fano + rule's draws + header): %.0f B = %.3f x Syzygy\n", row.total,
              s.syzygy ? row.total / double(s.syzygy) : 0.0);
  std::printf("  cubes as 64-bit words, offsets in cubes: %.0f B in all = %.3f x Syzygy\n\n", row.word_total,
              s.syzygy ? row.word_total / double(s.syzygy) : 0.0);
  return row;
}

// The greedy choice of egtmin_region_bits_study: the side to move, then each time the input that
// leaves the fewest copies over every cube (every region, live or not).
std::vector<int> greedy_inputs(const Study& s, size_t count) {
  std::vector<int> chosen{0};
  std::vector<double> weight(s.cubes.size(), 1.0);  // 2^(free chosen inputs)
  for (size_t c = 0; c < s.cubes.size(); ++c)
    if (code_of(s.cubes[c], 0) == 3) weight[c] = 2;
  while (chosen.size() < count) {
    int best = -1;
    double best_copies = 0;
    for (int i = 1; i < s.inputs; ++i) {
      if (std::find(chosen.begin(), chosen.end(), i) != chosen.end()) continue;
      double copies = 0;
      for (size_t c = 0; c < s.cubes.size(); ++c) copies += weight[c] * (code_of(s.cubes[c], i) == 3 ? 2 : 1);
      if (best < 0 || copies < best_copies) best = i, best_copies = copies;
    }
    chosen.push_back(best);
    for (size_t c = 0; c < s.cubes.size(); ++c)
      if (code_of(s.cubes[c], best) == 3) weight[c] *= 2;
  }
  return chosen;
}

std::vector<int> piece_inputs(std::initializer_list<int> slots) {
  std::vector<int> key{0};
  for (int slot : slots)
    for (int b = 0; b < kSquareBits; ++b) key.push_back(square_input(slot) + b);
  return key;
}

uint64_t syzygy_size(const std::string& name, const std::string& dir, const std::string& tsv) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(std::filesystem::path(dir) / (name + ".rtbw"), ec);
  if (!ec) return size;
  std::ifstream in(tsv);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    uint64_t bytes = 0;
    std::string file;
    if (fields >> bytes >> file && file == name + ".rtbw") return bytes;
  }
  return 0;
}

void print_table(const Study& s, const std::vector<Row>& rows) {
  std::printf(
      "| form | key inputs | grouped | non-empty regions | cube copies | cubes: fixed width | varied | better | "
      "directory: offsets | Elias-Fano | total | x Syzygy | cubes a region: mean | max | probe: cubes admitted | "
      "max | scanned | misses | groups admitted | total, 64-bit cubes | x Syzygy | LZMA blocks: total | x Syzygy | "
      "blocks | decode a block, us |\n");
  std::printf(
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
      "---:|---:|---:|\n");
  for (const Row& r : rows)
    std::printf(
        "| %s | %d | %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.3f | %.1f | %.0f | %.1f | "
        "%.0f | %.1f | %.1f %% | %.1f | %.0f | %.3f | %.0f | %.3f | %.0f | %.1f |\n",
        r.form.c_str(), r.key, r.ternary, r.non_empty, r.copies, r.fixed_bytes, r.varied_bytes, r.better_bytes,
        r.dir_array, r.dir_ef + r.sub_dir, r.total, s.syzygy ? r.total / double(s.syzygy) : 0.0, r.mean, r.max,
        r.probe_region, r.probe_max, r.probe_scanned, 100 * r.probe_miss, r.probe_buckets, r.word_total,
        s.syzygy ? r.word_total / double(s.syzygy) : 0.0, r.block_total,
        s.syzygy ? r.block_total / double(s.syzygy) : 0.0, r.block_count, r.block_decode_us);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s COVER_FILE [--samples N] [--split N] [--key I,J,...] [--seed S] [--blocks BYTES] "
                 "[--syzygy DIR] [--sizes TSV]\n",
                 argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  uint64_t samples = 1000000, seed = 5;
  std::string syzygy_dir = "../shared/syzygy", sizes = "docs/syzygy-wdl-sizes.tsv";
  std::vector<int> own_key;
  Study s;
  for (int a = 2; a < argc; ++a) {
    const std::string arg = argv[a];
    if (a + 1 >= argc) {
      std::fprintf(stderr, "%s needs a value\n", arg.c_str());
      return 2;
    }
    const std::string value = argv[++a];
    if (arg == "--samples")
      samples = std::strtoull(value.c_str(), nullptr, 10);
    else if (arg == "--split")
      s.split = std::atoi(value.c_str());
    else if (arg == "--blocks")
      s.block_bytes = std::strtoull(value.c_str(), nullptr, 10);
    else if (arg == "--seed")
      seed = std::strtoull(value.c_str(), nullptr, 10);
    else if (arg == "--syzygy")
      syzygy_dir = value;
    else if (arg == "--sizes")
      sizes = value;
    else if (arg == "--key") {
      std::istringstream in(value);
      std::string item;
      while (std::getline(in, item, ',')) own_key.push_back(std::atoi(item.c_str()));
    } else {
      std::fprintf(stderr, "unknown option %s\n", arg.c_str());
      return 2;
    }
  }
  auto cover = store::load_cover(path);
  if (!cover) {
    std::fprintf(stderr, "%s\n", cover.error().message.c_str());
    return 1;
  }
  s.name = cover->balance.name();
  s.inputs = cover->inputs;
  s.pieces = (s.inputs - 1) / kSquareBits;
  s.cubes = cover->cubes;
  s.rule_draws = cover->rule_draws.size();
  for (int i : own_key)
    if (i < 0 || i >= s.inputs || int(own_key.size()) > kMaxKey) {
      std::fprintf(stderr, "--key: inputs below %d, at most %d of them\n", s.inputs, kMaxKey);
      return 2;
    }
  {
    unsigned outputs = 0;
    for (CubeWord c : s.cubes) outputs |= 1u << int(logic::output_of(c));
    s.output_count = std::popcount(outputs);
  }
  // The rule's draws as the file holds them: what follows the payload, less its 24-byte head.
  {
    std::ifstream in(path, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    s.file_bytes = bytes.size();
    auto le = [&](size_t at, int n) {
      uint64_t v = 0;
      for (int i = n - 1; i >= 0; --i) v = v << 8 | bytes[at + size_t(i)];
      return v;
    };
    const size_t name_at = 37, passes_at = name_at + bytes[36];
    const size_t payload_at = passes_at + 2 + le(passes_at, 2) + 8;
    s.rule_bytes_file = bytes.size() - payload_at - le(20, 8);
  }
  s.syzygy = syzygy_size(s.name, syzygy_dir, sizes);

  // Representatives of random legal placements: the squares each slot takes, and the probes; a
  // second draw of as many trains the scan order (the cubes holding most of them first).
  const Encoding enc(cover->balance);
  const CoverCanon canon(enc, cover->canon);
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> training;
  for (uint64_t n = 0; n < 2 * samples;) {
    Placement p;
    p.stm = Color(rng() & 1);
    for (int i = 0; i < s.pieces; ++i) p.sq[size_t(i)] = Square(rng() & 63);
    if (!enc.is_legal(p)) continue;
    const Placement r = canon.canonical(p).placement;
    s.stms |= 1u << r.stm;
    for (int i = 0; i < s.pieces; ++i) s.squares[size_t(i)] |= uint64_t{1} << r.sq[size_t(i)];
    (n < samples ? s.samples : training).push_back(enc.encode(r));
    ++n;
  }
  {  // The scan order: greedily, the cube holding the most training probes no cube before it holds
     // (found through regions of the greedy choice's first 13 inputs), then the unused ones.
    const std::vector<int> key = greedy_inputs(s, std::min(13, s.inputs));
    std::vector<std::vector<uint32_t>> regions(size_t(1) << key.size());
    for (uint32_t i = 0; i < s.cubes.size(); ++i)
      for_each_region(s.cubes[i], key, [&](uint32_t r) { regions[r].push_back(i); });
    std::vector<std::vector<uint32_t>> holds(s.cubes.size());  // per cube: the training probes it holds
    for (uint32_t t = 0; t < training.size(); ++t) {
      const CubeWord m = logic::minterm(training[t], s.inputs);
      for (uint32_t i : regions[region_of(training[t], s.inputs, key)])
        if (logic::contains(s.cubes[i], m)) holds[i].push_back(t);
    }
    std::vector<uint8_t> covered(training.size(), 0);
    std::priority_queue<std::pair<size_t, uint32_t>> gains;  // lazy: a gain may be stale (too high)
    for (uint32_t i = 0; i < s.cubes.size(); ++i) gains.push({holds[i].size(), i});
    s.rank.assign(s.cubes.size(), UINT32_MAX);
    uint32_t next = 0;
    while (!gains.empty()) {
      auto [gain, i] = gains.top();
      gains.pop();
      size_t fresh = 0;
      for (uint32_t t : holds[i]) fresh += !covered[t];
      if (fresh < gain && !gains.empty() && fresh < gains.top().first) {
        gains.push({fresh, i});
        continue;
      }
      for (uint32_t t : holds[i]) covered[t] = 1;
      s.rank[i] = next++;
    }
  }
  std::printf("%s: %zu cubes, %d inputs, %d outputs stored, implied output %s; file %llu B; Syzygy WDL %llu B\n",
              s.name.c_str(), s.cubes.size(), s.inputs, s.output_count, std::string(name_of(cover->implied)).c_str(),
              (unsigned long long)s.file_bytes, (unsigned long long)s.syzygy);
  std::printf("slots:");
  for (int i = 0; i < s.pieces; ++i)
    std::printf(" s%d=%c (%d squares)", i, piece_char(enc.piece(i)), std::popcount(s.squares[size_t(i)]));
  std::printf("\nrule's draws: %llu; %llu B in the file (LZMA), %.0f B as Elias-Fano, %llu B as 32-bit indices\n\n",
              (unsigned long long)s.rule_draws, (unsigned long long)s.rule_bytes_file,
              elias_fano_bits(double(s.rule_draws), std::ldexp(1.0, s.inputs)) / 8,
              (unsigned long long)(4 * s.rule_draws));

  std::vector<Row> rows;
  rows.push_back(study_key(s, enc, "flat", {}));  // one list, no directory
  if (!own_key.empty()) {
    rows.push_back(study_key(s, enc, "own key", own_key));
  } else {
    // Side to move and the two kings (the Black king is the first slot of Black's pieces).
    int black_king = 0;
    for (int i = 1; i < s.pieces; ++i)
      if (enc.piece(i) == make_piece(Black, King)) black_king = i;
    rows.push_back(study_key(s, enc, "kings", piece_inputs({0, black_king})));
    // The two pieces whose inputs the cubes fix most often.
    std::vector<std::pair<double, int>> fixed_by_slot;
    for (int slot = 0; slot < s.pieces; ++slot) {
      double n = 0;
      for (CubeWord c : s.cubes)
        for (int b = 0; b < kSquareBits; ++b) n += code_of(c, square_input(slot) + b) != 3;
      fixed_by_slot.push_back({n, slot});
    }
    std::sort(fixed_by_slot.rbegin(), fixed_by_slot.rend());
    const int a = std::min(fixed_by_slot[0].second, fixed_by_slot[1].second);
    const int b = std::max(fixed_by_slot[0].second, fixed_by_slot[1].second);
    rows.push_back(study_key(s, enc, "most fixed", piece_inputs({a, b})));
    const std::vector<int> greedy = greedy_inputs(s, std::min<size_t>(16, size_t(s.inputs)));
    for (size_t count : {7, 10, 13, 16})
      if (count <= greedy.size())
        rows.push_back(study_key(s, enc, "greedy " + std::to_string(count),
                                 std::vector<int>(greedy.begin(), greedy.begin() + long(count))));
  }

  print_table(s, rows);
  if (!own_key.empty()) return 0;

  // Every greedy prefix, and prefixes whose last inputs group the cubes rather than copy them.
  std::printf("\ngreedy prefixes, copied:\n\n");
  const std::vector<int> greedy = greedy_inputs(s, std::min<size_t>(16, size_t(s.inputs)));
  rows.clear();
  for (size_t count = 1; count <= greedy.size(); ++count)
    rows.push_back(study_key(s, enc, "greedy " + std::to_string(count),
                             std::vector<int>(greedy.begin(), greedy.begin() + long(count)), {}, false));
  print_table(s, rows);
  std::printf("\ngreedy prefixes, the last inputs grouped (ternary):\n\n");
  rows.clear();
  for (size_t copied : {1, 2, 3, 4, 5, 7})
    for (size_t grouped : {2, 4, 6, 8}) {
      if (copied + grouped > greedy.size()) continue;
      const auto from = greedy.begin() + long(copied);
      rows.push_back(study_key(s, enc, "greedy " + std::to_string(copied) + " + " + std::to_string(grouped),
                               std::vector<int>(greedy.begin(), from), std::vector<int>(from, from + long(grouped)),
                               false));
    }
  print_table(s, rows);
}
