// SPDX-License-Identifier: GPL-3.0-or-later
// Capture-resolved don't-cares: the rule of table/capture_resolve.hpp applied to every canonical
// slot, checked against a brute force over all legal moves: wins a capture reaches are left open,
// draws and cursed wins a capture reaches become "at most a draw", blessed losses a capture
// reaches lose their flag, everything else keeps its value.
#include <gtest/gtest.h>

#include "support/env.hpp"
#include "table/capture_resolve.hpp"
#include "table/table_store.hpp"

namespace egtmin {
namespace {

// Brute force: the best value of every capture and promotion from the tables, for the side to move.
Wdl brute_capture_value(const Position& pos) {
  Wdl best = Wdl::Illegal;
  for (const Move& m : legal_moves(pos)) {
    if (!pos.is_capture(m) && m.promotion == NoPieceType) continue;
    const Position after = pos.after(m);
    const Balance b = Balance::of(after);
    auto t = test::shared_store().ensure(b.canonical());
    EXPECT_TRUE(t.ok());
    const Position p = b.is_canonical() ? after : after.color_flipped();
    const Wdl white = (*t)->value(p);
    best = better(best, negate(p.side_to_move() == White ? white : negate(white)));
  }
  return best;
}

struct RuleCase {
  const char* balance;
  CaptureRule rule;
};

class CaptureResolve : public ::testing::TestWithParam<RuleCase> {};

TEST_P(CaptureResolve, AppliesTheRuleToEveryPosition) {
  const Balance b = Balance::parse(GetParam().balance).value();
  const CaptureRule rule = GetParam().rule;
  auto t = test::shared_store().ensure(b);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const Table& table = **t;
  auto r = resolve_captures(table, test::shared_lookup(), 2, no_progress(), rule);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->at_most_draw.empty(), rule == CaptureRule::WinsOnly);
  uint64_t positions = 0, resolved = 0, capped = 0;
  for (uint64_t slot = 0; slot < table.slots(); ++slot) {
    const Wdl white = table.at_slot(slot);
    if (white == Wdl::Illegal) {
      EXPECT_EQ(r->table.at_slot(slot), Wdl::Illegal);
      EXPECT_FALSE(r->at_most_draw_slot(slot));
      continue;
    }
    ++positions;
    const Position pos = table.encoding().position(table.symmetry().from_slot(slot));
    const Wdl mine = pos.side_to_move() == White ? white : negate(white);
    const bool reached = brute_capture_value(pos) == mine;
    const bool open = reached && mine == Wdl::Win;
    const bool cap = reached && rule == CaptureRule::ValueReached && (mine == Wdl::Draw || mine == Wdl::CursedWin);
    const bool unflag = reached && rule == CaptureRule::ValueReached && mine == Wdl::BlessedLoss;
    resolved += open;
    capped += cap;
    const Wdl want = open || cap ? Wdl::Illegal : unflag ? fold(white) : white;
    ASSERT_EQ(r->table.at_slot(slot), want) << "slot " << slot << ": " << pos.fen();
    ASSERT_EQ(r->at_most_draw_slot(slot), cap) << "slot " << slot << ": " << pos.fen();
  }
  EXPECT_EQ(r->positions, positions);
  EXPECT_EQ(r->resolved, resolved);
  EXPECT_EQ(r->draw_capped, capped);
  EXPECT_GT(resolved, 0u);
  if (rule == CaptureRule::ValueReached) {
    EXPECT_GT(capped, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Balances, CaptureResolve,
                         ::testing::Values(RuleCase{"KPvK", CaptureRule::ValueReached},
                                           RuleCase{"KQvKR", CaptureRule::ValueReached},
                                           RuleCase{"KQvKR", CaptureRule::WinsOnly}));

TEST(CaptureResolveErrors, NamesAMissingSuccessorTable) {
  auto t = test::shared_store().ensure(Balance::parse("KQvKR").value());
  ASSERT_TRUE(t.ok());
  auto r = resolve_captures(**t, [](const Balance&) -> const Table* { return nullptr; });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("needs the table of"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace egtmin
