// SPDX-License-Identifier: GPL-3.0-or-later
// The paper's position encoding: its worked example, and the placements the tables mark illegal.
#include <gtest/gtest.h>

#include "support/env.hpp"
#include "table/encoding.hpp"
#include "table/table_store.hpp"

namespace egtmin {
namespace {

TEST(Encoding, PapersExampleRowIsADrawInKNvKP) {
  // "0 000010 000000 010000 001001 010": White to move, wK c8, wN a8, bK a6, bP b7, draw.
  const Table& t = test::shared_table("KNvKP");
  const uint64_t index = 0b0'000010'000000'010000'001001;
  Placement p = t.encoding().decode(index);
  EXPECT_EQ(p.stm, White);
  EXPECT_EQ(square_name(p.sq[0]), "c8");
  EXPECT_EQ(square_name(p.sq[1]), "a8");
  EXPECT_EQ(square_name(p.sq[2]), "a6");
  EXPECT_EQ(square_name(p.sq[3]), "b7");
  EXPECT_EQ(t.encoding().encode(p), index);
  EXPECT_EQ(t.value(index), Wdl::Draw);
  // The named numbers read the same string: the side to move above each slot's sextet, and a
  // cube's inputs the string from its top.
  EXPECT_EQ(t.encoding().bits(), inputs_for(4));
  EXPECT_EQ(inputs_for(4), 25);
  EXPECT_EQ(index >> stm_shift(4), 0u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(Square((index >> square_shift(4, i)) & kSquareMask), p.sq[size_t(i)]) << i;
    EXPECT_EQ(square_input(i), inputs_for(4) - square_shift(4, i) - kSquareBits) << i;
  }
}

TEST(Encoding, SquareNumberingsAndMirrors) {
  // egtmin counts from a8, Fathom, the C API and engines from a1.
  EXPECT_EQ(to_a1_index(parse_square("a1")), 0u);
  EXPECT_EQ(to_a1_index(parse_square("h1")), 7u);
  EXPECT_EQ(to_a1_index(parse_square("a8")), 56u);
  EXPECT_EQ(to_a1_index(parse_square("e4")), 28u);
  for (int s = 0; s < 64; ++s) EXPECT_EQ(from_a1_index(to_a1_index(Square(s))), Square(s));
  EXPECT_EQ(flip_rank(parse_square("c2")), parse_square("c7"));
  EXPECT_EQ(flip_file(parse_square("c2")), parse_square("f2"));
}

TEST(Encoding, IllegalPositionsAreMarked) {
  const Table& t = test::shared_table("KPvK");
  Encoding e(Balance::parse("KPvK").value());
  Placement two_on_one{White, {parse_square("e1"), parse_square("e1"), parse_square("e8")}};
  Placement pawn_on_8{White, {parse_square("e1"), parse_square("a8"), parse_square("e6")}};
  Placement not_to_move_in_check{White, {parse_square("e1"), parse_square("d7"), parse_square("e8")}};
  Placement fine{Black, {parse_square("e1"), parse_square("d7"), parse_square("e8")}};
  EXPECT_EQ(t.value(two_on_one), Wdl::Illegal);
  EXPECT_EQ(t.value(pawn_on_8), Wdl::Illegal);
  EXPECT_EQ(t.value(not_to_move_in_check), Wdl::Illegal);
  EXPECT_NE(t.value(fine), Wdl::Illegal);
}

}  // namespace
}  // namespace egtmin
