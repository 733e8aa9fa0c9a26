// SPDX-License-Identifier: GPL-3.0-or-later
#include "logic/bitmap_compact.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <string>

#include "logic/bit_tree.hpp"
#include "logic/passes.hpp"

namespace egtmin::logic {

namespace {

// kSubsets[F]: the values s with s a subset of F, as a 64-bit set (bit s). A cube of the word
// with free inputs F and base value v (v & F == 0) is kSubsets[F] << v.
constexpr auto kSubsets = [] {
  std::array<uint64_t, 64> t{};
  for (int f = 0; f < 64; ++f) {
    uint64_t m = 1;
    for (int b = 0; b < 6; ++b)
      if (f & (1 << b)) m |= m << (1 << b);
    t[f] = m;
  }
  return t;
}();

// kPattern[F][v]: the PCN pairs of the cube (F, v), index bit b in pair bits 2b+1..2b.
constexpr auto kPattern = [] {
  std::array<std::array<uint16_t, 64>, 64> t{};
  for (int f = 0; f < 64; ++f)
    for (int v = 0; v < 64; ++v) {
      unsigned p = 0;
      for (int b = 0; b < 6; ++b) {
        unsigned pair = (f >> b) & 1 ? 3u : ((v >> b) & 1 ? 1u : 2u);
        p |= pair << (2 * b);
      }
      t[f][v] = uint16_t(p);
    }
  return t;
}();

// Iterates merge_on over the inputs until a whole sweep merges nothing. `last_merge` is where a
// sweep may stop early: after a sweep whose last merge was at input k, the inputs after k were
// already at a fixed point, so the next sweep ends once it reaches k again without a merge.
// Whether fixed_point reports its rounds: the final, whole-cover fixed points do; the many small
// per-chunk ones do not (bitmap_compact reports its chunks itself).
enum class RoundReports { On, Off };

// Leaves f in value order and returns the input of its last step (-1: none ran, or cancelled):
// only the whole cover's order matters (to_key_order), so a chunk's is not sorted again.
int fixed_point(Cover& f, const std::vector<int>& inputs, const Progress& progress, RoundReports reports,
                MergeBuffers& buffers) {
  if (f.size() < 2 || inputs.empty()) return -1;
  std::sort(f.begin(), f.end());
  const size_t m = inputs.size();
  size_t since = 0;  // inputs processed since the last merge
  size_t step = 0;
  for (; since < m; ++step) {
    if (progress.cancelled()) return -1;
    size_t v = step % m;
    if (reports == RoundReports::On)
      progress.report(Stage::Pass, double(v) / double(m), "compact, round " + std::to_string(step / m + 1));
    if (merge_on(f, inputs[v], buffers))
      since = 1;
    else
      ++since;
    if (f.size() < 2) return -1;
  }
  return inputs[(step - 1) % m];
}

}  // namespace

int word_cubes(uint64_t set, uint64_t keep, int width, uint16_t* out) {
  if (!set) return 0;
  const uint64_t full = width >= 6 ? ~uint64_t{0} : (uint64_t{1} << (1 << width)) - 1;
  if (set == full) {  // the whole word: one cube
    if (!(keep & full)) return 0;
    out[0] = uint16_t(kPattern[(1 << width) - 1][0] & ((1u << (2 * width)) - 1));
    return 1;
  }
  uint64_t s[64] = {};
  s[0] = set;
  uint64_t live = 1;  // free-input sets F with s[F] != 0
  for (int since = 0, i = 0; since < width; i = (i + 1) % width) {
    const int bit = 1 << i;
    const int sh = 1 << i;
    const uint64_t low = kValueBit[i][0];
    bool merged = false;
    for (uint64_t l = live; l;) {
      int fr = std::countr_zero(l);
      l &= l - 1;
      if (fr & bit) continue;
      uint64_t a = s[fr];
      uint64_t x = s[fr | bit];
      uint64_t pairs = a & (a >> sh) & low;
      if (pairs & ~x) merged = true;
      x |= pairs;
      if (x) {
        s[fr | bit] = x;
        live |= uint64_t{1} << (fr | bit);
        a &= ~(x | (x << sh));
        s[fr] = a;
        if (!a) live &= ~(uint64_t{1} << fr);
      }
    }
    since = merged ? 1 : since + 1;
  }
  const unsigned pmask = (1u << (2 * width)) - 1;
  int k = 0;
  for (uint64_t l = live; l;) {
    int fr = std::countr_zero(l);
    l &= l - 1;
    for (uint64_t a = s[fr]; a; a &= a - 1) {
      int v = std::countr_zero(a);
      if ((kSubsets[fr] << v) & keep) out[k++] = uint16_t(kPattern[fr][v] & pmask);
    }
  }
  return k;
}

Cover bitmap_compact(const CareFunction& f, Output o, const BitmapCompactOptions& options, const Progress& progress) {
  const int n = f.inputs();
  const int width = std::min(n, 6);
  const auto& on = f.on(o).words();
  const uint64_t valid = width >= 6 ? ~uint64_t{0} : (uint64_t{1} << (1 << width)) - 1;
  const int low_shift = 62 - 2 * n;  // pair shift of the last input
  const CubeWord low_mask = CubeWord((1u << (2 * width)) - 1) << low_shift;
  // Chunk: the words that agree on every input above the word level and the next chunk_inputs.
  const int above = std::max(0, n - width);  // inputs above the word level
  const int k = std::clamp(options.chunk_inputs, 0, above);
  const uint64_t chunk_words = uint64_t{1} << k;
  // Chunk inputs: the word-level inputs and the k above them (the other inputs are equal).
  std::vector<int> chunk_in;
  for (int i = n - width - k; i < n; ++i) chunk_in.push_back(i);

  // Progress every 64 chunks: regular on a 5-piece function, without costing time.
  constexpr uint64_t kReportEveryChunks = 64;
  Cover out;
  Cover chunk;
  MergeBuffers buffers;
  uint16_t cubes[64];
  const uint64_t words = on.size();
  for (uint64_t c0 = 0; c0 < words; c0 += chunk_words) {
    if (progress.cancelled()) return out;
    if ((c0 / chunk_words) % kReportEveryChunks == 0)
      progress.report(Stage::Pass, double(c0) / double(words), "compact (bitmap)");
    chunk.clear();
    const uint64_t c1 = std::min(words, c0 + chunk_words);
    for (uint64_t w = c0; w < c1; ++w) {
      const uint64_t bits = on[w];
      if (!bits) continue;
      // Don't-cares: what no other output holds and o may hold (f.forbidden_word).
      const uint64_t set = options.use_dont_cares ? (bits | ~f.forbidden_word(o, w)) & valid : bits;
      const int m = word_cubes(set, bits, width, cubes);
      const CubeWord base = minterm_fast(w << 6, n, o) & ~low_mask;
      for (int j = 0; j < m; ++j) chunk.push_back(base | (CubeWord(cubes[j]) << low_shift));
    }
    if (k > 0) fixed_point(chunk, chunk_in, progress, RoundReports::Off, buffers);
    out.insert(out.end(), chunk.begin(), chunk.end());
  }
  if (const int last = fixed_point(out, literal_inputs(out), progress, RoundReports::On, buffers); last >= 0)
    to_key_order(out, last);
  return out;
}

}  // namespace egtmin::logic
