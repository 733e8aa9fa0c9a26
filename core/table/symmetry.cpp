// SPDX-License-Identifier: GPL-3.0-or-later
#include "table/symmetry.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace egtmin {

Symmetry::Symmetry(const Encoding& enc) : enc_(enc) {
  group_ = enc.balance().has_pawns() ? 2 : 8;
  king_slot_.fill(0xFF);
  for (int s = 0; s < 64; ++s) {
    int best = 64;
    for (int g = 0; g < group_; ++g) best = std::min<int>(best, kTransforms[g][s]);
    for (int g = 0; g < group_; ++g)
      if (kTransforms[g][s] == best) candidates_[s] |= uint8_t(1u << g);
    if (std::popcount(unsigned(candidates_[s])) > 2)
      throw std::logic_error("a square fixed by more than one symmetry besides the identity");
    if (best == s) {
      king_slot_[s] = uint8_t(domain_kings_);
      slot_king_[domain_kings_++] = Square(s);
    }
  }
  for (int i = 0; i < enc.pieces();) {
    int j = i;
    while (j < enc.pieces() && enc.piece(j) == enc.piece(i)) ++j;
    if (j - i >= 2) runs_.push_back({i, j - i});
    i = j;
  }
}

void Symmetry::sort_identical(Placement& p) const {
  for (auto [start, len] : runs_) {
    // Runs have 2 to 4 pieces: an insertion sort in place, no call.
    for (int i = start + 1; i < start + len; ++i)
      for (int j = i; j > start && p.sq[j - 1] > p.sq[j]; --j) std::swap(p.sq[j - 1], p.sq[j]);
  }
}

Placement Symmetry::canonical(const Placement& p) const { return from_slot(canonical_slot(p)); }

uint64_t Symmetry::canonical_slot(const Placement& p) const {
  const int k = enc_.pieces();
  const unsigned cand = candidates_[p.sq[0]];
  // The other pieces' squares under transform g, runs sorted (none holds the white king, slot 0),
  // packed as the slot packs them. Both candidates take the king to the same square, so the
  // smaller packing is the smaller index.
  auto packed = [&](int g) {
    Placement t;
    for (int i = 1; i < k; ++i) t.sq[i] = kTransforms[g][p.sq[i]];
    sort_identical(t);
    uint64_t rest = 0;
    for (int i = 1; i < k; ++i) rest = (rest << 6) | t.sq[i];
    return rest;
  };
  // The transform taking the white king to its orbit's minimum: with the king off the symmetry
  // axes the only one. A king on a diagonal of the 8-fold group is also fixed by the reflection
  // in that diagonal: exactly two candidates (the constructor checks), the smaller index wins.
  const int g1 = __builtin_ctz(cand);
  uint64_t rest = packed(g1);
  if (cand & (cand - 1)) rest = std::min(rest, packed(31 - __builtin_clz(cand)));
  const uint64_t king = king_slot_[kTransforms[g1][p.sq[0]]];
  return ((uint64_t(p.stm) * domain_kings_ + king) << (6 * (k - 1))) | rest;
}

bool Symmetry::is_canonical(const Placement& p) const {
  // The king must stand on its orbit's minimum (the identity a candidate) for slot(p) to exist.
  return (candidates_[p.sq[0]] & 1) && canonical_slot(p) == slot(p);
}

Placement Symmetry::from_slot(uint64_t slot) const {
  Placement p;
  const int k = enc_.pieces();
  for (int i = k - 1; i >= 1; --i, slot >>= 6) p.sq[i] = Square(slot & 63);
  p.sq[0] = slot_king_[slot % uint64_t(domain_kings_)];
  p.stm = Color(slot / uint64_t(domain_kings_));
  return p;
}

}  // namespace egtmin
