// SPDX-License-Identifier: GPL-3.0-or-later
// Capture-resolved don't-cares: exactly the won positions with a winning capture or promotion
// are left open, checked against a brute force over every canonical slot.
#include <gtest/gtest.h>

#include "support/env.hpp"
#include "table/capture_resolve.hpp"
#include "table/table_store.hpp"

namespace egtmin {
namespace {

// Brute force: the value of every capture and promotion from the tables, for the side to move.
bool brute_capture_wins(const Position& pos) {
  for (const Move& m : legal_moves(pos)) {
    if (!pos.is_capture(m) && m.promotion == NoPieceType) continue;
    const Position after = pos.after(m);
    const Balance b = Balance::of(after);
    auto t = test::shared_store().ensure(b.canonical());
    EXPECT_TRUE(t.ok());
    const Position p = b.is_canonical() ? after : after.color_flipped();
    const Wdl white = (*t)->value(p);
    if ((p.side_to_move() == White ? white : negate(white)) == Wdl::Loss) return true;
  }
  return false;
}

class CaptureResolve : public ::testing::TestWithParam<const char*> {};

TEST_P(CaptureResolve, LeavesExactlyTheWinsACaptureOrPromotionWins) {
  const Balance b = Balance::parse(GetParam()).value();
  auto t = test::shared_store().ensure(b);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const Table& table = **t;
  auto r = resolve_captures(table, test::shared_lookup(), 2);
  ASSERT_TRUE(r.ok()) << r.error().message;
  uint64_t positions = 0, resolved = 0;
  for (uint64_t slot = 0; slot < table.slots(); ++slot) {
    const Wdl white = table.at_slot(slot);
    if (white == Wdl::Illegal) {
      EXPECT_EQ(r->table.at_slot(slot), Wdl::Illegal);
      continue;
    }
    ++positions;
    const Position pos = table.encoding().position(table.symmetry().from_slot(slot));
    const Wdl mine = pos.side_to_move() == White ? white : negate(white);
    const bool open = mine == Wdl::Win && brute_capture_wins(pos);
    resolved += open;
    ASSERT_EQ(r->table.at_slot(slot), open ? Wdl::Illegal : white) << "slot " << slot << ": " << pos.fen();
  }
  EXPECT_EQ(r->positions, positions);
  EXPECT_EQ(r->resolved, resolved);
  EXPECT_GT(resolved, 0u);
}

INSTANTIATE_TEST_SUITE_P(Balances, CaptureResolve, ::testing::Values("KPvK", "KQvKR"));

TEST(CaptureResolveErrors, NamesAMissingSuccessorTable) {
  auto t = test::shared_store().ensure(Balance::parse("KQvKR").value());
  ASSERT_TRUE(t.ok());
  auto r = resolve_captures(**t, [](const Balance&) -> const Table* { return nullptr; });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("needs the table of"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace egtmin
