// SPDX-License-Identifier: GPL-3.0-or-later
// A region's exception list (RegionIndex): the placements of the free pieces a region's kept cubes
// leave to answer, listed by their place among the region's placements, each with its value.
//
// Why: a region's greedy cover picks first the cubes that hold many of its positions, and last
// cubes that hold one or two: a region cube is 32 bits, while a place among 4,096 costs about
// seven bits in an Elias-Fano list. Where values follow diagonals and colours (the bishops'
// balances), or a region holds scattered positions, most of its cubes are of that last kind. A
// region keeps the cubes of its greedy order up to the cut that takes the fewest words, and lists
// the positions they leave (docs/measured.md): 0.67x to 0.83x of the five-piece regions' cube bytes
// where it was measured. A region whose list would not save a word keeps all its cubes and has no
// list; its probe is as before.
//
// A region with a list starts with a header word that no probe matches (its first field, the
// first free piece's rows or subcube, is empty, which no cube has; the field's place depends on
// the index: region_cube::header_field), then come the kept cubes, then the list's stream:
//   header   the output field: a, the value of most listed places (nonzero, which tells a header
//            from the zeros that pad a region); bits 0-7: the kept cubes (at most 255); bits 8-20:
//            k, the places listed (1 to u); bit 21: each place has a value bit (0: a, 1: the
//            output that is neither a nor the region's fallback), else every place has value a
//   stream   bit i in word i / 32, bit i % 32:
//     the upper bits: for the i-th place x (ascending), a one at (x >> L) + i, zeros elsewhere,
//                     k + (u >> L) bits (L = low_bits(k, u));
//     the lower bits: each place's low L bits, in order;
//     the value bits: with bit 21, one a place, in order.
// A place's value is never the region's fallback, so two values at most need listing.
// A look-up reads only the words it is given (a damaged list answers "not listed").
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

namespace egtmin::probe::region_list {

// The places of a region: 64 with one free piece, 4,096 with two (first piece's square times 64
// plus the second's).
constexpr int place_bits(int nfree) { return 6 * nfree; }

// Elias-Fano's low bits for k places among 2^ubits: about log2(u / k).
constexpr int low_bits(uint32_t k, int ubits) { return std::max(0, ubits - int(std::bit_width(k - 1))); }

// Bits of the stream for k places with `value_bits` (0 or 1) bits of value each.
constexpr uint64_t stream_bits(uint32_t k, int ubits, int value_bits) {
  const int low = low_bits(k, ubits);
  return uint64_t(k) + (uint64_t{1} << (ubits - low)) + uint64_t(k) * uint64_t(low + value_bits);
}
constexpr uint32_t stream_words(uint32_t k, int ubits, int value_bits) {
  return uint32_t((stream_bits(k, ubits, value_bits) + 31) / 32);
}

inline constexpr uint32_t kMaxKeptCubes = 255;
inline constexpr int kCountShift = 8, kValueBitShift = 21;
inline constexpr uint32_t kCountMask = (1u << 13) - 1;
inline constexpr int kOutputShift = 30;  // a region word's output field (region_cube), a in the header

// The header's bits below the first field, and its output field (a).
constexpr uint32_t header(uint32_t kept_cubes, uint32_t k, bool value_bit, uint32_t a) {
  return a << kOutputShift | uint32_t(value_bit) << kValueBitShift | k << kCountShift | kept_cubes;
}
constexpr uint32_t kept_cubes(uint32_t header) { return header & kMaxKeptCubes; }

// A place and its value (an output number, 1-3, never the region's fallback).
struct Entry {
  uint32_t place;
  uint8_t value;
};

// The header and stream for entries in ascending place order (1 to 2^ubits of them, distinct
// places, of at most two values), after `kept` cubes (at most kMaxKeptCubes): the header first.
std::vector<uint32_t> encode(std::span<const Entry> entries, int ubits, uint32_t kept);

// The value listed for `place` (an output number 1-3), 0 when it is not listed or the `words` of
// the stream do not hold a whole list. `head`: the header; `fallback`: the region's.
[[gnu::always_inline]] inline uint32_t find(uint32_t head, const uint32_t* s, uint32_t words, uint32_t place, int ubits,
                                            uint32_t fallback) {
  const uint32_t k = head >> kCountShift & kCountMask;
  const int value_bits = int(head >> kValueBitShift & 1);
  if (k == 0 || k > (1u << ubits) || uint64_t(words) * 32 < stream_bits(k, ubits, value_bits)) return 0;
  auto bit = [&](uint64_t i) { return s[i >> 5] >> (i & 31) & 1; };
  auto bits = [&](uint64_t i, int n) {  // n <= 32: at most two words
    uint64_t v = s[i >> 5] >> (i & 31);
    if ((i & 31) + uint64_t(n) > 32) v |= uint64_t(s[(i >> 5) + 1]) << (32 - (i & 31));
    return uint32_t(v & ((uint64_t{1} << n) - 1));
  };
  const int low = low_bits(k, ubits);
  const uint32_t high = place >> low, want = place & ((1u << low) - 1);
  const uint64_t upper = uint64_t(k) + (uint64_t{1} << (ubits - low));
  // The bucket of `high` starts after the high-th zero of the upper bits: whole words first.
  uint64_t pos = 0;
  uint32_t zeros = 0;
  while (zeros < high) {
    if (pos >= upper) return 0;
    const uint32_t avail = uint32_t(std::min<uint64_t>(32 - (pos & 31), upper - pos));
    const uint32_t chunk = ~(s[pos >> 5] >> (pos & 31)) & (avail == 32 ? ~0u : (1u << avail) - 1);
    const uint32_t z = uint32_t(std::popcount(chunk));
    if (zeros + z < high) {
      zeros += z, pos += avail;
      continue;
    }
    uint32_t c = chunk;  // the (high - zeros)-th zero of this chunk ends the bucket before ours
    for (uint32_t n = high - zeros; n > 1; --n) c &= c - 1;
    pos += uint64_t(std::countr_zero(c)) + 1;
    zeros = high;
  }
  for (; pos < upper && bit(pos); ++pos) {
    const uint64_t i = pos - high;  // the place's number: the ones before it
    const uint32_t got = low ? bits(upper + i * uint64_t(low), low) : 0;
    if (got < want) continue;
    if (got > want) return 0;
    const uint32_t a = head >> kOutputShift;
    if (!value_bits || !bit(upper + uint64_t(k) * uint64_t(low) + i)) return a;
    // The output that is neither a nor the fallback (none from a damaged header or directory).
    const uint32_t other = 6 - a - fallback;
    return a != fallback && fallback != 0 && other <= 3 ? other : 0;
  }
  return 0;
}

}  // namespace egtmin::probe::region_list
