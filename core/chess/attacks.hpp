// SPDX-License-Identifier: GPL-3.0-or-later
// Attack sets. Leapers come from constexpr tables; sliders from precomputed rays cut at the first
// blocker, which is compact and fast enough for endgames with a handful of pieces.
#pragma once

#include <array>
#include <bit>

#include "chess/types.hpp"

namespace egtmin {

namespace detail {
constexpr Bitboard leaper(int s, const int (&df)[8], const int (&dr)[8]) {
  Bitboard b = 0;
  for (int i = 0; i < 8; ++i) {
    int f = (s & 7) + df[i], r = (s >> 3) + dr[i];
    if (f >= 0 && f < 8 && r >= 0 && r < 8) b |= Bitboard{1} << (r * 8 + f);
  }
  return b;
}
constexpr int kKingDf[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
constexpr int kKingDr[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
constexpr int kKnightDf[8] = {-2, -1, 1, 2, -2, -1, 1, 2};
constexpr int kKnightDr[8] = {-1, -2, -2, -1, 1, 2, 2, 1};

constexpr auto make_table(const int (&df)[8], const int (&dr)[8]) {
  std::array<Bitboard, 64> t{};
  for (int s = 0; s < 64; ++s) t[s] = leaper(s, df, dr);
  return t;
}
// Direction d: 0..3 rook (N, S, W, E), 4..7 bishop (NW, NE, SW, SE); "N" is towards rank 8 (row 0).
constexpr int kDirDf[8] = {0, 0, -1, 1, -1, 1, -1, 1};
constexpr int kDirDr[8] = {-1, 1, 0, 0, -1, -1, 1, 1};
constexpr auto make_rays() {
  std::array<std::array<Bitboard, 64>, 8> rays{};
  for (int d = 0; d < 8; ++d)
    for (int s = 0; s < 64; ++s) {
      Bitboard b = 0;
      int f = (s & 7) + kDirDf[d], r = (s >> 3) + kDirDr[d];
      while (f >= 0 && f < 8 && r >= 0 && r < 8) {
        b |= Bitboard{1} << (r * 8 + f);
        f += kDirDf[d];
        r += kDirDr[d];
      }
      rays[d][s] = b;
    }
  return rays;
}
// A direction is "increasing" when its squares have larger numbers: then the nearest blocker is
// the lowest set bit.
constexpr bool kIncreasing[8] = {false, true, false, true, false, false, true, true};
}  // namespace detail

inline constexpr auto kKingAttacks = detail::make_table(detail::kKingDf, detail::kKingDr);
inline constexpr auto kKnightAttacks = detail::make_table(detail::kKnightDf, detail::kKnightDr);
inline constexpr auto kRays = detail::make_rays();

// Rook and bishop moves on an empty board: a cheap test that rules out most attacks before the
// blocker-aware computation.
inline constexpr auto kRookLines = [] {
  std::array<Bitboard, 64> t{};
  for (int s = 0; s < 64; ++s) t[s] = kRays[0][s] | kRays[1][s] | kRays[2][s] | kRays[3][s];
  return t;
}();
inline constexpr auto kBishopLines = [] {
  std::array<Bitboard, 64> t{};
  for (int s = 0; s < 64; ++s) t[s] = kRays[4][s] | kRays[5][s] | kRays[6][s] | kRays[7][s];
  return t;
}();

// The squares strictly between two squares on a common rank, file or diagonal (empty for squares
// on none): a slider on such a line attacks the other square exactly when these are all empty, one
// load where the ray walk computes the slider's four rays. The generator's and the self-check's
// legality and check tests ask it for every move.
inline constexpr auto kBetween = [] {
  std::array<std::array<Bitboard, 64>, 64> t{};
  for (int s = 0; s < 64; ++s)
    for (int d = 0; d < 8; ++d)
      for (Bitboard ray = kRays[d][s]; ray;) {
        const int to = std::countr_zero(ray);
        ray &= ray - 1;
        t[s][to] = kRays[d][s] & ~kRays[d][to] & ~(Bitboard{1} << to);
      }
  return t;
}();

// Squares a pawn of colour c on s attacks. White pawns move towards rank 8 (smaller numbers).
constexpr Bitboard pawn_attacks(Color c, Square s) {
  Bitboard b = bb(s);
  constexpr Bitboard notA = ~0x0101010101010101ull, notH = ~0x8080808080808080ull;
  return c == White ? ((b & notA) >> 9) | ((b & notH) >> 7) : ((b & notA) << 7) | ((b & notH) << 9);
}

inline Bitboard ray_attacks(int d, Square s, Bitboard occ) {
  Bitboard ray = kRays[d][s], blockers = ray & occ;
  if (!blockers) return ray;
  Square first = detail::kIncreasing[d] ? lsb(blockers) : msb(blockers);
  return ray ^ kRays[d][first];
}
inline Bitboard rook_attacks(Square s, Bitboard occ) {
  return ray_attacks(0, s, occ) | ray_attacks(1, s, occ) | ray_attacks(2, s, occ) | ray_attacks(3, s, occ);
}
inline Bitboard bishop_attacks(Square s, Bitboard occ) {
  return ray_attacks(4, s, occ) | ray_attacks(5, s, occ) | ray_attacks(6, s, occ) | ray_attacks(7, s, occ);
}
// Does a piece of type t and colour c on s attack `target` given occupancy occ?
inline bool attacks_square(PieceType t, Color c, Square s, Square target, Bitboard occ) {
  const Bitboard tb = bb(target);
  switch (t) {
    case King: return kKingAttacks[s] & tb;
    case Knight: return kKnightAttacks[s] & tb;
    case Pawn: return pawn_attacks(c, s) & tb;
    case Rook: return (kRookLines[s] & tb) && !(kBetween[s][target] & occ);
    case Bishop: return (kBishopLines[s] & tb) && !(kBetween[s][target] & occ);
    case Queen: return ((kRookLines[s] | kBishopLines[s]) & tb) && !(kBetween[s][target] & occ);
    default: return false;
  }
}

inline Bitboard attacks(PieceType t, Color c, Square s, Bitboard occ) {
  switch (t) {
    case King: return kKingAttacks[s];
    case Queen: return rook_attacks(s, occ) | bishop_attacks(s, occ);
    case Rook: return rook_attacks(s, occ);
    case Bishop: return bishop_attacks(s, occ);
    case Knight: return kKnightAttacks[s];
    case Pawn: return pawn_attacks(c, s);
    default: return 0;
  }
}

}  // namespace egtmin
