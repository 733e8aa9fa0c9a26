// SPDX-License-Identifier: GPL-3.0-or-later
// Position::material_key() is kept up to date by put() and remove() rather than computed, and the
// probe hot path trusts it to find a position's cover: after any edit, move (captures, en passant,
// promotions), colour flip or FEN parse it must equal the count of every piece kind.
#include <gtest/gtest.h>

#include <random>

#include "chess/position.hpp"

namespace egtmin {
namespace {

uint64_t counted_key(const Position& pos) {
  uint64_t key = 0;
  for (int pc = 0; pc < kPieces; ++pc)
    key += uint64_t(popcount(pos.pieces(Piece(pc)))) * Position::material_unit(Piece(pc));
  return key;
}

TEST(MaterialKey, FollowsEditsMovesFlipsAndFen) {
  std::mt19937_64 rng(7);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    Position pos;
    EXPECT_EQ(pos.material_key(), 0u);
    // Random edits: puts over occupied squares (a replacement), removes of empty squares.
    for (int e = 0; e < 40; ++e) {
      const Square s = Square(rng() % 64);
      if (rng() % 3 == 0)
        pos.remove(s);
      else
        pos.put(s, Piece(rng() % kPieces));
      ASSERT_EQ(pos.material_key(), counted_key(pos));
    }
    ASSERT_EQ(pos.color_flipped().material_key(), counted_key(pos.color_flipped()));
    pos.clear();
    ASSERT_EQ(pos.material_key(), 0u);
    // Legal play from a small position: every move keeps the key equal to the count.
    pos.put(Square(rng() % 64), make_piece(White, King));
    Square bk;
    do bk = Square(rng() % 64);
    while (pos.at(bk) != NoPiece);
    pos.put(bk, make_piece(Black, King));
    for (int p = 0; p < 4; ++p) {
      const Square s = Square(8 + rng() % 48);  // ranks 2-7, so pawns are allowed too
      if (pos.at(s) == NoPiece) pos.put(s, make_piece(Color(rng() & 1), PieceType(1 + rng() % 5)));
    }
    if (pos.illegal_reason()) continue;
    for (int ply = 0; ply < 30; ++ply) {
      const MoveList moves = legal_moves(pos);
      if (moves.size() == 0) break;
      pos = pos.after(moves[rng() % moves.size()]);
      ASSERT_EQ(pos.material_key(), counted_key(pos)) << pos.fen();
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
  for (const char* fen : {"8/8/8/8/8/8/8/K1k5 w - - 0 1", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
                          "k7/6P1/8/8/8/8/1q6/K7 w - - 0 1", "8/2r5/8/8/1Q3B2/8/4N3/k5K1 b - - 0 1"}) {
    auto pos = Position::from_fen(fen);
    ASSERT_TRUE(pos.ok()) << fen;
    EXPECT_EQ(pos->material_key(), counted_key(*pos)) << fen;
  }
}

TEST(MaterialKey, EqualExactlyForEqualMaterial) {
  auto a = Position::from_fen("8/8/8/3k4/8/8/2R5/K7 w - - 0 1");  // KRvK
  auto b = Position::from_fen("7R/8/8/8/8/8/k7/6K1 b - - 0 1");   // KRvK elsewhere, Black to move
  auto c = Position::from_fen("8/8/8/3k4/8/8/2r5/K7 w - - 0 1");  // KvKR
  auto d = Position::from_fen("8/8/8/3k4/8/8/2Q5/K7 w - - 0 1");  // KQvK
  ASSERT_TRUE(a.ok() && b.ok() && c.ok() && d.ok());
  EXPECT_EQ(a->material_key(), b->material_key());
  EXPECT_NE(a->material_key(), c->material_key());
  EXPECT_NE(a->material_key(), d->material_key());
  EXPECT_EQ(a->color_flipped().material_key(), c->material_key());
}

}  // namespace
}  // namespace egtmin
