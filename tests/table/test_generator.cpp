// SPDX-License-Identifier: GPL-3.0-or-later
// The generator: known values, its own definition (every value is the minimax of its successors),
// symmetric positions, en-passant probes against Syzygy, and its two ways of analysing the 50-move
// rule's values giving the same tables (the whole tables against Syzygy: test_against_syzygy.cpp).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "probe/syzygy.hpp"
#include "support/env.hpp"
#include "table/generator.hpp"
#include "table/self_check.hpp"
#include "table/symmetry.hpp"
#include "table/table_store.hpp"

namespace egtmin {
namespace {

TEST(Generator, KnownValues) {
  TableStore& store = test::shared_store();
  auto probe = [&](const char* fen) {
    auto p = Position::from_fen(fen);
    EXPECT_TRUE(p.ok()) << fen;
    if (!p.ok()) return Wdl::Illegal;
    auto v = store.ensure(Balance::of(*p));
    EXPECT_TRUE(v.ok());
    auto w = store.probe_stm(*p);
    EXPECT_TRUE(w.ok()) << (w.ok() ? "" : w.error().message);
    return w.ok() ? *w : Wdl::Illegal;
  };
  EXPECT_EQ(probe("8/8/8/8/8/2k5/8/KQ6 w - - 0 1"), Wdl::Win);
  EXPECT_EQ(probe("8/8/8/8/8/2k5/8/KQ6 b - - 0 1"), Wdl::Loss);   // Black to move loses
  EXPECT_EQ(probe("8/8/8/3q4/8/2k5/8/K7 w - - 0 1"), Wdl::Loss);  // colour-flipped KQvK
  EXPECT_EQ(probe("8/8/8/8/8/1qk5/8/K7 w - - 0 1"), Wdl::Draw);   // stalemated by the queen
  EXPECT_EQ(probe("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"), Wdl::Draw);  // stalemate
  EXPECT_EQ(probe("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"), Wdl::Loss);  // mate
  EXPECT_EQ(probe("8/8/8/8/k7/8/8/K1B5 w - - 0 1"), Wdl::Draw);
}

// Every legal position's stored value equals the minimax over its legal moves, where moves that
// leave the table are looked up in the smaller tables: the generator obeys its own definition.
void expect_minimax_consistent(const char* name, uint64_t stride) {
  TableStore& store = test::shared_store();
  const Table& t = test::shared_table(name);
  const Encoding& enc = t.encoding();
  uint64_t checked = 0;
  for (uint64_t idx = 0; idx < enc.size(); idx += stride) {
    Placement p = enc.decode(idx);
    if (!enc.is_legal(p)) continue;
    Position pos = enc.position(p);
    MoveList moves = legal_moves(pos);
    Wdl best = Wdl::Illegal;
    auto rank = [](Wdl v) { return v == Wdl::Win ? 3 : v == Wdl::Draw ? 2 : v == Wdl::Loss ? 1 : 0; };
    for (const Move& m : moves) {
      auto v = store.probe_stm(pos.after(m));
      ASSERT_TRUE(v.ok()) << v.error().message;
      Wdl mine = negate(*v);
      if (rank(mine) > rank(best)) best = mine;
    }
    if (moves.empty()) best = pos.in_check(pos.side_to_move()) ? Wdl::Loss : Wdl::Draw;
    Wdl stored = t.value(p);
    Wdl want = p.stm == White ? best : negate(best);
    ASSERT_EQ(stored, want) << pos.fen();
    ++checked;
  }
  EXPECT_GT(checked, 1000u);
}

TEST(Generator, MinimaxConsistentKRvK) { expect_minimax_consistent("KRvK", 1); }
TEST(Generator, MinimaxConsistentKPvK) { expect_minimax_consistent("KPvK", 1); }
TEST(Generator, MinimaxConsistentKPvKPSample) { expect_minimax_consistent("KPvKP", 397); }
TEST(Generator, MinimaxConsistentKRvKBSample) { expect_minimax_consistent("KRvKB", 211); }

TEST(Generator, SymmetricPositionsAgree) {
  const Table& t = test::shared_table("KRvKN");
  const Encoding& enc = t.encoding();
  for (uint64_t idx = 0; idx < enc.size(); idx += 9973) {
    Placement p = enc.decode(idx);
    if (!enc.is_legal(p)) continue;
    for (int g = 0; g < 8; ++g) {
      Placement q = p;
      for (int i = 0; i < enc.pieces(); ++i) q.sq[i] = kTransforms[g][p.sq[i]];
      ASSERT_EQ(t.value(q), t.value(p));
    }
  }
}

TEST(Generator, RefusesNonCanonicalAndMissingDependencies) {
  auto r = generate(Balance::parse("KvKR").value(), [](const Balance&) -> const Table* { return nullptr; });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("canonical"), std::string::npos);
  auto m = generate(Balance::parse("KRvK").value(), [](const Balance&) -> const Table* { return nullptr; });
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("KvK is missing"), std::string::npos) << m.error().message;
}

// Positions with an en-passant square are not in the table; probe_stm adds the capture as an
// option. Compare with Syzygy (which knows e.p.) for every KPvKP position right after a double push.
TEST(Generator, EnPassantProbesAgreeWithSyzygy) {
  EGTMIN_REQUIRE_SYZYGY();
  auto syz = Syzygy::open(test::syzygy_dir());
  ASSERT_TRUE(syz.ok());
  TableStore& store = test::shared_store();
  ASSERT_TRUE(store.ensure(Balance::parse("KPvKP").value()).ok());
  int compared = 0, with_capture = 0;
  for (int wp = 0; wp < 64; ++wp)
    for (int side = -1; side <= 1; side += 2) {
      Square w = Square(wp);
      if (rank_of(w) != 3) continue;  // the white pawn just went e2-e4 style to rank 4
      int f = file_of(w) + side;
      if (f < 0 || f > 7) continue;
      Square bp = make_square(f, 3);
      for (int wk = 0; wk < 64; wk += 3)
        for (int bk = 1; bk < 64; bk += 5) {
          Position pos;
          if (wk == w || wk == bp || bk == w || bk == bp || wk == bk) continue;
          Square ep = Square(w + 8), origin = Square(w + 16);
          if (wk == ep || wk == origin || bk == ep || bk == origin) continue;
          pos.put(Square(wk), make_piece(White, King));
          pos.put(Square(bk), make_piece(Black, King));
          pos.put(w, make_piece(White, Pawn));
          pos.put(bp, make_piece(Black, Pawn));
          pos.set_side_to_move(Black);
          pos.set_ep_square(ep);
          if (pos.illegal_reason()) continue;
          auto ours = store.probe_stm(pos);
          ASSERT_TRUE(ours.ok()) << ours.error().message;
          auto theirs = (*syz)->wdl(pos);
          ASSERT_TRUE(theirs.has_value());
          Wdl want = fold(to_wdl(*theirs));
          ASSERT_EQ(*ours, want) << pos.fen();
          Position no_ep = pos;
          no_ep.set_ep_square(NoSquare);
          with_capture += *store.probe_stm(no_ep) != *ours;
          ++compared;
        }
    }
  EXPECT_GT(compared, 1000);
  EXPECT_GT(with_capture, 0) << "no position where the e.p. capture changes the value was exercised";
}

// One retrograde analysis for both values serves layers whose zeroing moves reach no cursed win
// or blessed loss; it must give exactly what the two separate analyses give, distances included.
TEST(Generator, OneAnalysisGivesWhatTwoGive) {
  for (const char* name : {"KQvKR", "KRvKP", "KPvKP"}) {
    const Balance b = Balance::parse(name).value();
    for (const Balance& dep : successor_balances(b)) ASSERT_TRUE(test::shared_store().ensure(dep).ok());
    std::vector<uint8_t> one_d, two_d;
    GenerateOptions one, two;
    one.distances = &one_d;
    two.distances = &two_d;
    two.two_analyses = true;
    auto a = generate(b, test::shared_lookup(), one);
    auto c = generate(b, test::shared_lookup(), two);
    ASSERT_TRUE(a.ok() && c.ok()) << name;
    uint64_t differ = 0;
    for (uint64_t s = 0; s < a->slots(); ++s) differ += a->at_slot(s) != c->at_slot(s) || one_d[s] != two_d[s];
    EXPECT_EQ(differ, 0u) << name;
  }
}

// Where captures reach cursed wins and blessed losses (planted in KQvK and KRvK: no 3-4-piece
// balance has them), the generator takes both analyses; the self-check proves the result exactly.
TEST(Generator, CursedSuccessorsAreProvenExactly) {
  std::map<Balance, Table> planted;
  for (const char* name : {"KQvK", "KRvK"}) {
    Table t = *test::shared_store().ensure(Balance::parse(name).value()).value();
    for (uint64_t s = 0; s < t.slots(); s += 3)
      if (const Wdl v = t.at_slot(s); v == Wdl::Win || v == Wdl::Loss)
        t.set_slot(s, v == Wdl::Win ? Wdl::CursedWin : Wdl::BlessedLoss);
    planted.emplace(t.balance(), std::move(t));
  }
  const TableLookup lookup = [&](const Balance& b) -> const Table* {
    auto it = planted.find(b);
    return it != planted.end() ? &it->second : test::shared_lookup()(b);
  };
  std::vector<uint8_t> distances;
  GenerateOptions opts;
  opts.distances = &distances;
  auto t = generate(Balance::parse("KQvKR").value(), lookup, opts);
  ASSERT_TRUE(t.ok()) << t.error().message;
  SelfCheckReport r = self_check(*t, lookup, distances, SelfCheckOptions{.stride = 1});
  EXPECT_TRUE(r.ok()) << (r.examples.empty() ? "" : r.examples.front());
  EXPECT_GT(r.counts.of(Wdl::CursedWin) + r.counts.of(Wdl::BlessedLoss), 1000u);
  // And the same table as the two analyses run throughout.
  opts.two_analyses = true;
  std::vector<uint8_t> two_d;
  opts.distances = &two_d;
  auto two = generate(Balance::parse("KQvKR").value(), lookup, opts);
  ASSERT_TRUE(two.ok());
  uint64_t differ = 0;
  for (uint64_t s = 0; s < t->slots(); ++s) differ += t->at_slot(s) != two->at_slot(s) || distances[s] != two_d[s];
  EXPECT_EQ(differ, 0u);
}

}  // namespace
}  // namespace egtmin
