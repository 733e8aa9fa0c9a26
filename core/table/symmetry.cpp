// SPDX-License-Identifier: GPL-3.0-or-later
#include "table/symmetry.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "util/bits.hpp"

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
    for (int len = 2; len <= j - i; ++len) run_orders_ *= uint64_t(len);
    i = j;
  }
  exchanges_ = run_exchanges(enc);
}

uint64_t Symmetry::class_size(const Placement& p) const {
  // A symmetry keeping the placement must keep the white king's square: of those besides the
  // identity there is at most one, the reflection in a diagonal through the king (8-fold group).
  int stabilizer = 1;
  if (const unsigned cand = candidates_[p.sq[0]]; cand & (cand - 1)) {
    const unsigned g = unsigned(highest_bit(cand));
    Placement t = p;
    for (int i = 1; i < enc_.pieces(); ++i) t.sq[i] = kTransforms[g][p.sq[i]];
    sort_identical(t);
    if (std::equal(t.sq.begin() + 1, t.sq.begin() + enc_.pieces(), p.sq.begin() + 1)) stabilizer = 2;
  }
  return uint64_t(group_ / stabilizer) * run_orders_;
}

RunExchanges run_exchanges(const Encoding& enc) {
  RunExchanges r;
  for (int i = 0; i < enc.pieces();) {
    int j = i;
    while (j < enc.pieces() && enc.piece(j) == enc.piece(i)) ++j;
    // A run of length L: L - 1 passes over its adjacent pairs.
    for (int pass = 0; pass < j - i - 1; ++pass)
      for (int a = i; a < j - 1 - pass; ++a) {
        if (r.count < RunExchanges::kMax) r.pairs[size_t(r.count)] = {uint8_t(a), uint8_t(a + 1)};
        ++r.count;
      }
    i = j;
  }
  return r;
}

void Symmetry::sort_identical(Placement& p) const {
  for (auto [start, len] : runs_) {
    // Runs have 2 to 4 pieces: an insertion sort in place, no call.
    for (int i = start + 1; i < start + len; ++i)
      for (int j = i; j > start && p.sq[j - 1] > p.sq[j]; --j) std::swap(p.sq[j - 1], p.sq[j]);
  }
}

Placement Symmetry::canonical(const Placement& p) const { return from_slot(canonical_slot(p)); }

Placement Symmetry::image(const Placement& p, unsigned g) const {
  Placement t = p;
  for (int i = 0; i < enc_.pieces(); ++i) t.sq[size_t(i)] = kTransforms[g][p.sq[size_t(i)]];
  sort_identical(t);
  return t;
}

template <int K, int X>
uint64_t Symmetry::rest_under(const Placement& p, unsigned g) const {
  const auto& t = kTransforms[g];
  uint64_t idx = 0;
  for (int i = 1; i < K; ++i) idx = (idx << kSquareBits) | t[p.sq[size_t(i)]];
  for (int x = 0; x < X; ++x) {
    const auto [a, b] = exchanges_.pairs[size_t(x)];
    idx = exchange_fields(idx, unsigned(square_shift(K, a)), unsigned(square_shift(K, b)));
  }
  return idx;
}

template <int K, int X>
uint64_t Symmetry::canonical_slot_k(const Placement& p) const {
  // The transform taking the white king to its orbit's minimum: with the king off the symmetry
  // axes the only one. A king on a diagonal of the 8-fold group is also fixed by the reflection
  // in that diagonal: exactly two candidates (the constructor checks). Both take the king to the
  // same square, so the smaller packing of the others is the smaller index. (The second is
  // computed only then: the branch is rarely taken, and computing both always doubles the work.)
  const unsigned cand = candidates_[p.sq[0]];
  const unsigned g1 = unsigned(lowest_bit(cand));
  uint64_t rest = rest_under<K, X>(p, g1);
  if (cand & (cand - 1)) rest = std::min(rest, rest_under<K, X>(p, unsigned(highest_bit(cand))));
  const uint64_t king = king_slot_[kTransforms[g1][p.sq[0]]];
  return ((uint64_t(p.stm) * domain_kings_ + king) << square_shift(K, 0)) | rest;
}

template <int K>
uint64_t Symmetry::canonical_slot_k(const Placement& p) const {
  switch (exchanges_.count) {
    case 0: return canonical_slot_k<K, 0>(p);
    case 1: return canonical_slot_k<K, 1>(p);
    case 2: return canonical_slot_k<K, 2>(p);
    default: return canonical_slot_k<K, 3>(p);
  }
}

uint64_t Symmetry::canonical_slot(const Placement& p) const {
  if (exchanges_.count <= RunExchanges::kMax) switch (enc_.pieces()) {
      case 2: return canonical_slot_k<2>(p);
      case 3: return canonical_slot_k<3>(p);
      case 4: return canonical_slot_k<4>(p);
      case 5: return canonical_slot_k<5>(p);
      default: break;
    }
  return canonical_slot_any(p);
}

uint64_t Symmetry::canonical_slot_any(const Placement& p) const {
  const int k = enc_.pieces();
  const unsigned cand = candidates_[p.sq[0]];
  auto packed = [&](int g) {
    Placement t;
    for (int i = 1; i < k; ++i) t.sq[i] = kTransforms[g][p.sq[i]];
    sort_identical(t);
    uint64_t rest = 0;
    for (int i = 1; i < k; ++i) rest = (rest << kSquareBits) | t.sq[i];
    return rest;
  };
  const int g1 = lowest_bit(cand);
  uint64_t rest = packed(g1);
  if (cand & (cand - 1)) rest = std::min(rest, packed(highest_bit(cand)));
  const uint64_t king = king_slot_[kTransforms[g1][p.sq[0]]];
  return ((uint64_t(p.stm) * domain_kings_ + king) << square_shift(k, 0)) | rest;
}

bool Symmetry::is_canonical(const Placement& p) const {
  // The king must stand on its orbit's minimum (the identity a candidate) for slot(p) to exist.
  const unsigned cand = candidates_[p.sq[0]];
  if (!(cand & 1)) return false;
  if (cand != 1) return canonical_slot(p) == slot(p);
  // The identity alone: the representative is p with its runs sorted (every slot of a pawnful
  // table, most of a pawnless one, asks this once in each pass over the table).
  for (auto [start, len] : runs_)
    for (int i = start + 1; i < start + len; ++i)
      if (p.sq[size_t(i - 1)] > p.sq[size_t(i)]) return false;
  return true;
}

}  // namespace egtmin
