// SPDX-License-Identifier: GPL-3.0-or-later
// A set of minterms over 2^n as a bitmap with a 64-ary "subtree is non-empty" summary above it,
// so that "does this cube contain a member?" and "list the members inside this cube" cost a few
// word operations per non-empty 64-block instead of one test per minterm. This is what keeps
// expand's blocking test cheap even for cubes that span millions of don't-care positions.
//
// Level 0 is the bitmap itself: word w holds the minterms w*64 .. w*64+63, so its bit positions
// are the index's low 6 bits. Level g+1 has one bit per word of level g, set when that word is
// non-zero. The top level fits in one word. A cube restricted to the 6 index bits of a level is
// a 64-bit mask of allowed values; a query ANDs the level word with that mask and descends only
// into set bits.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "logic/cube.hpp"

namespace egtmin::logic {

// kValueBit[b][v]: the 64-bit set of 6-bit values whose bit b equals v; turns one input of a cube
// into the set of the 64 word positions it admits.
inline constexpr auto kValueBit = [] {
  std::array<std::array<uint64_t, 2>, 6> t{};
  for (int b = 0; b < 6; ++b)
    for (int x = 0; x < 64; ++x) t[b][(x >> b) & 1] |= uint64_t{1} << x;
  return t;
}();

class BitTree {
 public:
  BitTree() = default;
  explicit BitTree(int n);

  int inputs() const { return n_; }

  // Bitmap access (level 0). set() is not thread-safe within one 64-bit word.
  void set(uint64_t index) { levels_[0][index >> 6] |= uint64_t{1} << (index & 63); }
  bool test(uint64_t index) const { return (levels_[0][index >> 6] >> (index & 63)) & 1; }
  std::vector<uint64_t>& words() { return levels_[0]; }
  const std::vector<uint64_t>& words() const { return levels_[0]; }
  // Call after changing the bitmap: rebuilds the summary levels.
  void finish();
  uint64_t count() const;

  const std::vector<std::vector<uint64_t>>& levels() const { return levels_; }

 private:
  int n_ = 0;
  std::vector<std::vector<uint64_t>> levels_;
};

// The per-level 64-bit masks of a cube: masks[g] = values of index bits 6g..6g+5 the cube allows.
struct CubeMasks {
  uint64_t m[8];
};
CubeMasks cube_masks(CubeWord c, int n);

// Does cube c contain a member of the union of trees[0..count)? (All of the same width.)
bool intersects_any(const BitTree* const* trees, int count, CubeWord c);
inline bool intersects(const BitTree& t, CubeWord c) {
  const BitTree* p = &t;
  return intersects_any(&p, 1, c);
}

// Calls fn(index) for every member of t inside cube c, in ascending index order.
template <class Fn>
void for_each_in(const BitTree& t, CubeWord c, Fn&& fn);

// Calls fn(word, bits) for each level-0 word holding members inside cube c: bits are those
// members (bit b = index word * 64 + b). Lets counters work 64 minterms at a time.
template <class Fn>
void for_each_word_in(const BitTree& t, CubeWord c, Fn&& fn);

// Does pred(word, bits) hold for some level-0 word holding members inside cube c (bits as in
// for_each_word_in)? Stops at the first.
template <class Pred>
bool any_word_in(const BitTree& t, CubeWord c, Pred&& pred);

// Implementation of for_each_in, for_each_word_in and any_word_in.
namespace detail {
template <class Fn>
void visit(const BitTree& t, const CubeMasks& m, int g, uint64_t node, Fn& fn) {
  uint64_t w = t.levels()[g][node] & m.m[g];
  while (w) {
    int v = std::countr_zero(w);
    w &= w - 1;
    uint64_t child = (node << 6) | uint64_t(v);
    if (g == 0)
      fn(child);
    else
      visit(t, m, g - 1, child, fn);
  }
}
template <class Fn>
void visit_words(const BitTree& t, const CubeMasks& m, int g, uint64_t node, Fn& fn) {
  uint64_t w = t.levels()[g][node] & m.m[g];
  if (g == 0) {
    if (w) fn(node, w);
    return;
  }
  while (w) {
    int v = std::countr_zero(w);
    w &= w - 1;
    visit_words(t, m, g - 1, (node << 6) | uint64_t(v), fn);
  }
}
template <class Pred>
bool visit_words_until(const BitTree& t, const CubeMasks& m, int g, uint64_t node, Pred& pred) {
  uint64_t w = t.levels()[g][node] & m.m[g];
  if (g == 0) return w && pred(node, w);
  while (w) {
    int v = std::countr_zero(w);
    w &= w - 1;
    if (visit_words_until(t, m, g - 1, (node << 6) | uint64_t(v), pred)) return true;
  }
  return false;
}
}  // namespace detail

template <class Pred>
bool any_word_in(const BitTree& t, CubeWord c, Pred&& pred) {
  CubeMasks m = cube_masks(c, t.inputs());
  return detail::visit_words_until(t, m, int(t.levels().size()) - 1, 0, pred);
}

template <class Fn>
void for_each_word_in(const BitTree& t, CubeWord c, Fn&& fn) {
  CubeMasks m = cube_masks(c, t.inputs());
  detail::visit_words(t, m, int(t.levels().size()) - 1, 0, fn);
}

template <class Fn>
void for_each_in(const BitTree& t, CubeWord c, Fn&& fn) {
  CubeMasks m = cube_masks(c, t.inputs());
  detail::visit(t, m, int(t.levels().size()) - 1, 0, fn);
}

}  // namespace egtmin::logic
