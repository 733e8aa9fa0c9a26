// SPDX-License-Identifier: GPL-3.0-or-later
// Board symmetries of a balance and the canonical representative of each class: the left-right
// mirror always (no castling), all 8 board symmetries when there are no pawns, and the order of
// identical pieces. The representative is the member with the smallest index, so the white king
// lands on files a-d (with pawns) or in the triangle a8-d8-d5 (without), and identical pieces
// stand in ascending square order. Colour swap is not a board symmetry and is handled by callers.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "table/encoding.hpp"

namespace egtmin {

// The 8 elements of the square's symmetry group: bit 2 transposes (file <-> row), then bit 0
// mirrors files and bit 1 mirrors rows. Transform 1 is the left-right mirror.
inline constexpr auto kTransforms = [] {
  std::array<std::array<Square, 64>, 8> t{};
  for (int g = 0; g < 8; ++g)
    for (int s = 0; s < 64; ++s) {
      int f = s & 7, r = s >> 3;
      if (g & 4) std::swap(f, r);
      if (g & 1) f = 7 - f;
      if (g & 2) r = 7 - r;
      t[g][s] = Square(r * 8 + f);
    }
  return t;
}();

// The compare-exchanges of adjacent slots that put each run of identical pieces in ascending
// square order (a bubble sort of each run: one for a pair, three for three). Five pieces need at
// most three; `count` says how many the encoding needs, and only the first pairs.size() are kept.
struct RunExchanges {
  static constexpr int kMax = 3;
  std::array<std::array<uint8_t, 2>, kMax> pairs{};
  int count = 0;
};
RunExchanges run_exchanges(const Encoding& enc);

// One compare-exchange on a packed index's 6-bit fields at bits sa and sb: the smaller value goes
// to sa. Sorting squares packed in a register, where sorting a byte array in memory at run-time
// positions costs mispredictions and store-forwarding stalls. Exchanging a field with itself
// changes nothing.
inline uint64_t exchange_fields(uint64_t idx, unsigned sa, unsigned sb) {
  const uint64_t fa = (idx >> sa) & kSquareMask, fb = (idx >> sb) & kSquareMask;
  const uint64_t lo = fa < fb ? fa : fb, hi = fa ^ fb ^ lo;
  return idx ^ ((fa ^ lo) << sa) ^ ((fb ^ hi) << sb);
}

class Symmetry {
 public:
  Symmetry() = default;
  explicit Symmetry(const Encoding& enc);

  const Encoding& encoding() const { return enc_; }

  // The slot of p's canonical representative: what the generator's and the self-check's inner
  // loops need for every move, computed on the packed squares alone.
  uint64_t canonical_slot(const Placement& p) const;
  Placement canonical(const Placement& p) const;  // from_slot(canonical_slot(p))
  // canonical_slot of canonical placement p (at `slot`) with piece i moved to `to` and the other
  // side to move: a move's successor, or a predecessor walked back. The generator's and the
  // self-check's inner loops ask it for every move. When the white king stays on a square that
  // only the identity takes to its orbit's minimum (every square with pawns, six of the ten
  // without), the successor's representative is p's own squares with piece i's changed and its run
  // re-sorted, computed on p's slot without repacking the squares.
  uint64_t moved_slot(const Placement& p, uint64_t slot, int i, Square to) const {
    if (i == 0 || candidates_[p.sq[0]] != 1 || exchanges_.count > RunExchanges::kMax) {
      Placement q = p;
      q.sq[size_t(i)] = to;
      q.stm = ~p.stm;
      return canonical_slot(q);
    }
    const int k = enc_.pieces();
    const unsigned king_shift = unsigned(square_shift(k, 0));
    uint64_t rest = (slot & ((uint64_t{1} << king_shift) - 1)) ^ (uint64_t(p.sq[size_t(i)] ^ to) << square_shift(k, i));
    for (int x = 0; x < exchanges_.count; ++x) {
      const auto [a, b] = exchanges_.pairs[size_t(x)];
      rest = exchange_fields(rest, unsigned(square_shift(k, a)), unsigned(square_shift(k, b)));
    }
    return ((uint64_t(~p.stm) * domain_kings_ + king_slot_[p.sq[0]]) << king_shift) | rest;
  }
  bool is_canonical(const Placement& p) const;

  // Dense numbering of the canonical white-king squares, for arrays indexed by canonical
  // positions only: slot = ((stm * domain_kings + king_slot) << square_shift(k, 0)) | other squares.
  uint64_t domain_size() const { return uint64_t{2} * domain_kings_ << square_shift(enc_.pieces(), 0); }
  uint64_t slot(const Placement& canonical) const {
    uint64_t s = uint64_t(canonical.stm) * domain_kings_ + king_slot_[canonical.sq[0]];
    for (int i = 1; i < enc_.pieces(); ++i) s = (s << kSquareBits) | canonical.sq[i];
    return s;
  }
  Placement from_slot(uint64_t slot) const;
  // How many indices of the encoding have canonical representative p (p canonical): its images
  // under the board symmetries, each with its identical pieces in every order. Checks that visit
  // representatives only count the positions they stand for with it.
  uint64_t class_size(const Placement& p) const;

  // Sorts each run of identical pieces into ascending square order.
  void sort_identical(Placement& p) const;

  // The board symmetries in the balance's group: 8 without pawns, 2 (the left-right mirror) with.
  int group() const { return group_; }
  // p's image under board transform g (below group()), identical pieces sorted: a member of p's
  // class, which stands for the same value.
  Placement image(const Placement& p, unsigned g) const;

 private:
  // canonical_slot for K pieces and X compare-exchanges: fixed loop counts, for the generator's
  // and the self-check's inner loops (much of their time is here: docs/measured.md).
  template <int K>
  uint64_t canonical_slot_k(const Placement& p) const;
  template <int K, int X>
  uint64_t canonical_slot_k(const Placement& p) const;
  // The squares of slots 1..K-1 under transform g, packed as the slot packs them, runs sorted.
  template <int K, int X>
  uint64_t rest_under(const Placement& p, unsigned g) const;
  uint64_t canonical_slot_any(const Placement& p) const;  // any piece count, any runs

  Encoding enc_;
  int group_ = 1;
  int domain_kings_ = 0;
  std::array<uint8_t, 64> candidates_{};  // transforms taking the white king to its orbit's minimum
  std::array<uint8_t, 64> king_slot_{};
  std::array<Square, 64> slot_king_{};
  std::vector<std::pair<int, int>> runs_;  // [start, length) of identical pieces, length >= 2
  uint64_t run_orders_ = 1;                // orders of the identical pieces: the product of length!
  // The runs' compare-exchanges; more than fit (longer runs, 6 pieces) takes canonical_slot_any.
  RunExchanges exchanges_;
};

// Inline: the exhaustive check, the self-check and the generator call it for every slot.
inline Placement Symmetry::from_slot(uint64_t slot) const {
  Placement p;
  const int k = enc_.pieces();
  for (int i = k - 1; i >= 1; --i, slot >>= kSquareBits) p.sq[i] = Square(slot & kSquareMask);
  // What is left is stm * domain_kings + king slot, below 2 * domain_kings: a compare, not a
  // division (a 64-bit division was a large share of the exhaustive check's time:
  // docs/measured.md).
  const bool black = slot >= uint64_t(domain_kings_);
  p.sq[0] = slot_king_[slot - (black ? uint64_t(domain_kings_) : 0)];
  p.stm = black ? Black : White;
  return p;
}

}  // namespace egtmin
