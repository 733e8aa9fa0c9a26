// SPDX-License-Identifier: GPL-3.0-or-later
// Move generation against published perft node counts (positions without castling rights, which
// egtmin refuses). The set stresses en passant (including discovered checks through the captured
// pawn), promotions and under-promotions, checks, pins, stalemate and mate.
#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "chess/position.hpp"
#include "support/test_names.hpp"

namespace egtmin {
namespace {

uint64_t perft(const Position& pos, int depth) {
  MoveList moves = legal_moves(pos);
  if (depth == 1) return moves.size();
  uint64_t n = 0;
  for (const Move& m : moves) n += perft(pos.after(m), depth - 1);
  return n;
}

struct Case {
  const char* name;  // what the position stresses (Position3: the Chess Programming Wiki's "Position 3")
  const char* fen;
  int depth;
  uint64_t nodes;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name << " \"" << c.fen << "\" depth " << c.depth; }

class Perft : public ::testing::TestWithParam<Case> {};

TEST_P(Perft, MatchesKnownNodeCount) {
  auto pos = Position::from_fen(GetParam().fen, 32);
  ASSERT_TRUE(pos.ok()) << pos.error().message;
  EXPECT_EQ(perft(*pos, GetParam().depth), GetParam().nodes) << GetParam().fen;
}

INSTANTIATE_TEST_SUITE_P(
    Known, Perft,
    ::testing::Values(Case{"Position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 1, 14},
                      Case{"Position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238},
                      Case{"Position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674624},
                      Case{"Promotions", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 1, 24},
                      Case{"Promotions", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 4, 182838},
                      Case{"IllegalEnPassant", "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6, 1134888},
                      Case{"IllegalEnPassantPinned", "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 6, 1015133},
                      Case{"EnPassantGivesCheck", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 6, 1440467},
                      Case{"PromoteOutOfCheck", "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 6, 3821001},
                      Case{"DiscoveredCheck", "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", 5, 1004658},
                      Case{"PromoteToGiveCheck", "4k3/1P6/8/8/8/8/K7/8 w - - 0 1", 6, 217342},
                      Case{"UnderpromoteToGiveCheck", "8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6, 92683},
                      Case{"SelfStalemate", "K1k5/8/P7/8/8/8/8/8 w - - 0 1", 6, 2217},
                      Case{"StalemateAndCheckmate", "8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 7, 567584},
                      Case{"DoubleCheck", "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", 4, 23527}),
    [](const ::testing::TestParamInfo<Case>& p) {
      return test::test_name(std::string(p.param.name) + " depth " + std::to_string(p.param.depth));
    });

}  // namespace
}  // namespace egtmin
