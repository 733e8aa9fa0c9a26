// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <ostream>

#include "chess/position.hpp"
#include "support/test_names.hpp"

namespace egtmin {
namespace {

TEST(Fen, RoundTrips) {
  for (const char* fen :
       {"8/8/8/8/8/2k5/8/KQ6 w - - 0 1", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"}) {
    auto p = Position::from_fen(fen);
    ASSERT_TRUE(p.ok()) << p.error().message;
    EXPECT_EQ(p->fen(), fen);
  }
}

TEST(Fen, AcceptsMissingCounters) {
  auto p = Position::from_fen("  8/8/8/8/8/2k5/8/KQ6   b  ");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->side_to_move(), Black);
  EXPECT_EQ(p->at(parse_square("a1")), make_piece(White, King));
  EXPECT_EQ(p->at(parse_square("b1")), make_piece(White, Queen));
}

struct Bad {
  const char* fen;
  const char* expect;  // a substring the message must contain
};

void PrintTo(const Bad& b, std::ostream* os) { *os << '"' << b.fen << "\" (expect \"" << b.expect << "\")"; }

class FenErrors : public ::testing::TestWithParam<Bad> {};

TEST_P(FenErrors, NamesTheProblem) {
  auto p = Position::from_fen(GetParam().fen);
  ASSERT_FALSE(p.ok()) << GetParam().fen;
  EXPECT_NE(p.error().message.find(GetParam().expect), std::string::npos)
      << "message: " << p.error().message << "\nexpected to contain: " << GetParam().expect;
}

INSTANTIATE_TEST_SUITE_P(
    All, FenErrors,
    ::testing::Values(
        Bad{"", "0 fields"}, Bad{"8/8/8/8/8/2k5/8/KQ6", "1 fields"},
        Bad{"8/8/8/8/8/2k5/8/KQ6 w - - 0 1 extra", "7 fields"}, Bad{"8/8/8/8/2k5/8/KQ6 w - -", "7 ranks"},
        Bad{"8/8/8/8/8/2k5/8/KX6 w - -", "unknown piece letter 'X'"}, Bad{"8/8/8/8/8/2k5/8/KQ7 w - -", "rank 1"},
        Bad{"8/8/8/8/8/2k4/8/KQ6 w - -", "rank 3"}, Bad{"8/8/8/8/8/2k5/8/KQ6 x - -", "side to move"},
        Bad{"8/8/8/8/8/8/8/KQ6 w - -", "Black has 0 kings"}, Bad{"8/8/8/8/8/2k5/8/KK6 w - -", "White has 2 kings"},
        Bad{"P7/8/8/8/8/2k5/8/K7 w - -", "pawn stands on a8"}, Bad{"8/8/8/8/8/2k5/8/K6p w - -", "pawn stands on h1"},
        Bad{"8/8/8/8/8/2k5/8/Kq6 b - -", "White (not to move) is in check"},
        Bad{"8/8/8/8/8/2k5/8/KQ6 w KQ -", "castling rights"}, Bad{"8/8/8/8/8/2k5/8/KQ6 w - e9", "not a square"},
        Bad{"8/8/8/8/8/2k5/8/KQ6 w - e3", "rank 6"}, Bad{"8/8/8/8/8/2k5/8/KQ6 w - e6", "no black pawn"},
        Bad{"8/4p3/8/4p3/8/2k5/8/KQ6 w - e6", "inconsistent"}, Bad{"8/8/8/8/8/2k5/8/KQ6 w - - x 1", "halfmove"},
        Bad{"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w - - 0 1", "more pieces than supported"}),
    // Named after the problem, which is unique per case (the FEN is not readable as a name).
    [](const ::testing::TestParamInfo<Bad>& p) { return test::test_name(p.param.expect); });

TEST(Fen, ColorFlipKeepsTheSideToMovesView) {
  auto p = Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
  ASSERT_TRUE(p.ok());
  Position f = p->color_flipped();
  EXPECT_EQ(f.fen(), "kq6/8/2K5/8/8/8/8/8 b - - 0 1");
  EXPECT_EQ(f.color_flipped(), *p);
}

}  // namespace
}  // namespace egtmin
