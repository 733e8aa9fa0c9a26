// SPDX-License-Identifier: GPL-3.0-or-later
// Legal move generation on the moves that are easy to get wrong: en passant and promotions (the
// perft suite checks whole trees).
#include <gtest/gtest.h>

#include "chess/position.hpp"

namespace egtmin {
namespace {

TEST(MoveGen, EnPassantAndPromotion) {
  auto p = Position::from_fen("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1");
  ASSERT_TRUE(p.ok());
  bool found = false;
  for (const Move& m : legal_moves(*p)) found |= m.en_passant && uci(m) == "c4d3";
  EXPECT_TRUE(found);
  auto q = Position::from_fen("4k3/1P6/8/8/8/8/K7/8 w - - 0 1");
  ASSERT_TRUE(q.ok());
  int promotions = 0;
  for (const Move& m : legal_moves(*q)) promotions += m.promotion != NoPieceType;
  EXPECT_EQ(promotions, 4);
}

}  // namespace
}  // namespace egtmin
