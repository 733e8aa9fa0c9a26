// SPDX-License-Identifier: GPL-3.0-or-later
// The moves a capture-resolved probe searches (capture_and_promotion_moves) against the legal
// moves, over trees from positions of the perft suite.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "chess/position.hpp"

namespace egtmin {
namespace {

// The moves a capture-resolved probe searches are exactly the legal captures (en passant too) and
// promotions, in every position a depth-3 tree from each known position reaches.
void expect_capture_moves_match(const Position& pos, int depth) {
  const MoveList all = legal_moves(pos);
  std::vector<std::pair<int, int>> want, got;
  for (const Move& m : all)
    if (pos.is_capture(m) || m.promotion != NoPieceType) want.emplace_back(m.from * 64 + m.to, int(m.promotion));
  for (const Move& m : capture_and_promotion_moves(pos)) got.emplace_back(m.from * 64 + m.to, int(m.promotion));
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  ASSERT_EQ(got, want) << pos.fen();
  if (depth > 0)
    for (const Move& m : all) expect_capture_moves_match(pos.after(m), depth - 1);
}

TEST(CaptureMoves, AreTheLegalCapturesAndPromotions) {
  for (const char* fen : {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                          "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
                          "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1"})
    expect_capture_moves_match(*Position::from_fen(fen, 32), 3);
}

}  // namespace
}  // namespace egtmin
