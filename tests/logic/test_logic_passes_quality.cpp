// SPDX-License-Identifier: GPL-3.0-or-later
// Invariants and quality of expand (logic/expand.cpp) and irredundant (logic/irredundant.cpp):
// every cover they return implements the function on every care minterm, expand returns primes,
// irredundant leaves no redundant cube, the covering solver reaches the brute-force minimum on
// small instances, and on functions with a known minimum the two passes reach it (KRvK: no more
// cubes than Berkeley espresso's 198 on the same compacted cover).
#include <gtest/gtest.h>
#include <bit>

#include <algorithm>
#include <array>
#include <numeric>
#include <random>

#include "logic/check.hpp"
#include "logic/expand.hpp"
#include "logic/irredundant.hpp"
#include "logic/passes.hpp"
#include "logic/pipeline.hpp"
#include "support/cubes.hpp"
#include "support/env.hpp"

namespace egtmin::logic {
namespace {

using test::cube_of;
using test::random_values;

// Each care minterm of output o is covered by a cube of `cover` (or `fixed`), and no cube of the
// cover contains a care minterm of another output.
::testing::AssertionResult exact_for_output(const Cover& cover, const Cover& fixed, int n,
                                            const std::vector<uint8_t>& values, Output o) {
  for (uint64_t i = 0; i < values.size(); ++i) {
    if (!values[i]) continue;
    CubeWord m = minterm(i, n);
    bool covered = false;
    for (const Cover* cv : {&cover, &fixed})
      for (CubeWord c : *cv) {
        if (!contains(c, m)) continue;
        if (values[i] != uint8_t(o))
          return ::testing::AssertionFailure()
                 << "cube " << to_text(c, n) << " holds minterm " << i << " of output " << int(values[i]);
        covered = true;
      }
    if (values[i] == uint8_t(o) && !covered) return ::testing::AssertionFailure() << "minterm " << i << " uncovered";
  }
  return ::testing::AssertionSuccess();
}

Cover minterms_of(const std::vector<uint8_t>& values, int n, Output o) {
  Cover f;
  for (uint64_t i = 0; i < values.size(); ++i)
    if (values[i] == uint8_t(o)) f.push_back(minterm(i, n, o));
  return f;
}

// Every cube of the cover is needed: without it some care minterm of o is uncovered.
::testing::AssertionResult irredundant_cover(const Cover& cover, const Cover& fixed, int n,
                                             const std::vector<uint8_t>& values, Output o) {
  for (size_t k = 0; k < cover.size(); ++k) {
    Cover rest = cover;
    rest.erase(rest.begin() + long(k));
    if (exact_for_output(rest, fixed, n, values, o))
      return ::testing::AssertionFailure() << "cube " << to_text(cover[k], n) << " is redundant";
  }
  return ::testing::AssertionSuccess();
}

// Every cube is prime: raising any literal makes it hold a care minterm of another output.
::testing::AssertionResult prime_cover(const Cover& cover, int n, const std::vector<uint8_t>& values) {
  for (CubeWord c : cover)
    for (int i = 0; i < n; ++i) {
      if (((c >> pair_shift(i)) & 3) == 3) continue;
      CubeWord raised = c | pair_mask(i);
      bool blocked = false;
      for (uint64_t m = 0; m < values.size() && !blocked; ++m)
        blocked = values[m] && values[m] != uint8_t(output_of(c)) && contains(raised, minterm(m, n));
      if (!blocked) return ::testing::AssertionFailure() << to_text(c, n) << " is not prime at input " << i;
    }
  return ::testing::AssertionSuccess();
}

// expand_one's greedy as first written: every literal's gain and block test on the whole set of
// minterms its raise adds, at every raise. expand_one keeps the gains from one raise to the next
// and visits only what is new; it must raise the same literals in the same order.
CubeWord expand_one_whole(const Expander& ex, CubeWord c, int n, const std::array<uint64_t, kMaxInputs>& freq,
                          int first, Expander::Rank rank) {
  int lits[kMaxInputs];
  int k = 0;
  for (int i = 0; i < n; ++i)
    if (((c >> pair_shift(i)) & 3) != 3 && i != first) lits[k++] = i;
  if (first >= 0) c |= pair_mask(first);
  while (k > 0) {
    int best = -1;
    uint64_t best_fresh = 0, best_all = 0;
    for (int t = 0; t < k;) {
      const int i = lits[t];
      const CubeWord pm = pair_mask(i);
      const CubeWord half = (c & ~pm) | (~c & pm);
      if (ex.blocked(half)) {
        lits[t] = lits[--k];
        continue;
      }
      auto [fresh, all] = ex.gain(half);
      if (rank == Expander::Rank::AllCoverage) fresh = 0;
      if (best < 0 || fresh > best_fresh || (fresh == best_fresh && all > best_all) ||
          (fresh == best_fresh && all == best_all && freq[size_t(i)] > freq[size_t(best)])) {
        best = i;
        best_fresh = fresh;
        best_all = all;
      }
      ++t;
    }
    if (best < 0) break;
    c |= pair_mask(best);
    for (int t = 0; t < k; ++t)
      if (lits[t] == best) {
        lits[t] = lits[--k];
        break;
      }
  }
  return c;
}

TEST(LogicPassesQuality, ExpandOneRaisesWhatTheWholeGreedyRaises) {
  std::mt19937_64 rng(17);
  for (int n : {8, 12}) {
    const std::vector<uint8_t> values = random_values(n, 0.3, rng);
    const CareFunction f = CareFunction::from_values(n, values);
    for (Output o : {Output::Win, Output::Draw, Output::Loss}) {
      Expander ex(f, o);
      std::array<uint64_t, kMaxInputs> freq{};
      for (auto& x : freq) x = rng() % 4;  // ties in gain then fall to freq, and some remain
      int compared = 0;
      for (uint64_t i = 0; i < values.size(); ++i) {
        if (values[i] != uint8_t(o)) continue;
        const CubeWord m = minterm(i, n, o);
        for (Expander::Rank rank : {Expander::Rank::NewCoverage, Expander::Rank::AllCoverage}) {
          const int first = rng() % 3 == 0 ? int(rng() % uint64_t(n)) : -1;
          if (first >= 0 && ex.blocked((m & ~pair_mask(first)) | (~m & pair_mask(first)))) continue;
          ASSERT_EQ(ex.expand_one(m, freq, first, rank), expand_one_whole(ex, m, n, freq, first, rank))
              << "n " << n << " minterm " << i;
          ++compared;
        }
        // Some minterms covered, so that fresh and all gains differ.
        if (rng() % 4 == 0) ex.mark(ex.expand_one(m, freq));
      }
      EXPECT_GT(compared, 10);
    }
  }
}

TEST(LogicPassesQuality, ExpandAndIrredundantKeepTheFunctionAndTheirPromises) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 18; ++trial) {
    const int n = 5 + trial % 6;
    const double dc = trial % 3 == 0 ? 0.0 : trial % 3 == 1 ? 0.4 : 0.85;
    auto values = random_values(n, dc, rng);
    CareFunction f = CareFunction::from_values(n, values);
    for (int s = 0; s < kOutputs; ++s) {
      Output o = slot_output(s);
      Cover cover = minterms_of(values, n, o);
      if (trial % 2) compact(cover);
      expand(cover, f, o);
      ASSERT_TRUE(exact_for_output(cover, {}, n, values, o)) << "expand, n=" << n << " dc=" << dc;
      EXPECT_TRUE(prime_cover(cover, n, values)) << "n=" << n << " dc=" << dc;
      irredundant(cover, {}, f, o);
      ASSERT_TRUE(exact_for_output(cover, {}, n, values, o)) << "irredundant, n=" << n << " dc=" << dc;
      EXPECT_TRUE(irredundant_cover(cover, {}, n, values, o)) << "n=" << n << " dc=" << dc;
    }
  }
}

// The same promises at high effort (more primes from expand, the row-weighting local search and
// the dominance reduction of the covering matrix in irredundant), and never more cubes than the
// normal effort's cover on these functions.
TEST(LogicPassesQuality, HighEffortKeepsTheFunctionAndTheirPromises) {
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 12; ++trial) {
    const int n = 6 + trial % 5;
    const double dc = trial % 3 == 0 ? 0.0 : trial % 3 == 1 ? 0.4 : 0.85;
    auto values = random_values(n, dc, rng);
    CareFunction f = CareFunction::from_values(n, values);
    for (int s = 0; s < kOutputs; ++s) {
      Output o = slot_output(s);
      Cover cover = minterms_of(values, n, o);
      if (trial % 2) compact(cover);
      Cover normal = cover;
      expand(normal, f, o);
      irredundant(normal, {}, f, o);
      expand(cover, f, o, no_progress(), Effort::High);
      ASSERT_TRUE(exact_for_output(cover, {}, n, values, o)) << "expand, n=" << n << " dc=" << dc;
      EXPECT_TRUE(prime_cover(cover, n, values)) << "n=" << n << " dc=" << dc;
      irredundant(cover, {}, f, o, Effort::High);
      ASSERT_TRUE(exact_for_output(cover, {}, n, values, o)) << "irredundant, n=" << n << " dc=" << dc;
      EXPECT_TRUE(irredundant_cover(cover, {}, n, values, o)) << "n=" << n << " dc=" << dc;
      EXPECT_LE(cover.size(), normal.size()) << "n=" << n << " dc=" << dc;
    }
  }
}

TEST(LogicPassesQuality, IrredundantCountsFixedCubesAndDropsDuplicates) {
  std::mt19937_64 rng(5);
  auto values = random_values(8, 0.5, rng);
  CareFunction f = CareFunction::from_values(8, values);
  for (int s = 0; s < kOutputs; ++s) {
    Output o = slot_output(s);
    Cover cover = minterms_of(values, 8, o);
    expand(cover, f, o);
    Cover fixed, work;
    for (size_t k = 0; k < cover.size(); ++k) (k % 3 == 0 ? fixed : work).push_back(cover[k]);
    Cover doubled = work;
    doubled.insert(doubled.end(), work.begin(), work.end());
    irredundant(doubled, fixed, f, o);
    EXPECT_TRUE(exact_for_output(doubled, fixed, 8, values, o));
    EXPECT_TRUE(irredundant_cover(doubled, fixed, 8, values, o));
    std::sort(doubled.begin(), doubled.end());
    EXPECT_EQ(std::adjacent_find(doubled.begin(), doubled.end()), doubled.end());
  }
}

TEST(LogicPassesQuality, EveryExpandEffortKeepsTheFunction) {
  std::mt19937_64 rng(23);
  auto values = random_values(9, 0.6, rng);
  CareFunction f = CareFunction::from_values(9, values);
  for (ExpandEffort e : {ExpandEffort{1, 0, 0, 0, 0}, ExpandEffort{1, 0, 2, 0, 1}, ExpandEffort{4, 3, 6, 1, 1},
                         ExpandEffort{2, 1, 3, 1, 0}})
    for (int s = 0; s < kOutputs; ++s) {
      Output o = slot_output(s);
      Cover cover = minterms_of(values, 9, o);
      expand_with(cover, f, o, e);
      EXPECT_TRUE(exact_for_output(cover, {}, 9, values, o));
      EXPECT_TRUE(prime_cover(cover, 9, values));
    }
}

// The cyclic function of three inputs: ON = {0, 1, 2, 5, 6, 7}, OFF = {3, 4}. Six primes, each
// minterm in two of them, and a minimum cover of three (greedy removal from all six can stop
// at four).
TEST(LogicPassesQuality, CyclicFunctionReachesItsMinimumOfThree) {
  std::vector<uint8_t> values(8, uint8_t(Output::Win));
  values[3] = values[4] = uint8_t(Output::Loss);
  CareFunction f = CareFunction::from_values(3, values);
  Cover primes = {cube_of("00-", Output::Win), cube_of("0-0", Output::Win), cube_of("-01", Output::Win),
                  cube_of("-10", Output::Win), cube_of("1-1", Output::Win), cube_of("11-", Output::Win)};
  Cover c = primes;
  irredundant(c, {}, f, Output::Win);
  EXPECT_EQ(c.size(), 3u);
  EXPECT_TRUE(exact_for_output(c, {}, 3, values, Output::Win));
  Cover m = minterms_of(values, 3, Output::Win);
  expand(m, f, Output::Win);
  irredundant(m, {}, f, Output::Win);
  EXPECT_EQ(m.size(), 3u);
  EXPECT_TRUE(exact_for_output(m, {}, 3, values, Output::Win));
}

TEST(LogicPassesQuality, CoverSolverReachesTheBruteForceMinimum) {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 60; ++trial) {
    const uint32_t rows = 8 + uint32_t(rng() % 20), cols = 6 + uint32_t(rng() % 9);
    std::vector<std::vector<uint32_t>> col(cols);
    for (uint32_t j = 0; j < cols; ++j)
      for (uint32_t r = 0; r < rows; ++r)
        if (rng() % 4 == 0) col[j].push_back(r);
    // Make every row coverable.
    for (uint32_t r = 0; r < rows; ++r) {
      bool any = false;
      for (auto& c : col) any |= std::find(c.begin(), c.end(), r) != c.end();
      if (!any) {
        auto& c = col[rng() % cols];
        c.insert(std::upper_bound(c.begin(), c.end(), r), r);
      }
    }
    std::vector<uint32_t> start{0}, flat;
    for (auto& c : col) {
      flat.insert(flat.end(), c.begin(), c.end());
      start.push_back(uint32_t(flat.size()));
    }
    auto covers = [&](uint32_t mask) {
      std::vector<char> hit(rows, 0);
      for (uint32_t j = 0; j < cols; ++j)
        if (mask >> j & 1)
          for (uint32_t r : col[j]) hit[r] = 1;
      return std::count(hit.begin(), hit.end(), char(1)) == long(rows);
    };
    int best = int(cols);
    for (uint32_t mask = 0; mask < (uint32_t{1} << cols); ++mask)
      if (std::popcount(mask) < best && covers(mask)) best = std::popcount(mask);
    // The same problem with a copy of every row, at other row numbers: the solver merges equal
    // rows, with or without their column lists.
    std::vector<uint32_t> start2{0}, flat2;
    const uint32_t rows2 = 2 * rows;
    std::vector<uint32_t> copy_at(rows);
    std::iota(copy_at.begin(), copy_at.end(), 0u);
    std::shuffle(copy_at.begin(), copy_at.end(), rng);
    for (auto& c : col) {
      std::vector<uint32_t> c2(c);
      for (uint32_t r : c) c2.push_back(rows + copy_at[r]);
      std::sort(c2.begin(), c2.end());
      flat2.insert(flat2.end(), c2.begin(), c2.end());
      start2.push_back(uint32_t(flat2.size()));
    }
    // Without and with the local search (which also reduces the matrix by dominance first).
    for (uint64_t steps : {uint64_t{0}, uint64_t{2000}})
      for (bool copies : {false, true}) {
        auto pick = copies ? solve_cover(rows2, cols, start2, flat2, {}, CoverSearch::Thorough, steps)
                           : solve_cover(rows, cols, start, flat, {}, CoverSearch::Thorough, steps);
        uint32_t mask = 0;
        for (uint32_t j : pick) mask |= uint32_t{1} << j;
        ASSERT_TRUE(covers(mask)) << "trial " << trial << " steps " << steps << " copies " << copies;
        EXPECT_EQ(int(pick.size()), best) << "trial " << trial << " steps " << steps << " copies " << copies;
      }
  }
}

// The local search alone, from a poor cover (every column), on matrices too big to brute-force:
// the result covers every row and is no larger than the greedy solver's.
TEST(LogicPassesQuality, CoverLocalSearchCoversAndNeverGrows) {
  std::mt19937_64 rng(31);
  for (int trial = 0; trial < 20; ++trial) {
    const uint32_t rows = 200 + uint32_t(rng() % 400), cols = 60 + uint32_t(rng() % 120);
    std::vector<std::vector<uint32_t>> col(cols);
    for (uint32_t r = 0; r < rows; ++r) {
      col[rng() % cols].push_back(r);  // every row coverable
      for (uint32_t j = 0; j < cols; ++j)
        if (rng() % 25 == 0 && (col[j].empty() || col[j].back() != r)) col[j].push_back(r);
    }
    std::vector<uint32_t> start{0}, flat;
    for (auto& c : col) {
      flat.insert(flat.end(), c.begin(), c.end());
      start.push_back(uint32_t(flat.size()));
    }
    auto plain = solve_cover(rows, cols, start, flat, {}, CoverSearch::Quick);
    auto searched = solve_cover(rows, cols, start, flat, {}, CoverSearch::Quick, 20000);
    std::vector<char> hit(rows, 0);
    for (uint32_t j : searched)
      for (uint32_t r : col[j]) hit[r] = 1;
    EXPECT_EQ(std::count(hit.begin(), hit.end(), char(1)), long(rows)) << "trial " << trial;
    EXPECT_LE(searched.size(), plain.size()) << "trial " << trial;
    EXPECT_TRUE(std::is_sorted(searched.begin(), searched.end()));
  }
}

// High effort on whole 3-piece balances: the function on every legal position is unchanged
// (exhaustive check) and the cover is never larger than normal effort's.
TEST(LogicPassesQuality, HighEffortBalancesCheckAndNeverGrow) {
  for (const char* name : {"KRvK", "KQvK", "KPvK"}) {
    auto b = Balance::parse(name);
    auto t = test::shared_store().ensure(b->canonical());
    ASSERT_TRUE(t) << t.error().message;
    const auto passes = *parse_passes("canon,compact,expand,irredundant");
    MinimizeOptions normal{CanonScheme::Full, 2};
    MinimizeOptions high = normal;
    high.effort = Effort::High;
    auto n = minimize_table(**t, passes, normal);
    auto h = minimize_table(**t, passes, high);
    ASSERT_TRUE(n && h);
    EXPECT_LE(h->cover.size(), n->cover.size()) << name;
    auto c = check_cover(**t, h->cover, h->scheme, h->rule_draws, logic::Output::None, 0, 1, 2);
    EXPECT_TRUE(c.exhaustive);
    EXPECT_GT(c.positions, 0u);
    EXPECT_EQ(c.mismatches, 0u) << name << ": " << c.first_mismatch;
  }
}

// Berkeley espresso 2.3 finds 198 cubes for KRvK's compacted cover (docs/bench-logic.md);
// compact, expand, irredundant must not need more.
TEST(LogicPassesQuality, KRvKNoMoreCubesThanBerkeleyEspresso) {
  auto b = Balance::parse("KRvK");
  auto t = test::shared_store().ensure(b->canonical());
  ASSERT_TRUE(t) << t.error().message;
  auto r =
      minimize_table(**t, *parse_passes("canon,compact,expand,irredundant"), MinimizeOptions{CanonScheme::Full, 2});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_LE(r->cover.size(), 198u);
}

}  // namespace
}  // namespace egtmin::logic
