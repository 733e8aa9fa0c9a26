// SPDX-License-Identifier: GPL-3.0-or-later
#include "table/symmetry.hpp"

#include <algorithm>

namespace egtmin {

Symmetry::Symmetry(const Encoding& enc) : enc_(enc) {
  group_ = enc.balance().has_pawns() ? 2 : 8;
  king_slot_.fill(0xFF);
  for (int s = 0; s < 64; ++s) {
    int best = 64;
    for (int g = 0; g < group_; ++g) best = std::min<int>(best, kTransforms[g][s]);
    for (int g = 0; g < group_; ++g)
      if (kTransforms[g][s] == best) candidates_[s] |= uint8_t(1u << g);
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
    if (len == 2) {
      if (p.sq[start] > p.sq[start + 1]) std::swap(p.sq[start], p.sq[start + 1]);
    } else {
      std::sort(p.sq.begin() + start, p.sq.begin() + start + len);
    }
  }
}

Placement Symmetry::canonical(const Placement& p) const {
  const int k = enc_.pieces();
  uint8_t cand = candidates_[p.sq[0]];
  if ((cand & (cand - 1)) == 0) {
    // One transform takes the white king to its orbit's minimum (the king is off the symmetry
    // axes): it alone decides, no index comparison needed. This is the hot path of generation.
    const int g = __builtin_ctz(cand);
    Placement q = p;
    if (g != 0)
      for (int i = 0; i < k; ++i) q.sq[i] = kTransforms[g][p.sq[i]];
    if (!runs_.empty()) sort_identical(q);
    return q;
  }
  Placement best;
  uint64_t best_idx = ~uint64_t{0};
  for (int g = 0; g < group_; ++g) {
    if (!(cand & (1u << g))) continue;
    Placement q;
    q.stm = p.stm;
    for (int i = 0; i < k; ++i) q.sq[i] = kTransforms[g][p.sq[i]];
    sort_identical(q);
    uint64_t idx = enc_.encode(q);
    if (idx < best_idx) {
      best_idx = idx;
      best = q;
    }
  }
  return best;
}

bool Symmetry::is_canonical(const Placement& p) const { return enc_.encode(canonical(p)) == enc_.encode(p); }

Placement Symmetry::from_slot(uint64_t slot) const {
  Placement p;
  const int k = enc_.pieces();
  for (int i = k - 1; i >= 1; --i, slot >>= 6) p.sq[i] = Square(slot & 63);
  p.sq[0] = slot_king_[slot % uint64_t(domain_kings_)];
  p.stm = Color(slot / uint64_t(domain_kings_));
  return p;
}

}  // namespace egtmin
