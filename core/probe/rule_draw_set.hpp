// SPDX-License-Identifier: GPL-3.0-or-later
// A cover's 50-move-rule draws as a probe reads them: the ascending representative indices of its
// cursed wins and blessed losses, Rice-coded in blocks, looked up in place.
//
// Why not the cover file's sorted 32-bit indices: a probe layout holds what a probe reads, and a
// few balances have millions of these draws (KBBvKN's 11,540,371 took 46 MB of a 47 MB layout, its
// cubes and regions 1.2 MB). The indices cluster, so the gaps between them are small: Rice codes
// with a parameter chosen per block of 64 take 4.2 bits an index there, and a look-up is a binary
// search over the blocks' first indices and the decoding of at most 63 gaps. A probe asks only
// when its cube says win or loss, in a balance that has such draws.
//
// The words (64-bit, little-endian; in a layout, in place in the mapping):
//   [0]            n, the number of indices
//   [1]            S, the stream's words
//   [2, 2+B)       each block's head, B = ceil(n / 64): its first index (bits 0-31) and the bit
//                  offset in the stream of its gaps' code (bits 32-63)
//   [2+B, 2+B+S)   the stream, read from bit 0 of its first word up: each block's code is its
//                  Rice parameter k (5 bits), then for each later index of the block the gap
//                  g = index - previous - 1 as g >> k zero bits, a one bit, and g's low k bits.
// A look-up never reads outside the words, whatever the stream holds (the layout's fuzz target).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "util/result.hpp"

namespace egtmin::probe {

class RuleDrawSet {
 public:
  static constexpr uint64_t kBlock = 64;  // indices a block: at most 63 gaps decoded a look-up
  static constexpr int kParameterBits = 5;

  RuleDrawSet() = default;
  // From ascending, distinct indices (a cover file's list of the rule's draws).
  static Result<RuleDrawSet> build(std::span<const uint32_t> ascending);
  // The words of another set, where they lie (a mapped layout); they must outlive this set. An
  // error names what does not add up.
  static Result<RuleDrawSet> attach(std::span<const uint64_t> words);

  uint64_t size() const { return words().empty() ? 0 : words()[0]; }
  bool empty() const { return size() == 0; }
  bool contains(uint64_t index) const { return !empty() && contains(words().data(), index); }
  // What a layout stores (empty for an empty set).
  std::span<const uint64_t> words() const { return owned_.empty() ? attached_ : std::span<const uint64_t>(owned_); }
  // Bytes this set holds itself (none when attached: they are the mapping's).
  size_t memory_bytes() const { return owned_.capacity() * sizeof(uint64_t); }
  // The hot path's handle: null for an empty set.
  const uint64_t* hot() const { return empty() ? nullptr : words().data(); }

  // Is `index` in the set whose words start at `w` (hot(), non-null)?
  static bool contains(const uint64_t* w, uint64_t index) { return rank(w, index) != kAbsent; }
  // Where `index` lies among the set's members in ascending order (0 for the first), kAbsent when
  // it is not one: the look-up decodes the gaps before it anyway.
  static constexpr uint64_t kAbsent = UINT64_MAX;
  static uint64_t rank(const uint64_t* w, uint64_t index);

 private:
  std::vector<uint64_t> owned_;         // built here
  std::span<const uint64_t> attached_;  // or someone else's (a mapping)
};

namespace rule_draw_detail {

// Reads the stream bit by bit from `pos`, never past `end` bits.
struct BitReader {
  const uint64_t* stream;
  uint64_t pos;
  uint64_t end;
  bool ok = true;

  uint64_t bits(int n) {  // n <= 32
    if (pos + uint64_t(n) > end) {
      ok = false;
      return 0;
    }
    const uint64_t word = pos >> 6, off = pos & 63;
    uint64_t v = stream[word] >> off;
    if (off + uint64_t(n) > 64) v |= stream[word + 1] << (64 - off);
    pos += uint64_t(n);
    return n == 0 ? 0 : v & ((uint64_t{1} << n) - 1);
  }
  // Zero bits up to the next one bit, which is consumed.
  uint64_t unary() {
    uint64_t zeros = 0;
    while (pos < end) {
      const uint64_t off = pos & 63;
      const uint64_t w = stream[pos >> 6] >> off;
      if (w != 0) {
        const uint64_t tz = uint64_t(std::countr_zero(w));
        if (pos + tz >= end) break;
        pos += tz + 1;
        return zeros + tz;
      }
      zeros += 64 - off;
      pos += 64 - off;
    }
    ok = false;
    return 0;
  }
};

}  // namespace rule_draw_detail

inline uint64_t RuleDrawSet::rank(const uint64_t* w, uint64_t index) {
  const uint64_t n = w[0], stream_words = w[1];
  const uint64_t blocks = (n + kBlock - 1) / kBlock;
  const uint64_t* heads = w + 2;
  if (n == 0 || index < uint32_t(heads[0])) return kAbsent;
  // The last block whose first index is at most `index`.
  uint64_t lo = 0, hi = blocks;
  while (hi - lo > 1) {
    const uint64_t mid = (lo + hi) / 2;
    if (uint32_t(heads[mid]) <= index)
      lo = mid;
    else
      hi = mid;
  }
  uint64_t value = uint32_t(heads[lo]);
  if (value == index) return lo * kBlock;
  rule_draw_detail::BitReader r{heads + blocks, heads[lo] >> 32, stream_words * 64};
  const int k = int(r.bits(kParameterBits));
  const uint64_t count = std::min(kBlock, n - lo * kBlock);
  for (uint64_t i = 1; i < count; ++i) {
    const uint64_t q = r.unary();
    const uint64_t low = r.bits(k);
    if (!r.ok || q >= (uint64_t{1} << 32)) return kAbsent;
    value += 1 + (q << k | low);
    if (value >= index) return value == index ? lo * kBlock + i : kAbsent;
  }
  return kAbsent;
}

}  // namespace egtmin::probe
