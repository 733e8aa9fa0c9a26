// SPDX-License-Identifier: GPL-3.0-or-later
#include "logic/passes.hpp"

#include <algorithm>
#include <array>
#include <numeric>

#include "logic/coverage.hpp"

namespace egtmin::logic {

CubeWord minterm_fast(uint64_t index, int n, Output o) {
  // kGroup[v]: the 6 pairs of a 6-bit value, most significant bit first, packed in 12 bits.
  static constexpr auto kGroup = [] {
    std::array<uint16_t, 64> t{};
    for (int v = 0; v < 64; ++v) {
      uint16_t w = 0;
      for (int b = 5; b >= 0; --b) w = uint16_t((w << 2) | (((v >> b) & 1) ? 1u : 2u));
      t[v] = w;
    }
    return t;
  }();
  // Build the low n pairs, then shift so input 0 lands at bits 61..60.
  CubeWord pairs = 0;
  int done = 0;
  while (done + 6 <= n) {
    pairs |= CubeWord(kGroup[(index >> done) & 63]) << (2 * done);
    done += 6;
  }
  for (; done < n; ++done) pairs |= CubeWord(((index >> done) & 1) ? 1u : 2u) << (2 * done);
  int unused = kMaxInputs - n;  // inputs past the width stay 11
  CubeWord c = (pairs << (2 * unused)) | ((CubeWord{1} << (2 * unused)) - 1);
  return with_output(c & kInputMask, o);
}

bool merge_on(Cover& f, int input, MergeBuffers& buffers) {
  // In value order the cubes that agree above the input (a block) lie together, and within a
  // block its values at the input come in three runs, 01, 10 and 11, each in the order of the bits
  // below the input. So one walk over the three runs at once meets each group of cubes equal but
  // at the input, and the block is written back in value order: the 01 cubes and the 10 cubes that
  // nothing merged or swallowed, then the 11 cubes, the merged ones among them. Linear, where a
  // sort by the cubes without the input took the pass's time.
  const int sh = pair_shift(input);
  const CubeWord below = (CubeWord{1} << sh) - 1;
  Cover& zeros = buffers.zeros;  // the block's 10 and 11 cubes, written back after its 01 cubes
  Cover& frees = buffers.frees;
  bool merged = false;
  size_t w = 0;
  for (size_t b = 0; b < f.size();) {
    const CubeWord above = f[b] >> (sh + 2);
    size_t e = b + 1;
    while (e < f.size() && (f[e] >> (sh + 2)) == above) ++e;
    if (e == b + 1) {  // a block of one cube: nothing to merge
      f[w++] = f[b];
      b = e;
      continue;
    }
    size_t z = b;  // the runs: [b, z) 01, [z, x) 10, [x, e) 11 (no cube has 00)
    while (z < e && ((f[z] >> sh) & 3) == 1) ++z;
    size_t x = z;
    while (x < e && ((f[x] >> sh) & 3) == 2) ++x;
    zeros.clear();
    frees.clear();
    size_t i = b, j = z, k = x;
    while (i < z || j < x || k < e) {
      CubeWord low = ~CubeWord{0};
      if (i < z) low = std::min(low, f[i] & below);
      if (j < x) low = std::min(low, f[j] & below);
      if (k < e) low = std::min(low, f[k] & below);
      // Each run's cubes with these low bits (more than one only when copies came in).
      bool one = false, zero = false, free = false;
      for (; i < z && (f[i] & below) == low; ++i) one = true;
      for (; j < x && (f[j] & below) == low; ++j) zero = true;
      for (; k < e && (f[k] & below) == low; ++k) free = true;
      if (free || (one && zero)) {
        merged |= !free;
        frees.push_back(above << (sh + 2) | CubeWord{3} << sh | low);
      } else if (one) {
        // In place: the walk has read past it, and it is before the 10 and 11 runs.
        f[w++] = above << (sh + 2) | CubeWord{1} << sh | low;
      } else {
        zeros.push_back(above << (sh + 2) | CubeWord{2} << sh | low);
      }
    }
    // The block's cubes written back no further than where it started: later blocks are intact.
    for (const Cover* run : {&zeros, &frees}) {
      std::copy(run->begin(), run->end(), f.begin() + long(w));
      w += run->size();
    }
    b = e;
  }
  f.resize(w);
  return merged;
}

void to_key_order(Cover& f, int input) {
  const CubeWord pm = pair_mask(input);
  std::sort(f.begin(), f.end(), [pm](CubeWord a, CubeWord b) { return (a | pm) < (b | pm); });
}

std::vector<int> literal_inputs(const Cover& f) {
  CubeWord active = 0;  // pairs that are not 11 in some cube
  for (CubeWord c : f) active |= ~c & kInputMask;
  active = (active | (active >> 1)) & kLowBits;
  std::vector<int> inputs;
  for (int i = 0; i < kMaxInputs; ++i)
    if (active & (CubeWord{1} << pair_shift(i))) inputs.push_back(i);
  return inputs;
}

void compact(Cover& f, const Progress& progress) {
  if (f.size() < 2) return;
  const std::vector<int> inputs = literal_inputs(f);
  if (inputs.empty()) return;
  std::sort(f.begin(), f.end());
  MergeBuffers buffers;
  bool merged = true;
  for (int round = 1; merged; ++round) {
    merged = false;
    for (size_t v = 0; v < inputs.size(); ++v) {
      if (progress.cancelled()) return;
      progress.report(Stage::Pass, double(v) / double(inputs.size()), "compact, round " + std::to_string(round));
      merged |= merge_on(f, inputs[v], buffers);
    }
  }
  to_key_order(f, inputs.back());
}

namespace {
// Adds the fixed cubes and the cover to the coverage counts; returns the cover's cubes with the
// number of care minterms each holds, the order irredundant and reduce work in.
std::vector<std::pair<uint64_t, CubeWord>> count_and_size(Coverage& cov, const Cover& cover, const Cover& fixed) {
  for (CubeWord c : fixed) cov.add(c);
  std::vector<std::pair<uint64_t, CubeWord>> order;
  order.reserve(cover.size());
  for (CubeWord c : cover) {
    cov.add(c);
    order.push_back({cov.size(c), c});
  }
  return order;
}
}  // namespace

void reduce(Cover& cover, const Cover& fixed, const CareFunction& f, Output o) {
  Coverage cov(f, o);
  auto order = count_and_size(cov, cover, fixed);
  // Largest first, as ESPRESSO: big cubes have the most room to give up.
  std::sort(order.begin(), order.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  Cover kept;
  for (auto [size, c] : order) {
    CubeWord s = cov.unique_supercube(c);
    cov.remove(c);
    if (!s) continue;  // everything it covers is covered elsewhere
    CubeWord reduced = with_output(s, o);
    cov.add(reduced);
    kept.push_back(reduced);
  }
  cover = std::move(kept);
}

void essential(Cover& cover, Cover& fixed, const CareFunction& f, Output o) {
  Coverage cov(f, o);
  for (CubeWord c : fixed) cov.add(c);
  for (CubeWord c : cover) cov.add(c);
  Cover rest;
  for (CubeWord c : cover) {
    // Relatively essential: some care minterm has no other cube.
    bool alone = false;
    for_each_word_in(cov.on(), c, [&](uint64_t word, uint64_t bits) {
      if (!alone && cov.exactly_one(word, bits)) alone = true;
    });
    (alone ? fixed : rest).push_back(c);
  }
  cover = std::move(rest);
}

void espresso(Cover& cover, const Cover& fixed, const CareFunction& f, Output o, const Progress& progress,
              Effort effort, FunctionScope scope) {
  auto cost = [](const Cover& c) { return std::pair<size_t, uint64_t>(c.size(), literal_count(c)); };
  expand(cover, f, o, progress, effort, scope);
  irredundant(cover, fixed, f, o, effort, scope);
  Cover best = cover;
  for (int round = 0; round < 64 && !progress.cancelled(); ++round) {
    reduce(cover, fixed, f, o);
    expand(cover, f, o, progress, effort, scope);
    irredundant(cover, fixed, f, o, effort, scope);
    if (cost(cover) < cost(best))
      best = cover;
    else
      break;
  }
  cover = std::move(best);
}

}  // namespace egtmin::logic
