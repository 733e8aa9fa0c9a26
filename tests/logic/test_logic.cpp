// SPDX-License-Identifier: GPL-3.0-or-later
// The logic minimizer: bitmap queries, each pass and pipelines on random small functions (checked
// by brute force), chess tables checked exhaustively, PLA round trips and error messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <random>
#include <string>

#include "logic/bit_tree.hpp"
#include "logic/check.hpp"
#include "logic/coverage.hpp"
#include "logic/passes.hpp"
#include "logic/pipeline.hpp"
#include "logic/pla.hpp"
#include "support/cubes.hpp"
#include "support/env.hpp"

namespace egtmin::logic {
namespace {

using test::cube_of;
using test::random_values;

// Every care minterm is covered by a cube of its output, and no cube contains a care minterm of
// another output.
::testing::AssertionResult exact_on_care(const Cover& cover, int n, const std::vector<uint8_t>& values) {
  for (uint64_t i = 0; i < values.size(); ++i) {
    if (!values[i]) continue;
    CubeWord m = minterm(i, n);
    bool covered = false;
    for (CubeWord c : cover) {
      if (!contains(c, m)) continue;
      if (uint8_t(output_of(c)) != values[i])
        return ::testing::AssertionFailure()
               << "cube " << to_text(c, n) << " contains minterm " << i << " of output " << int(values[i]);
      covered = true;
    }
    if (!covered)
      return ::testing::AssertionFailure() << "minterm " << i << " (output " << int(values[i]) << ") uncovered";
  }
  return ::testing::AssertionSuccess();
}

TEST(LogicBitTree, QueriesMatchBruteForce) {
  std::mt19937_64 rng(7);
  for (int n : {3, 7, 13, 14}) {
    BitTree t(n);
    std::vector<bool> ref(size_t(1) << n);
    for (uint64_t i = 0; i < ref.size(); ++i)
      if (rng() % 50 == 0) {
        t.set(i);
        ref[i] = true;
      }
    t.finish();
    for (int trial = 0; trial < 300; ++trial) {
      std::string s;
      for (int i = 0; i < n; ++i) s += "01--"[rng() % 4];
      CubeWord c = cube_of(s, Output::Win);
      std::vector<uint64_t> want, got;
      for (uint64_t i = 0; i < ref.size(); ++i)
        if (ref[i] && contains(c, minterm(i, n))) want.push_back(i);
      for_each_in(t, c, [&](uint64_t i) { got.push_back(i); });
      ASSERT_EQ(want, got) << s;
      ASSERT_EQ(!want.empty(), intersects(t, c)) << s;
    }
  }
}

// cube_masks against its definition: value x of group g is allowed when each of its six index bits
// is one the cube admits (bits past the last input only as 0), for every width a cube word holds.
TEST(LogicBitTree, CubeMasksFollowTheirDefinition) {
  std::mt19937_64 rng(5);
  for (int n = 1; n <= 31; ++n)
    for (int trial = 0; trial < 200; ++trial) {
      std::string s;
      for (int i = 0; i < n; ++i) s += "01--"[rng() % 4];
      const CubeWord c = cube_of(s, Output(rng() % 4));
      const CubeMasks m = cube_masks(c, n);
      for (int g = 0; 6 * g < n; ++g)
        for (unsigned x = 0; x < 64; ++x) {
          bool allowed = true;
          for (int b = 0; b < 6; ++b) {
            const int p = 6 * g + b;  // index bit p is input n - 1 - p
            const unsigned bit = (x >> b) & 1;
            allowed &= p >= n ? bit == 0 : s[size_t(n - 1 - p)] == '-' || unsigned(s[size_t(n - 1 - p)] - '0') == bit;
          }
          ASSERT_EQ((m.m[g] >> x) & 1, uint64_t(allowed)) << n << " " << s << " group " << g << " value " << x;
        }
    }
}

// OnceCoverage against counts kept minterm by minterm: held exactly once, word by word, and the
// supercube of what a cube holds once, as cubes are added.
TEST(LogicCoverage, OnceCoverageTellsMintermsHeldOnceFromTheRest) {
  std::mt19937_64 rng(5);
  for (int n : {7, 13}) {
    const std::vector<uint8_t> values = random_values(n, 0.3, rng);
    const CareFunction f = CareFunction::from_values(n, values);
    const Output o = Output::Win;
    OnceCoverage once(f, o);
    std::vector<int> count(values.size(), 0);
    Cover cubes;
    for (int added = 0; added < 40; ++added) {
      std::string s;
      for (int i = 0; i < n; ++i) s += "01---"[rng() % 5];
      const CubeWord c = cube_of(s, o);
      cubes.push_back(c);
      once.add(c);
      for (uint64_t i = 0; i < values.size(); ++i) count[i] += contains(c, minterm(i, n));
      for (CubeWord q : cubes) {
        CubeWord want = 0;
        for (uint64_t i = 0; i < values.size(); ++i)
          if (f.on(o).test(i) && contains(q, minterm(i, n)) && count[i] == 1) want |= minterm(i, n) & kInputMask;
        for_each_word_in(f.on(o), q, [&](uint64_t word, uint64_t bits) {
          uint64_t expected = 0;
          for (uint64_t b = bits; b; b &= b - 1) {
            const int bit = std::countr_zero(b);
            if (count[word * 64 + uint64_t(bit)] == 1) expected |= uint64_t{1} << bit;
          }
          ASSERT_EQ(once.exactly_one(word, bits), expected) << s << " word " << word;
        });
        ASSERT_EQ(once.unique_supercube(q), want) << s;
      }
    }
  }
}

TEST(LogicMinterm, FastMatchesReference) {
  for (int n : {1, 7, 19, 25, 31})
    for (uint64_t i : {uint64_t{0}, uint64_t{1}, uint64_t{12345}, (uint64_t{1} << n) - 1})
      EXPECT_EQ(minterm_fast(i & ((uint64_t{1} << n) - 1), n, Output::Draw),
                minterm(i & ((uint64_t{1} << n) - 1), n, Output::Draw));
}

TEST(LogicCompact, MergesDistanceOnePairsToFixpoint) {
  Cover f;
  for (int i = 0; i < 8; ++i) f.push_back(minterm(uint64_t(i), 3, Output::Win));
  compact(f);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(to_text(f[0], 3), "X XX 100");

  // The paper's examples: 0X01 + 0X11 -> 0XX1; 100X + 10XX -> 10XX; X011 + X0X1 -> X0X1.
  Cover g = {cube_of("0-01", Output::Win), cube_of("0-11", Output::Win)};
  compact(g);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0], cube_of("0--1", Output::Win));
  Cover h = {cube_of("100-", Output::Draw), cube_of("10--", Output::Draw)};
  compact(h);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0], cube_of("10--", Output::Draw));

  // Different outputs never merge; non-adjacent minterms stay.
  Cover k = {cube_of("00", Output::Win), cube_of("01", Output::Loss), cube_of("11", Output::Win)};
  compact(k);
  EXPECT_EQ(k.size(), 3u);
}

// merge_on as it was first written: a sort that makes each group of cubes equal but at the input
// adjacent, then one cube a group. The linear merge must leave the same cubes and say the same.
bool merge_on_by_sorting(Cover& f, int input) {
  const CubeWord pm = pair_mask(input);
  const int sh = pair_shift(input);
  std::sort(f.begin(), f.end(), [pm](CubeWord a, CubeWord b) { return (a | pm) < (b | pm); });
  bool merged = false;
  size_t w = 0;
  for (size_t r = 0; r < f.size();) {
    const CubeWord key = f[r] | pm;
    bool has0 = false, has1 = false, hasx = false;
    size_t s = r;
    for (; s < f.size() && (f[s] | pm) == key; ++s) {
      unsigned p = unsigned(f[s] >> sh) & 3;
      has0 |= p == 2;
      has1 |= p == 1;
      hasx |= p == 3;
    }
    merged |= !hasx && has0 && has1;
    f[w++] = hasx || (has0 && has1) ? key : f[r];
    r = s;
  }
  f.resize(w);
  return merged;
}

TEST(LogicCompact, LinearMergeMatchesTheSortingOneAndKeepsValueOrder) {
  std::mt19937_64 rng(11);
  const int n = 7;
  for (int trial = 0; trial < 300; ++trial) {
    // Cubes of two outputs with few literals each, so that groups, copies and swallowed cubes occur.
    Cover f;
    const int cubes = int(rng() % 200) + 1;
    for (int c = 0; c < cubes; ++c) {
      std::string text(size_t(n), '-');
      for (auto& ch : text) ch = "01-"[rng() % 3];
      f.push_back(cube_of(text, rng() % 4 ? Output::Win : Output::Loss));
    }
    Cover linear = f;
    std::sort(linear.begin(), linear.end());
    Cover sorting = f;
    MergeBuffers buffers;
    for (int round = 0; round < 2; ++round)
      for (int input = 0; input < n; ++input) {
        const bool merged = merge_on(linear, input, buffers);
        ASSERT_EQ(merged, merge_on_by_sorting(sorting, input)) << "trial " << trial << " input " << input;
        ASSERT_TRUE(std::is_sorted(linear.begin(), linear.end()));
        Cover expected = sorting;
        std::sort(expected.begin(), expected.end());
        ASSERT_EQ(linear, expected) << "trial " << trial << " input " << input;
      }
    // compact ends in the order the sorting steps left (the last input's key order).
    Cover compacted = f, reference = f;
    compact(compacted);
    const std::vector<int> inputs = literal_inputs(reference);
    for (bool merged = true; merged;) {
      merged = false;
      for (int input : inputs) merged |= merge_on_by_sorting(reference, input);
    }
    EXPECT_EQ(compacted, reference) << "trial " << trial;
  }
}

TEST(LogicPasses, EachPassAndPipelinePreservesTheFunction) {
  std::mt19937_64 rng(42);
  const std::vector<std::string> pipelines = {"compact",
                                              "expand",
                                              "irredundant",
                                              "reduce",
                                              "essential",
                                              "espresso",
                                              "compact,expand",
                                              "compact,expand,irredundant",
                                              "expand,irredundant,reduce,expand,irredundant",
                                              "compact,essential,expand,irredundant",
                                              "reduce,compact,espresso",
                                              "compact,expand,irredundant,espresso",
                                              "canon,compact,expand,irredundant"};
  for (int trial = 0; trial < 12; ++trial) {
    int n = 6 + trial % 5;
    double dc = trial % 3 == 0 ? 0.0 : trial % 3 == 1 ? 0.3 : 0.8;
    auto values = random_values(n, dc, rng);
    for (const auto& p : pipelines) {
      auto passes = parse_passes(p);
      ASSERT_TRUE(passes) << passes.error().message;
      auto r = minimize_function(CareFunction::from_values(n, values), *passes, MinimizeOptions{CanonScheme::Full, 2});
      ASSERT_TRUE(r) << r.error().message;
      EXPECT_TRUE(exact_on_care(r->cover, n, values)) << "n=" << n << " dc=" << dc << " passes=" << p;
      ASSERT_EQ(r->reports.size(), passes->size());
      EXPECT_EQ(r->reports.back().cubes, r->cover.size());
    }
  }
}

TEST(LogicPasses, ExpandAndIrredundantShrinkTheCover) {
  std::mt19937_64 rng(3);
  auto values = random_values(10, 0.5, rng);
  auto r = minimize_function(CareFunction::from_values(10, values), *parse_passes("compact,expand,irredundant"), {});
  ASSERT_TRUE(r);
  EXPECT_LE(r->reports[1].cubes, r->reports[0].cubes);
  EXPECT_LE(r->reports[2].cubes, r->reports[1].cubes);
  EXPECT_LT(r->cover.size(), r->initial_cubes);
  // The all-one-output function with don't-cares collapses to the universal cube.
  std::vector<uint8_t> draws(256, 0);
  for (size_t i = 0; i < draws.size(); i += 3) draws[i] = 2;
  auto d = minimize_function(CareFunction::from_values(8, draws), *parse_passes("compact,expand,irredundant"), {});
  ASSERT_TRUE(d);
  ASSERT_EQ(d->cover.size(), 1u);
  EXPECT_EQ(d->cover[0], universe(Output::Draw));
}

TEST(LogicPasses, BadPassNameIsAnErrorNamingIt) {
  auto r = parse_passes("canon,compakt,expand");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("compakt"), std::string::npos);
  EXPECT_NE(r.error().message.find("espresso"), std::string::npos);  // lists the valid ones
  EXPECT_FALSE(parse_passes("compact,,expand"));
  EXPECT_FALSE(parse_passes(""));
  EXPECT_EQ(passes_string(*parse_passes("canon, compact")), "canon,compact");
}

TEST(LogicPasses, EffortNamesParseBackExactly) {
  EXPECT_EQ(*parse_enum<Effort>("normal"), Effort::Normal);
  EXPECT_EQ(*parse_enum<Effort>("high"), Effort::High);
  EXPECT_EQ(name_of(Effort::High), "high");
  EXPECT_EQ(enum_names_text<Effort>(", "), "normal, high");  // what --effort's error lists
  EXPECT_FALSE(parse_enum<Effort>("extreme"));
  EXPECT_FALSE(parse_enum<Effort>(""));
  EXPECT_FALSE(parse_enum<Effort>("High"));
}

TEST(LogicPasses, CancelledRunIsAnError) {
  std::mt19937_64 rng(9);
  auto values = random_values(9, 0.3, rng);
  Progress cancelled;
  cancelled.cancel();
  auto r = minimize_function(CareFunction::from_values(9, values), *parse_passes("compact,expand"), {}, cancelled);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "cancelled");
  // Cancelling inside compact leaves an exact cover behind.
  Cover f = minterm_cover(CareFunction::from_values(9, values));
  compact(f, cancelled);
  EXPECT_TRUE(exact_on_care(f, 9, values));
}

Result<Minimized> minimize_balance(const char* name, const char* passes, CanonScheme canon = CanonScheme::Full) {
  auto b = Balance::parse(name);
  auto t = test::shared_store().ensure(b->canonical());
  if (!t) return t.error();
  return minimize_table(**t, *parse_passes(passes), MinimizeOptions{canon, 2});
}

TEST(LogicChess, TriviallyDrawnBalancesCollapseToOneDontCareDrawCube) {
  for (const char* name : {"KvK", "KBvK", "KNvK"})
    for (const char* passes : {"canon,compact,expand,irredundant", "compact,expand,irredundant"}) {
      auto r = minimize_balance(name, passes);
      ASSERT_TRUE(r) << r.error().message;
      ASSERT_EQ(r->cover.size(), 1u) << name << " " << passes;
      EXPECT_EQ(r->cover[0], universe(Output::Draw)) << name;
    }
}

void expect_exhaustively_correct(const char* name, const char* passes, CanonScheme canon) {
  auto b = Balance::parse(name)->canonical();
  auto t = test::shared_store().ensure(b);
  ASSERT_TRUE(t) << t.error().message;
  auto r = minimize_table(**t, *parse_passes(passes), MinimizeOptions{canon, 2});
  ASSERT_TRUE(r) << r.error().message;
  auto c = check_cover(**t, r->cover, r->scheme, r->rule_draws, logic::Output::None, 0, 1, 2);
  EXPECT_TRUE(c.exhaustive);
  // Every legal index counts, though the check visits only the representatives.
  uint64_t legal = 0;
  for (uint64_t i = 0; i < (*t)->encoding().size(); ++i) legal += (*t)->value(i) != Wdl::Illegal;
  EXPECT_EQ(c.positions, legal) << name << " " << passes;
  EXPECT_EQ(c.mismatches, 0u) << name << " " << passes << ": " << c.first_mismatch;
  // The sampled linear-scan check agrees with the painted one.
  auto s = check_cover(**t, r->cover, r->scheme, r->rule_draws, logic::Output::None, 2000, 5, 1);
  EXPECT_EQ(s.mismatches, 0u) << name << ": " << s.first_mismatch;
}

TEST(LogicChess, AllThreePieceBalancesCheckExhaustively) {
  for (const Balance& b : Balance::all_up_to(3)) {
    std::string n = b.name();
    expect_exhaustively_correct(n.c_str(), "canon,compact,expand,irredundant", CanonScheme::Full);
    expect_exhaustively_correct(n.c_str(), "compact,expand,irredundant", CanonScheme::Full);
  }
  expect_exhaustively_correct("KPvK", "canon,compact,espresso", CanonScheme::Board);
  expect_exhaustively_correct("KPvK", "compact,expand,irredundant", CanonScheme::None);
  expect_exhaustively_correct("KQvK", "compact,canon,essential,expand,irredundant,reduce,expand", CanonScheme::Full);
}

TEST(LogicChess, FourPieceBalancesCheckExhaustively) {
  expect_exhaustively_correct("KRvKR", "canon,compact,expand,irredundant", CanonScheme::Full);
  expect_exhaustively_correct("KBNvK", "canon,compact,expand,irredundant", CanonScheme::Board);
  expect_exhaustively_correct("KNNvK", "canon,compact,expand,irredundant", CanonScheme::Full);
}

TEST(LogicChess, ReportsEveryPass) {
  auto r = minimize_balance("KRvK", "canon,compact,expand,irredundant");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->reports.size(), 4u);
  EXPECT_EQ(r->reports[0].pass, "canon");
  EXPECT_EQ(r->reports[0].cubes, r->initial_cubes);
  EXPECT_LT(r->reports[1].cubes, r->reports[0].cubes);
  EXPECT_GT(r->reports[3].peak_bytes, 0u);
  EXPECT_EQ(r->scheme, CanonScheme::Full);
  auto none = minimize_balance("KRvK", "compact");
  EXPECT_EQ(none->scheme, CanonScheme::None);
  EXPECT_GT(none->initial_cubes, r->initial_cubes);
}

TEST(LogicPla, CoverRoundTrip) {
  auto r = minimize_balance("KPvK", "canon,compact,expand,irredundant");
  ASSERT_TRUE(r);
  Encoding enc(*Balance::parse("KPvK"));
  std::string text = write_pla_cover(enc, r->cover, r->scheme);
  auto p = parse_pla(text, "kpvk.pla", enc.bits());
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->on, r->cover);
  EXPECT_EQ(p->header.balance, "KPvK");
  EXPECT_EQ(p->header.canon, CanonScheme::Full);
  EXPECT_EQ(p->type, "fd");
}

TEST(LogicPla, TableRoundTripIsTheMintermCover) {
  auto b = *Balance::parse("KRvK");
  auto t = test::shared_store().ensure(b);
  ASSERT_TRUE(t);
  auto f = CareFunction::from_table(**t, CanonScheme::Full);
  std::string text;
  write_pla_function((**t).encoding(), f, [&](std::string_view s) { text += s; });
  auto p = parse_pla(text, "krvk.pla", 19);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->type, "fr");
  Cover want = minterm_cover(f);
  std::sort(want.begin(), want.end());
  std::sort(p->on.begin(), p->on.end());
  EXPECT_EQ(p->on, want);
}

TEST(LogicPla, ErrorsNameTheLine) {
  const std::string good = ".i 3\n.o 3\n.p 2\n01- 100\n1-1 001\n.e\n";
  ASSERT_TRUE(parse_pla(good, "g.pla"));
  EXPECT_EQ(parse_pla(good, "g.pla")->on.size(), 2u);

  auto width = parse_pla(good, "g.pla", 19);
  ASSERT_FALSE(width);
  EXPECT_NE(width.error().message.find("g.pla:1:"), std::string::npos) << width.error().message;
  EXPECT_NE(width.error().message.find("19"), std::string::npos);

  auto stray = parse_pla(".i 3\n.o 3\n01- 100\n0z1 010\n", "s.pla");
  ASSERT_FALSE(stray);
  EXPECT_NE(stray.error().message.find("s.pla:4:"), std::string::npos) << stray.error().message;
  EXPECT_NE(stray.error().message.find("'z'"), std::string::npos);

  auto truncated = parse_pla(".i 3\n.o 3\n.p 3\n01- 100\n1-1 001\n", "t.pla");
  ASSERT_FALSE(truncated);
  EXPECT_NE(truncated.error().message.find("truncated"), std::string::npos) << truncated.error().message;

  auto cut_row = parse_pla(".i 3\n.o 3\n01- 100\n1-1 0", "c.pla");
  ASSERT_FALSE(cut_row);
  EXPECT_NE(cut_row.error().message.find("c.pla:4:"), std::string::npos) << cut_row.error().message;

  auto outputs = parse_pla(".i 3\n.o 2\n", "o.pla");
  ASSERT_FALSE(outputs);
  EXPECT_NE(outputs.error().message.find("o.pla:2:"), std::string::npos);

  auto keyword = parse_pla(".i 3\n.o 3\n.mv 4 0 2 2\n", "k.pla");
  ASSERT_FALSE(keyword);
  EXPECT_NE(keyword.error().message.find(".mv"), std::string::npos);

  EXPECT_FALSE(parse_pla("", "empty.pla"));
}

}  // namespace
}  // namespace egtmin::logic
