// SPDX-License-Identifier: GPL-3.0-or-later
// The attack tests by the squares between two squares against the ray walk they replace, on every
// pair of squares and many occupancies.
#include <gtest/gtest.h>

#include <random>

#include "chess/attacks.hpp"

namespace egtmin {
namespace {

// Row 0 is rank 8.
constexpr Square sq(const char (&name)[3]) { return Square((7 - (name[1] - '1')) * 8 + (name[0] - 'a')); }

TEST(Attacks, SliderTestsAgreeWithTheRayWalkOnEveryPairOfSquares) {
  std::mt19937_64 rng(7);
  int attacking = 0;
  for (int round = 0; round < 64; ++round) {
    // Sparse boards (as in endgames) and dense ones.
    const Bitboard occ = round % 2 ? rng() & rng() & rng() : rng() & rng();
    for (int s = 0; s < 64; ++s)
      for (int t = 0; t < 64; ++t) {
        const Square from = Square(s), target = Square(t);
        const bool rook = rook_attacks(from, occ) & bb(target), bishop = bishop_attacks(from, occ) & bb(target);
        EXPECT_EQ(attacks_square(Rook, White, from, target, occ), rook) << s << " " << t;
        EXPECT_EQ(attacks_square(Bishop, Black, from, target, occ), bishop) << s << " " << t;
        EXPECT_EQ(attacks_square(Queen, White, from, target, occ), rook || bishop) << s << " " << t;
        attacking += rook || bishop;
      }
  }
  EXPECT_GT(attacking, 64 * 64);  // the boards leave many lines open
}

TEST(Attacks, BetweenHoldsTheSquaresStrictlyBetween) {
  const Square a1 = sq("a1"), a8 = sq("a8"), h1 = sq("h1"), h8 = sq("h8");
  EXPECT_EQ(kBetween[a1][a8], kRays[0][a1] & ~bb(a8));  // the a-file from a1 towards a8
  EXPECT_EQ(kBetween[a1][h8], kRays[5][a1] & ~bb(h8));  // the long diagonal
  EXPECT_EQ(kBetween[a8][h1], kBetween[h1][a8]);
  EXPECT_EQ(kBetween[sq("e4")][sq("e5")], Bitboard{0});  // neighbours
  EXPECT_EQ(kBetween[a1][sq("b3")], Bitboard{0});        // on no common line
  EXPECT_EQ(popcount(kBetween[a1][a8]), 6);
  EXPECT_EQ(popcount(kBetween[a1][h8]), 6);
}

}  // namespace
}  // namespace egtmin
