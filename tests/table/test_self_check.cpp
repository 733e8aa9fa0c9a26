// SPDX-License-Identifier: GPL-3.0-or-later
// The self-check proves generated tables from their successors, exactly with the generator's
// distances, and catches a single changed value; the five values and the table format around it.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <map>
#include <string>

#include "support/env.hpp"
#include "table/generator.hpp"
#include "table/self_check.hpp"
#include "table/table_store.hpp"
#include "util/atomic_file.hpp"

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

TEST(Wdl, FiveValuesNegateFoldAndOrder) {
  EXPECT_EQ(negate(Wdl::CursedWin), Wdl::BlessedLoss);
  EXPECT_EQ(negate(Wdl::BlessedLoss), Wdl::CursedWin);
  EXPECT_EQ(negate(Wdl::Draw), Wdl::Draw);
  EXPECT_EQ(fold(Wdl::CursedWin), Wdl::Win);
  EXPECT_EQ(fold(Wdl::BlessedLoss), Wdl::Loss);
  EXPECT_EQ(better(Wdl::CursedWin, Wdl::Win), Wdl::Win);
  EXPECT_EQ(better(Wdl::BlessedLoss, Wdl::Draw), Wdl::Draw);
  EXPECT_EQ(better(Wdl::BlessedLoss, Wdl::Loss), Wdl::BlessedLoss);
  EXPECT_EQ(better(Wdl::Illegal, Wdl::Loss), Wdl::Loss);
  EXPECT_EQ(wdl_score(Wdl::Loss), -2);
  EXPECT_EQ(wdl_score(Wdl::Win), 2);
  EXPECT_EQ(name_of(Wdl::CursedWin), "cursed win");
}

TEST(TableFile, KeepsAllFiveValues) {
  Table t(Balance::parse("KRvK").value());
  const Wdl values[] = {Wdl::Win, Wdl::CursedWin, Wdl::Draw, Wdl::BlessedLoss, Wdl::Loss, Wdl::Illegal};
  for (uint64_t s = 0; s < 64; ++s) t.set_slot(s, values[s % 6]);
  auto back = Table::deserialize(t.serialize(), "memory");
  ASSERT_TRUE(back.ok()) << back.error().message;
  for (uint64_t s = 0; s < 64; ++s) EXPECT_EQ(back->at_slot(s), values[s % 6]) << s;
}

// A table written before the five values is refused with a message that says to regenerate, and
// the store regenerates it rather than use it.
TEST(TableFile, OlderFormatIsRegenerated) {
  const auto dir = std::filesystem::path(EGTMIN_TEST_DATA) / "older-format";
  std::filesystem::remove_all(dir);
  TableStore store(dir);
  ASSERT_TRUE(store.ensure(Balance::parse("KRvK").value()).ok());
  const auto path = store.path_for(Balance::parse("KRvK").value());
  auto bytes = read_file(path).value();
  const uint32_t old_version = 1;
  std::memcpy(bytes.data() + 8, &old_version, 4);
  ASSERT_TRUE(write_file_atomically(path, bytes).ok());
  EXPECT_TRUE(Table::is_older_format(path));
  auto loaded = Table::load(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().message.find("regenerate"), std::string::npos) << loaded.error().message;
  EXPECT_NE(loaded.error().message.find("cursed"), std::string::npos) << loaded.error().message;
  TableStore fresh(dir);
  auto t = fresh.ensure(Balance::parse("KRvK").value());
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_FALSE(Table::is_older_format(path));
  std::filesystem::remove_all(dir);
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
  SelfCheckReport r = self_check(*t, lookup, distances, every(1));
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

// Making a table's dependencies keeps in memory only the successors of the table being made
// (and whatever the caller had loaded): a closure batch of five-piece tables, half a gigabyte
// each, held every table it made until it outgrew the machine.
TEST(TableStore, EnsureKeepsOnlyWhatTheNextTableNeeds) {
  const auto dir = std::filesystem::path(EGTMIN_TEST_DATA) / "store-eviction";
  std::filesystem::remove_all(dir);
  TableStore store(dir);
  const Balance kqvk = Balance::parse("KQvK").value();
  ASSERT_TRUE(store.ensure(kqvk).ok());
  store.unload_all();
  ASSERT_TRUE(store.get(kqvk).ok());  // what the caller holds
  const Balance krvkn = Balance::parse("KRvKN").value();
  ASSERT_TRUE(store.ensure(krvkn).ok());
  EXPECT_TRUE(store.on_disk(Balance::parse("KvK").value()));
  EXPECT_FALSE(store.is_loaded(Balance::parse("KvK").value())) << "KvK is no successor of KRvKN";
  EXPECT_TRUE(store.is_loaded(Balance::parse("KRvK").value()));
  EXPECT_TRUE(store.is_loaded(krvkn));
  EXPECT_TRUE(store.is_loaded(kqvk)) << "loaded before the call: the caller may hold it";
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace egtmin
