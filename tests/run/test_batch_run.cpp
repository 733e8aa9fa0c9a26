// SPDX-License-Identifier: GPL-3.0-or-later
// The batch run: every stage once, in dependency order, recorded; a run stopped in the middle and
// started again finishes without redoing a finished stage or leaving a half-written file.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "logic/pass_registry.hpp"
#include "run/batch_run.hpp"
#include "store/cover_file.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace egtmin;
namespace fs = std::filesystem;

using test::TempDir;

run::BatchRequest request(const fs::path& dir, std::vector<std::string> names) {
  run::BatchRequest r;
  for (const auto& n : names) r.balances.push_back(*Balance::parse(n));
  r.passes = *logic::parse_passes(logic::kDefaultPasses);
  r.threads = 2;
  r.data_dir = dir;
  r.syzygy_sizes = {{"KPvK", 7824}};
  return r;
}

// Stage events as "KPvK table" or "KPvK table (skipped)".
std::vector<std::string> run_logged(const run::BatchRequest& req, const Progress& progress = no_progress(),
                                    Result<std::vector<run::BatchRecord>>* out = nullptr) {
  std::vector<std::string> log;
  run::BatchEvents ev;
  ev.stage_done = [&](const run::BatchRecord& r, std::string_view stage, bool skipped) {
    log.push_back(r.balance.name() + " " + std::string(stage) + (skipped ? " (skipped)" : ""));
  };
  auto result = run::run_batch(req, ev, progress);
  if (out) *out = std::move(result);
  return log;
}

TEST(BatchRun, DependenciesComeFirst) {
  const auto order = run::dependency_order(
      {*Balance::parse("KQvKR"), *Balance::parse("KRvK"), *Balance::parse("KQvK"), *Balance::parse("KPvK")});
  auto at = [&](const char* n) { return std::find(order.begin(), order.end(), *Balance::parse(n)) - order.begin(); };
  ASSERT_EQ(order.size(), 4u);
  EXPECT_LT(at("KQvK"), at("KQvKR"));
  EXPECT_LT(at("KRvK"), at("KQvKR"));
  EXPECT_LT(at("KQvK"), at("KPvK"));  // KPvK promotes to KQvK
}

TEST(BatchRun, EveryStageOnceThenNothingToDo) {
  TempDir dir("batch-once");
  Result<std::vector<run::BatchRecord>> first = Error{""};
  auto log = run_logged(request(dir.path, {"KPvK", "KRvK"}), no_progress(), &first);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(log, (std::vector<std::string>{"KRvK table", "KRvK minimize", "KRvK check", "KPvK table", "KPvK minimize",
                                           "KPvK check"}));
  for (const run::BatchRecord& r : *first) {
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_TRUE(r.table.done && r.minimize.done && r.check.done);
    EXPECT_GT(r.positions, 0u);
    EXPECT_EQ(r.counts.legal(), r.positions);
    EXPECT_GT(r.cubes, 0u);
    EXPECT_EQ(r.cover_bytes, fs::file_size(store::cover_path(dir.path, r.balance)));
    EXPECT_GT(r.checked_positions, r.positions);  // every legal position, not only representatives
    EXPECT_EQ(r.mismatches, 0u);
    EXPECT_GT(r.table.peak_bytes, 0u);
    EXPECT_GE(r.table_expected_peak, r.table.peak_bytes);  // the plan's estimate is an upper one
    EXPECT_GT(r.care_positions, 0u);
    ASSERT_EQ(r.passes.size(), 4u);  // the default passes, each timed
    EXPECT_EQ(r.passes.back().pass, "irredundant");
    EXPECT_LT(r.cubes, r.passes.back().cubes);  // the output with the most cubes is left implied
  }
  EXPECT_EQ((*first)[1].syzygy_wdl_bytes, std::optional<uint64_t>(7824));
  EXPECT_FALSE((*first)[0].syzygy_wdl_bytes);

  Result<std::vector<run::BatchRecord>> again = Error{""};
  log = run_logged(request(dir.path, {"KPvK", "KRvK"}), no_progress(), &again);
  ASSERT_TRUE(again);
  for (const std::string& line : log) EXPECT_NE(line.find("(skipped)"), std::string::npos) << line;
  EXPECT_EQ((*again)[1].cubes, (*first)[1].cubes);  // the report comes back from the records
  EXPECT_EQ((*again)[1].generate_seconds, (*first)[1].generate_seconds);
  ASSERT_EQ((*again)[1].passes.size(), (*first)[1].passes.size());
  EXPECT_EQ((*again)[1].passes[2].pass, (*first)[1].passes[2].pass);
  EXPECT_EQ((*again)[1].passes[2].seconds, (*first)[1].passes[2].seconds);
  EXPECT_EQ((*again)[1].care_positions, (*first)[1].care_positions);
  EXPECT_EQ((*again)[1].table_expected_peak, (*first)[1].table_expected_peak);

  // A cover that disappeared is made and checked again; the table is not.
  fs::remove(store::cover_path(dir.path, *Balance::parse("KRvK")));
  log = run_logged(request(dir.path, {"KRvK"}));
  EXPECT_EQ(log, (std::vector<std::string>{"KRvK table (skipped)", "KRvK minimize", "KRvK check"}));
}

// Stopped while minimizing the second balance (as a kill would stop it): the first balance is
// finished and recorded, the second's table is recorded, no cover of it exists, and the next run
// goes on from the minimize stage.
TEST(BatchRun, StoppedRunResumesAtTheStageItWasIn) {
  TempDir dir("batch-resume");
  Progress progress([&](const ProgressEvent& e) {
    if (e.stage == Stage::Pass && e.detail.find("KPvK") != std::string_view::npos) {
      progress.cancel();
    }
  });
  Result<std::vector<run::BatchRecord>> stopped = Error{""};
  run_logged(request(dir.path, {"KRvK", "KPvK"}), progress, &stopped);
  ASSERT_FALSE(stopped);
  EXPECT_EQ(stopped.error().message, "cancelled");
  EXPECT_FALSE(fs::exists(store::cover_path(dir.path, *Balance::parse("KPvK"))));
  auto rec = run::load_record(dir.path, *Balance::parse("KPvK"));
  ASSERT_TRUE(rec);
  EXPECT_TRUE(rec->table.done);
  EXPECT_FALSE(rec->minimize.done);
  for (const auto& e : fs::directory_iterator(dir.path / "covers"))  // covers and their probe layouts, no temporaries
    EXPECT_TRUE(e.path().extension() == ".egtc" || e.path().extension() == ".egtl") << "left behind: " << e.path();

  Result<std::vector<run::BatchRecord>> resumed = Error{""};
  auto log = run_logged(request(dir.path, {"KRvK", "KPvK"}), no_progress(), &resumed);
  ASSERT_TRUE(resumed) << resumed.error().message;
  EXPECT_EQ(log, (std::vector<std::string>{"KRvK table (skipped)", "KRvK minimize (skipped)", "KRvK check (skipped)",
                                           "KPvK table (skipped)", "KPvK minimize", "KPvK check"}));
  EXPECT_EQ(resumed->back().mismatches, 0u);
}

TEST(BatchRun, SizesFileErrorsNameTheLine) {
  TempDir dir("batch-sizes");
  const fs::path tsv = dir.path / "sizes.tsv";
  std::ofstream(tsv) << "bytes\tfile\n7824\tKPvK.rtbw\nabc\tKRvK.rtbw\n";
  auto bad = run::read_syzygy_sizes(tsv);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find(":3:"), std::string::npos) << bad.error().message;
  std::ofstream(tsv) << "bytes\tfile\n7824\tKPvK.rtbw\n";
  auto good = run::read_syzygy_sizes(tsv);
  ASSERT_TRUE(good);
  EXPECT_EQ(good->at("KPvK"), 7824u);
  EXPECT_FALSE(run::read_syzygy_sizes(dir.path / "missing.tsv"));
}

}  // namespace
