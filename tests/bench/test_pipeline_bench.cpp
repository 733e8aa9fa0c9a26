// SPDX-License-Identifier: GPL-3.0-or-later
// The pipeline benchmark: the sample's capture-resolved stages measured, and the projection
// computed from them as its help says.
#include <gtest/gtest.h>

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

// Per stage and kind: the sample's seconds over its slots, times every balance's slots.
TEST(PipelineBench, ProjectionIsTheSampleRateTimesTheSlots) {
  const std::vector<bench::PipelineStage> sample = {stage("KRvK", S::Table, 2.0), stage("KQvK", S::Table, 4.0),
                                                    stage("KPvK", S::Table, 3.0), stage("KRvK", S::MinimizeCr, 1.0)};
  const auto projection = bench::project(sample, 3);
  uint64_t pawnless_slots = 0, pawn_slots = 0;
  size_t pawnless = 0, pawnful = 0;
  for (const Balance& b : Balance::all_up_to(3))
    if (b.pieces() == 3) {
      (b.has_pawns() ? pawn_slots : pawnless_slots) += run::table_slots(b);
      ++(b.has_pawns() ? pawnful : pawnless);
    }
  const double pawnless_rate = 6.0 / double(run::table_slots(bal("KRvK")) + run::table_slots(bal("KQvK")));
  const double pawn_rate = 3.0 / double(run::table_slots(bal("KPvK")));
  ASSERT_EQ(projection.size(), 4u);  // table and minimize-cr, each for both kinds
  for (const bench::ProjectedStage& p : projection) {
    SCOPED_TRACE(std::string(name_of(p.stage)) + (p.pawns ? " pawns" : " no pawns"));
    EXPECT_EQ(p.balances, p.pawns ? pawnful : pawnless);
    EXPECT_EQ(p.slots, p.pawns ? pawn_slots : pawnless_slots);
    EXPECT_DOUBLE_EQ(p.seconds, p.seconds_per_slot * double(p.slots));
    if (p.stage == S::Table) EXPECT_DOUBLE_EQ(p.seconds_per_slot, p.pawns ? pawn_rate : pawnless_rate);
    // No pawnful minimize-cr in the sample: the pawnless rate stands in.
    if (p.stage == S::MinimizeCr) EXPECT_DOUBLE_EQ(p.seconds_per_slot, 1.0 / double(run::table_slots(bal("KRvK"))));
  }
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
