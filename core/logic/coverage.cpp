// SPDX-License-Identifier: GPL-3.0-or-later
#include "logic/coverage.hpp"

#include <bit>

#include "logic/bit_tree.hpp"
#include "logic/passes.hpp"

namespace egtmin::logic {

namespace {
// The place of each non-empty word of the ON-set among them (its counters'), and their number.
uint32_t number_words(const BitTree& on, std::vector<uint32_t>& slot) {
  const auto& words = on.words();
  slot.assign(words.size(), 0);
  uint32_t next = 0;
  for (size_t w = 0; w < words.size(); ++w)
    if (words[w]) slot[w] = next++;
  return next;
}

// The supercube of c's care minterms that `once` (a word's minterms held once) keeps.
template <class Once>
CubeWord supercube_of(const BitTree& on, int n, CubeWord c, Once&& once) {
  CubeWord s = 0;
  for_each_word_in(on, c, [&](uint64_t word, uint64_t bits) {
    uint64_t u = once(word, bits);
    if (!u) return;
    // The low 6 index bits vary over u's set positions; the rest come from the word number.
    CubeWord m = minterm_fast(word << 6, n) & kInputMask;
    for (int b = 0; b < 6 && b < n; ++b) {
      int input = n - 1 - b;
      CubeWord pair = ((u & kValueBit[b][0]) ? 2u : 0u) | ((u & kValueBit[b][1]) ? 1u : 0u);
      m = (m & ~pair_mask(input)) | (pair << pair_shift(input));
    }
    s |= m;
  });
  return s;
}
}  // namespace

Coverage::Coverage(const CareFunction& f, Output o) : on_(&f.on(o)), n_(f.inputs()) {
  planes_.assign(uint64_t(number_words(*on_, slot_)) * kPlanes, 0);
}

namespace {
// Saturated ("many") minterms among bits: only those with the top plane set can be.
inline uint64_t saturated(const uint64_t* p, int planes, uint64_t bits) {
  uint64_t sat = p[planes - 1] & bits;
  for (int i = 0; i < planes - 1 && sat; ++i) sat &= p[i];
  return sat;
}
}  // namespace

void Coverage::add(CubeWord c) {
  for_each_word_in(*on_, c, [&](uint64_t word, uint64_t bits) {
    uint64_t* p = planes(word);
    uint64_t carry = bits;
    for (int i = 0; i < kPlanes && carry; ++i) {
      uint64_t x = p[i];
      p[i] = x ^ carry;
      carry &= x;
    }
    // A carry out of the top plane wrapped a count to zero (a count below "many", or "many"
    // itself): pin it at "many". Saturated counts thus never move.
    if (carry)
      for (int i = 0; i < kPlanes; ++i) p[i] |= carry;
  });
}

void Coverage::remove(CubeWord c) {
  for_each_word_in(*on_, c, [&](uint64_t word, uint64_t bits) {
    uint64_t* p = planes(word);
    uint64_t borrow = bits & ~saturated(p, kPlanes, bits);  // "many" never moves
    for (int i = 0; i < kPlanes && borrow; ++i) {
      uint64_t x = p[i];
      p[i] = x ^ borrow;
      borrow &= ~x;
    }
  });
}

uint64_t Coverage::exactly_one(uint64_t word, uint64_t bits) const {
  const uint64_t* p = planes(word);
  uint64_t high = 0;
  for (int i = 1; i < kPlanes; ++i) high |= p[i];
  return (bits & p[0] & ~high) | saturated(p, kPlanes, bits);
}

CubeWord Coverage::unique_supercube(CubeWord c) const {
  return supercube_of(*on_, n_, c, [&](uint64_t word, uint64_t bits) { return exactly_one(word, bits); });
}

uint64_t Coverage::size(CubeWord c) const {
  uint64_t s = 0;
  for_each_word_in(*on_, c, [&](uint64_t, uint64_t bits) { s += uint64_t(std::popcount(bits)); });
  return s;
}

OnceCoverage::OnceCoverage(const CareFunction& f, Output o) : on_(&f.on(o)), n_(f.inputs()) {
  planes_.assign(2 * uint64_t(number_words(*on_, slot_)), 0);
}

void OnceCoverage::add(CubeWord c) {
  for_each_word_in(*on_, c, [&](uint64_t word, uint64_t bits) {
    uint64_t* p = planes(word);
    p[1] |= p[0] & bits;
    p[0] |= bits;
  });
}

CubeWord OnceCoverage::unique_supercube(CubeWord c) const {
  return supercube_of(*on_, n_, c, [&](uint64_t word, uint64_t bits) { return exactly_one(word, bits); });
}

}  // namespace egtmin::logic
