// SPDX-License-Identifier: GPL-3.0-or-later
// The pipeline benchmark: the sample's capture-resolved stages measured, and the projection
// computed from them as its help says.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "bench/pipeline_bench.hpp"
#include "run/run_plan.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace egtmin;
using S = run::BatchStage;

Balance bal(const char* name) { return *Balance::parse(name); }

bench::PipelineStage stage(const char* name, S s, double seconds) {
  bench::PipelineStage p{bal(name), s, {}, true, run::table_slots(bal(name))};
  p.figures.done = true;
  p.figures.seconds = seconds;
  return p;
}

// Per stage and kind (pawns or not, a lone king or material on each side): the sample's seconds
// over its slots, times every balance's slots; a kind the sample lacks takes the nearest one's.
TEST(PipelineBench, ProjectionIsTheSampleRateTimesTheSlotsPerKind) {
  const std::vector<bench::PipelineStage> sample = {stage("KQRvK", S::Table, 2.0), stage("KRRvK", S::Table, 4.0),
                                                    stage("KRvKR", S::Table, 5.0), stage("KPPvK", S::Table, 3.0),
                                                    stage("KRvKR", S::MinimizeCr, 1.0)};
  const auto projection = bench::project(sample, 4);
  // The kinds counted here without BalanceKind: pawns, and whether one side has its king alone.
  auto kind_of = [](const Balance& b) {
    return std::pair{b.has_pawns(), b.pieces(White) == 1 || b.pieces(Black) == 1};
  };
  std::map<std::pair<bool, bool>, std::pair<size_t, uint64_t>> kinds;  // balances, slots
  for (const Balance& b : Balance::all_up_to(4))
    if (b.pieces() == 4) {
      auto& [n, slots] = kinds[kind_of(b)];
      ++n;
      slots += run::table_slots(b);
    }
  ASSERT_EQ(kinds.size(), 4u);
  auto rate = [](std::initializer_list<const char*> names, double seconds) {
    uint64_t slots = 0;
    for (const char* n : names) slots += run::table_slots(bal(n));
    return seconds / double(slots);
  };
  ASSERT_EQ(projection.size(), 8u);  // table and minimize-cr, each for the four kinds
  for (const bench::ProjectedStage& p : projection) {
    const std::pair<bool, bool> kind{p.kind.pawns, p.kind.lone_king};
    SCOPED_TRACE(std::string(name_of(p.stage)) + (p.kind.pawns ? " pawns" : " no pawns") +
                 (p.kind.lone_king ? " lone king" : " each side"));
    EXPECT_EQ(p.balances, kinds[kind].first);
    EXPECT_EQ(p.slots, kinds[kind].second);
    EXPECT_DOUBLE_EQ(p.seconds, p.seconds_per_slot * double(p.slots));
    std::vector<Balance> from;
    double want = 0;
    if (p.stage == S::Table) {
      if (!p.kind.pawns && p.kind.lone_king) {
        want = rate({"KQRvK", "KRRvK"}, 6.0);
        from = {bal("KQRvK"), bal("KRRvK")};
      } else if (!p.kind.pawns) {
        want = rate({"KRvKR"}, 5.0);
        from = {bal("KRvKR")};
      } else {  // no pawnful balance with material on each side: the pawnful lone king's rate
        want = rate({"KPPvK"}, 3.0);
        from = {bal("KPPvK")};
      }
    } else {  // minimize-cr: only KRvKR in the sample, for every kind
      want = rate({"KRvKR"}, 1.0);
      from = {bal("KRvKR")};
    }
    EXPECT_DOUBLE_EQ(p.seconds_per_slot, want);
    EXPECT_EQ(p.from, from);
  }
}

// The default sample has one balance of each kind.
TEST(PipelineBench, DefaultSampleHasEachKind) {
  std::set<std::pair<bool, bool>> kinds;
  for (const Balance& b : bench::default_pipeline_sample()) {
    EXPECT_EQ(b.pieces(), 5);
    const BalanceKind k = BalanceKind::of(b);
    kinds.insert({k.pawns, k.lone_king});
  }
  EXPECT_EQ(kinds.size(), 4u);
}

// End to end on a small sample: every capture-resolved stage measured, none of the standalone
// cover's, the covers the searches probe made first, and a second run takes them from the records.
TEST(PipelineBench, RunsTheSampleEndToEnd) {
  test::TempDir dir("pipeline");
  bench::PipelineRequest req;
  req.sample = {bal("KRvK"), bal("KPvK")};
  req.data_dir = dir.path;
  req.threads = 2;
  req.project_pieces = 3;
  auto report = bench::run_pipeline_bench(req);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->errors.empty());
  ASSERT_EQ(report->stages.size(), 2u * 3u);  // table, minimize-cr, check-cr
  for (const bench::PipelineStage& s : report->stages) {
    SCOPED_TRACE(s.balance.name() + " " + std::string(name_of(s.stage)));
    EXPECT_TRUE(s.ran_here);
    EXPECT_TRUE(run::part_of(s.stage) != run::StagePart::Standalone);
    EXPECT_GT(s.figures.peak_bytes, 0u);
    EXPECT_GT(s.slots, 0u);
  }
  EXPECT_GT(report->projected_seconds, 0);
  EXPECT_GT(report->largest_peak.figures.peak_bytes, 0u);
  auto again = bench::run_pipeline_bench(req);
  ASSERT_TRUE(again);
  for (const bench::PipelineStage& s : again->stages) EXPECT_FALSE(s.ran_here);

  auto cli = test::run_program(EGTMIN_CLI, {"bench", "pipeline", "--sample", "KRvK", "KPvK", "--project", "3", "--data",
                                            dir.path.string(), "--quiet"});
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  EXPECT_NE(cli.out.find("KPvK     check-cr"), std::string::npos) << cli.out;
  EXPECT_NE(cli.out.find("Projected: "), std::string::npos) << cli.out;
  auto bad = test::run_program(EGTMIN_CLI, {"bench", "pipeline", "--sample", "KXvK", "--data", dir.path.string()});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("--sample"), std::string::npos) << bad.err;
}

}  // namespace
