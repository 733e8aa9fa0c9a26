// SPDX-License-Identifier: GPL-3.0-or-later
// Minimizing in parts (logic/split.hpp): parts are the function's slices, cubes lift back to the
// whole function, and a split run gives an exact cover.
#include <gtest/gtest.h>

#include <random>

#include "logic/check.hpp"
#include "logic/expand.hpp"
#include "logic/irredundant.hpp"
#include "logic/pipeline.hpp"
#include "logic/split.hpp"
#include "support/env.hpp"

namespace egtmin::logic {
namespace {

CareFunction random_function(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> v(size_t(1) << n);
  for (auto& x : v) x = uint8_t(rng() % 5 < 2 ? 0 : rng() % 3 + 1);  // 40 % don't-cares
  return CareFunction::from_values(n, v);
}

TEST(LogicSplit, PartsAreSlicesAndCubesLiftBack) {
  const int n = 13;
  const CareFunction f = random_function(n, 3);
  const Split split{{1, 4, 6}};
  ASSERT_TRUE(splittable(f, 6));
  EXPECT_FALSE(splittable(f, 7));  // index bit 5: inside a 64-bit word
  uint64_t care = 0;
  const auto counts = part_care_counts(f, split);
  for (uint64_t p = 0; p < split.parts(); ++p) {
    const CareFunction part = split_part(f, split, p);
    ASSERT_EQ(part.inputs(), n - 3);
    EXPECT_EQ(part.care_count(), counts[p]);
    care += part.care_count();
    // Every minterm of the part is the lifted minterm's value in f.
    for (uint64_t i = 0; i < (uint64_t{1} << part.inputs()); ++i)
      for (Output o : {Output::Win, Output::Draw, Output::Loss}) {
        const CubeWord lifted = unsplit(minterm(i, part.inputs(), o), split, p, n);
        uint64_t index = 0;  // the lifted minterm's index in f
        for (int b = 0; b < n; ++b) index = (index << 1) | ((lifted >> pair_shift(b)) & 1);
        EXPECT_EQ(part.on(o).test(i), f.on(o).test(index)) << "part " << p << " minterm " << i;
        EXPECT_EQ(output_of(lifted), o);
      }
  }
  EXPECT_EQ(care, f.care_count());
}

TEST(LogicSplit, ChosenSplitBringsEveryPartUnderTheLimit) {
  const CareFunction f = random_function(14, 5);
  const Split none = choose_split(f, f.care_count(), 4);
  EXPECT_TRUE(none.inputs.empty());
  const Split s = choose_split(f, f.care_count() / 5, 4);
  ASSERT_EQ(s.inputs.size(), 3u);  // random halves: three inputs give eighths
  for (uint64_t c : part_care_counts(f, s)) EXPECT_LE(c, f.care_count() / 5);
  for (int i : s.inputs) EXPECT_TRUE(splittable(f, i));
}

TEST(LogicSplit, AgreementIsTheShareOfNeighboursWithTheSameOutput) {
  // Output depends on input 0 only: across input 0 never the same, across any other always.
  const int n = 8;
  std::vector<uint8_t> v(size_t(1) << n);
  for (size_t i = 0; i < v.size(); ++i) v[i] = (i >> (n - 1)) ? 1 : 2;
  const CareFunction f = CareFunction::from_values(n, v);
  EXPECT_DOUBLE_EQ(input_agreement(f, 0), 0.0);
  EXPECT_DOUBLE_EQ(input_agreement(f, 1), 1.0);
}

TEST(LogicSplit, ParseNamesTheBadInput) {
  EXPECT_FALSE(parse_split("auto")->has_value());
  EXPECT_TRUE(parse_split("none")->value().empty());
  EXPECT_EQ(parse_split("0,16,7")->value(), (std::vector<int>{0, 16, 7}));
  auto bad = parse_split("0,x");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("\"x\""), std::string::npos);
  EXPECT_FALSE(parse_split("31"));
  EXPECT_FALSE(parse_split("0,,1"));
}

// A balance minimized in eight parts is exact over every legal position, and its cover stays
// close to the unsplit one.
TEST(LogicSplit, SplitRunIsExact) {
  auto t = test::shared_store().ensure(*Balance::parse("KPvK"));
  ASSERT_TRUE(t) << t.error().message;
  const auto passes = *parse_passes("canon,compact,expand,irredundant");
  MinimizeOptions split_opts{CanonScheme::Full, 2};
  split_opts.split = std::vector<int>{0, 1, 7};
  auto r = minimize_table(**t, passes, split_opts);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->split_inputs, (std::vector<int>{0, 1, 7}));
  auto c = check_cover(**t, r->cover, r->scheme, r->rule_draws, logic::Output::None, 0, 1, 2);
  EXPECT_TRUE(c.exhaustive);
  EXPECT_EQ(c.mismatches, 0u) << c.first_mismatch;
  ASSERT_EQ(r->reports.size(), passes.size());
  EXPECT_EQ(r->reports.back().cubes, r->cover.size());
  // Two threads ran two parts at a time; one thread runs them in turn, to the same cover.
  MinimizeOptions serial_opts{CanonScheme::Full, 1};
  serial_opts.split = split_opts.split;
  auto serial = minimize_table(**t, passes, serial_opts);
  ASSERT_TRUE(serial) << serial.error().message;
  EXPECT_EQ(serial->cover, r->cover);
  // Small enough for one part: auto does not split it.
  auto whole = minimize_table(**t, passes, MinimizeOptions{CanonScheme::Full, 2});
  ASSERT_TRUE(whole);
  EXPECT_TRUE(whole->split_inputs.empty());
  EXPECT_LT(double(r->cover.size()), 1.25 * double(whole->cover.size()));
}

// Normal effort leaves irredundant's local search out of a split function's parts (whole
// functions keep it; high effort keeps it everywhere). SplitRunIsExact runs such parts.
TEST(LogicSplit, PartsAtNormalEffortSkipTheLocalSearch) {
  EXPECT_EQ(irredundant_steps(1000, Effort::Normal, FunctionScope::Part), 0u);
  EXPECT_GT(irredundant_steps(1000, Effort::Normal, FunctionScope::Whole), 0u);
  EXPECT_GT(irredundant_steps(1000, Effort::High, FunctionScope::Part),
            irredundant_steps(1000, Effort::Normal, FunctionScope::Whole));
}

// ... and expand makes a large cover's primes on a part, whatever its size: one seed order, no
// alternative primes, one LAST_GASP round. High effort and whole functions keep theirs.
TEST(LogicSplit, PartsAtNormalEffortExpandAsALargeCover) {
  const ExpandEffort part = expand_effort(5000, Effort::Normal, FunctionScope::Part);
  EXPECT_EQ(part.orders, 1);
  EXPECT_EQ(part.trials, 0);
  EXPECT_EQ(part.gasp_rounds, 1);
  const ExpandEffort whole = expand_effort(5000, Effort::Normal, FunctionScope::Whole);
  EXPECT_GT(whole.orders, 1);
  EXPECT_GT(whole.gasp_rounds, part.gasp_rounds);
  const ExpandEffort high = expand_effort(5000, Effort::High, FunctionScope::Part);
  EXPECT_GT(high.orders, 1);
  EXPECT_GT(high.gasp_rounds, whole.gasp_rounds);
}

}  // namespace
}  // namespace egtmin::logic
