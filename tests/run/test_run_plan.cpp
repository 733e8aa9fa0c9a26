// SPDX-License-Identifier: GPL-3.0-or-later
// The run plan: the tables a run makes first, in dependency order, each step's weight in the
// progress bar and its expected peak memory; a run the memory cannot hold is refused before any
// file is written.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "run/minimize_run.hpp"
#include "run/run_plan.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace egtmin;
namespace fs = std::filesystem;

Balance bal(const std::string& name) { return *Balance::parse(name); }

std::vector<std::string> names(const run::RunPlan& plan) {
  std::vector<std::string> out;
  for (const run::PlanStep& s : plan.steps)
    out.push_back((s.kind == run::PlanStep::Kind::Table ? "table " : "minimize ") + s.balance.name());
  return out;
}

TEST(RunPlan, MakesMissingTablesInDependencyOrderThenMinimizes) {
  test::TempDir dir("plan-order");
  const auto plan = run::plan_run(dir.path, {bal("KQvKR")}, true, 2);
  EXPECT_EQ(names(plan),
            (std::vector<std::string>{"table KvK", "table KRvK", "table KQvK", "table KQvKR", "minimize KQvKR"}));
  EXPECT_EQ(plan.tables(), 4u);
  // A 4-piece table is most of the work of making it and its 3-piece dependencies.
  EXPECT_GT(plan.steps[3].work, 20 * (plan.steps[1].work + plan.steps[2].work));
  EXPECT_EQ(run::plan_run(dir.path, {bal("KQvKR")}, false, 2).steps.size(), 4u);
}

TEST(RunPlan, FivePieceEstimatesStayAboveTheMeasuredPeaksAndUnderTwelveGiB) {
  // Peaks of the 5-piece batch records (docs/results-5piece.md): the model must not promise
  // less than a run took, and the goal is every 5-piece step under 12 GiB.
  const uint64_t twelve_gib = uint64_t{12} << 30;
  EXPECT_GE(run::table_peak_bytes(bal("KRPvKR")), 6'720'000'000u);
  EXPECT_GE(run::table_peak_bytes(bal("KQRvKR")), 2'140'000'000u);
  EXPECT_GE(run::table_peak_bytes(bal("KRBvKR")), 2'740'000'000u);
  EXPECT_GE(run::table_peak_bytes(bal("KNNvKQ")), 2'830'000'000u);
  EXPECT_GE(run::minimize_peak_bytes(bal("KQRvKR"), 2), 2'220'000'000u);
  EXPECT_GE(run::minimize_peak_bytes(bal("KRBvKR"), 2), 3'300'000'000u);
  EXPECT_GE(run::minimize_peak_bytes(bal("KRPvKR"), 2), 4'180'000'000u);
  EXPECT_GE(run::minimize_peak_bytes(bal("KNNvKQ"), 2), 4'720'000'000u);
  EXPECT_GE(run::minimize_peak_bytes(bal("KQQvKP"), 2), 5'450'000'000u);
  for (const char* b : {"KRPvKR", "KQRvKR", "KPPvKP", "KQQQvK"}) {
    EXPECT_LT(run::table_peak_bytes(bal(b)), twelve_gib) << b;
    EXPECT_LT(run::minimize_peak_bytes(bal(b), 2), twelve_gib) << b;
  }
  EXPECT_LT(run::table_peak_bytes(bal("KQvKR")), run::table_peak_bytes(bal("KQRvKR")));
  // Capture-resolved: the resolved copy and the successors' tables while resolving, then denser
  // matrices: the plan must not promise less than the highest minimize-cr peaks recorded.
  const auto resolved_peak = [](const char* b) {
    return run::minimize_peak_bytes(bal(b), 2, store::CoverKind::CaptureResolved);
  };
  EXPECT_GE(resolved_peak("KBBvKR"), 7'570'000'000u);
  EXPECT_GE(resolved_peak("KBBvKB"), 7'140'000'000u);
  EXPECT_GE(resolved_peak("KRBNvK"), 6'620'000'000u);
  EXPECT_GE(resolved_peak("KRPvKR"), 4'440'000'000u);
  EXPECT_GE(resolved_peak("KQRvKR"), 2'980'000'000u);
  // Every 5-piece balance, every stage's model under 12 GiB: two pawns and the 5-piece tables
  // their promotions reach included.
  size_t five = 0;
  for (const Balance& b : Balance::all_up_to(5)) {
    if (b.pieces() != 5) continue;
    ++five;
    EXPECT_LT(run::table_peak_bytes(b), twelve_gib) << b.name();
    EXPECT_LT(run::minimize_peak_bytes(b, 2), twelve_gib) << b.name();
    EXPECT_LT(run::minimize_peak_bytes(b, 2, store::CoverKind::CaptureResolved), twelve_gib) << b.name();
  }
  EXPECT_EQ(five, 110u);
  EXPECT_EQ(run::table_slots(bal("KRPvKR")), 1'073'741'824u);
  EXPECT_EQ(run::table_slots(bal("KQRvKR")), 335'544'320u);
}

TEST(RunPlan, RefusesARunTheMemoryCannotHoldBeforeWritingAnything) {
  test::TempDir dir("plan-refuse");
  run::MinimizeRequest r;
  r.balances = {bal("KRvK")};
  r.passes = logic::default_passes();
  r.data_dir = dir.path;
  r.memory_limit = 100'000'000;  // 100 MB: under any table's estimate
  auto result = run::run_minimize(r);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("KRvK"), std::string::npos) << result.error().message;
  EXPECT_NE(result.error().message.find("100 MB"), std::string::npos) << result.error().message;
  EXPECT_FALSE(fs::exists(dir.path / "tables" / "KvK.egtb"));
  EXPECT_TRUE(fs::is_empty(dir.path) || !fs::exists(dir.path / "tables") || fs::is_empty(dir.path / "tables"));

  // 0 turns the check off; the plan comes before the work and names every step.
  r.memory_limit = 0;
  r.passes = {};
  std::vector<std::string> details;
  size_t planned_steps = 0;
  run::MinimizeEvents events;
  events.planned = [&](const run::RunPlan& plan) { planned_steps = plan.steps.size(); };
  double last = 0;
  bool monotone = true;
  Progress progress([&](const ProgressEvent& e) {
    details.emplace_back(e.detail);
    monotone &= e.fraction + 1e-12 >= last;
    last = e.fraction;
  });
  auto made = run::run_minimize(r, events, progress);
  ASSERT_TRUE(made) << made.error().message;
  EXPECT_EQ(planned_steps, 2u);
  EXPECT_TRUE(monotone);
  bool saw_last = false;
  for (const std::string& d : details) saw_last |= d.rfind("table 2 of 2, KRvK", 0) == 0;
  EXPECT_TRUE(saw_last);
}

TEST(RunPlan, ChecksMemoryAgainstALimit) {
  run::RunPlan plan;
  plan.steps.push_back({run::PlanStep::Kind::Minimize, bal("KRvK"), 1000, 1, 2'000'000'000});
  EXPECT_TRUE(run::check_memory(plan, 0));  // unknown: no check
  EXPECT_TRUE(run::check_memory(plan, 2'000'000'000));
  auto refused = run::check_memory(plan, 1'000'000'000);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("minimizing KRvK"), std::string::npos);
  EXPECT_NE(refused.error().message.find("2.00 GB"), std::string::npos);
}

}  // namespace
