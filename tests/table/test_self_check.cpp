// SPDX-License-Identifier: GPL-3.0-or-later
// The self-check proves generated tables from their successors, exactly with the generator's
// distances, and catches a single changed value.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/env.hpp"
#include "table/generator.hpp"
#include "table/self_check.hpp"
#include "table/table_store.hpp"

namespace egtmin {
namespace {

struct Generated {
  Table table;
  std::vector<uint8_t> distances;
};

Generated generate_with_distances(const char* name) {
  const Balance b = Balance::parse(name).value();
  for (const Balance& dep : successor_balances(b)) EXPECT_TRUE(test::shared_store().ensure(dep).ok());
  Generated g;
  GenerateOptions opts;
  opts.distances = &g.distances;
  auto t = generate(b, test::shared_lookup(), opts);
  EXPECT_TRUE(t.ok()) << t.error().message;
  g.table = std::move(*t);
  return g;
}

// The first slot that is a multiple of stride and holds value v, or the slot count when none does.
uint64_t first_slot_with(const Table& t, Wdl v, uint64_t stride = 1) {
  for (uint64_t s = 0; s < t.slots(); s += stride)
    if (t.at_slot(s) == v) return s;
  return t.slots();
}

SelfCheckOptions every(uint64_t stride) {
  SelfCheckOptions o;
  o.stride = stride;
  return o;
}

TEST(SelfCheck, ProvesGeneratedTablesExactlyWithDistances) {
  // Every position of two 3-piece tables; a sample of a 4-piece one with pawns on both sides.
  for (auto [name, stride] : {std::pair{"KRvK", 1}, std::pair{"KPvK", 1}, std::pair{"KPvKP", 5}}) {
    Generated g = generate_with_distances(name);
    SelfCheckReport r = self_check(g.table, test::shared_lookup(), g.distances, every(stride));
    EXPECT_TRUE(r.ok()) << name << ": " << (r.examples.empty() ? "" : r.examples.front());
    EXPECT_TRUE(r.exact_rule);
    EXPECT_EQ(r.counts.legal(), r.positions);
    EXPECT_EQ(r.counts.of(Wdl::Win) + r.counts.of(Wdl::Loss) + r.counts.of(Wdl::Draw), r.positions) << name;
  }
}

TEST(SelfCheck, PassesOnePlyWithoutDistances) {
  const Table& t = *test::shared_store().ensure(Balance::parse("KRvKP").value()).value();
  SelfCheckReport r = self_check(t, test::shared_lookup(), {}, every(13));
  EXPECT_TRUE(r.ok()) << (r.examples.empty() ? "" : r.examples.front());
  EXPECT_FALSE(r.exact_rule);
  EXPECT_GT(r.positions, 500000u);
}

// One changed value, of each kind that matters: across the rule-free values (caught by one ply),
// and a win made cursed (only the distances can tell).
// Without and with pawns: a pawn's single step stays in the table, and the check finds its slot
// from the placement as it does a piece's move.
class SelfCheckChanged : public ::testing::TestWithParam<const char*> {};

TEST_P(SelfCheckChanged, FailsOnOneChangedValue) {
  Generated g = generate_with_distances(GetParam());
  constexpr uint64_t kStride = 101;  // the changed slot is among the checked ones
  struct Change {
    Wdl from, to;
    bool needs_distances;
  };
  for (Change c : {Change{Wdl::Win, Wdl::Draw, false}, Change{Wdl::Draw, Wdl::Loss, false},
                   Change{Wdl::Win, Wdl::CursedWin, true}, Change{Wdl::Loss, Wdl::BlessedLoss, true}}) {
    Table t = g.table;
    const uint64_t slot = first_slot_with(t, c.from, kStride);
    ASSERT_LT(slot, t.slots());
    EXPECT_TRUE(self_check(t, test::shared_lookup(), g.distances, every(kStride)).ok());
    t.set_slot(slot, c.to);
    SelfCheckReport exact = self_check(t, test::shared_lookup(), g.distances, every(kStride));
    EXPECT_FALSE(exact.ok()) << name_of(c.from) << " -> " << name_of(c.to);
    EXPECT_GE(exact.failures, 1u);
    if (!c.needs_distances) {
      SelfCheckReport one_ply = self_check(t, test::shared_lookup(), {}, every(kStride));
      EXPECT_FALSE(one_ply.ok()) << name_of(c.from) << " -> " << name_of(c.to);
    }
  }
  // A wrong distance alone is caught too.
  std::vector<uint8_t> d = g.distances;
  const uint64_t slot = first_slot_with(g.table, Wdl::Win, kStride);
  d[slot] = uint8_t(d[slot] + 2);
  EXPECT_FALSE(self_check(g.table, test::shared_lookup(), d, every(kStride)).ok());
}

INSTANTIATE_TEST_SUITE_P(Balances, SelfCheckChanged, ::testing::Values("KQvKR", "KPvKP"));

TEST(SelfCheck, RefusesDistancesOfAnotherTable) {
  Generated g = generate_with_distances("KRvK");
  const Table& other = *test::shared_store().ensure(Balance::parse("KQvK").value()).value();
  std::vector<uint8_t> wrong(g.distances.begin(), g.distances.end() - 1);
  SelfCheckReport r = self_check(other, test::shared_lookup(), wrong);
  EXPECT_FALSE(r.ok());
  ASSERT_FALSE(r.examples.empty());
  EXPECT_NE(r.examples.front().find("do not belong"), std::string::npos);
}

}  // namespace
}  // namespace egtmin
