// SPDX-License-Identifier: GPL-3.0-or-later
// The batch run: every stage once, in dependency order, recorded; a run stopped in the middle and
// started again finishes without redoing a finished stage or leaving a half-written file.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "logic/pass_sequence.hpp"
#include "run/batch_run.hpp"
#include "store/cover_file.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace egtmin;
namespace fs = std::filesystem;

using test::TempDir;

run::BatchRequest request(const fs::path& dir, std::vector<std::string> names) {
  run::BatchRequest r;
  for (const auto& n : names) r.balances.push_back(*Balance::parse(n));
  r.passes = logic::default_passes();
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
  ev.stage_done = [&](const run::BatchRecord& r, run::BatchStage stage, bool skipped) {
    log.push_back(r.balance.name() + " " + std::string(name_of(stage)) + (skipped ? " (skipped)" : ""));
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

  // Through balances not asked for: KPPvK promotes to KQPvK, which promotes to KQQvK.
  EXPECT_EQ(run::dependency_order({*Balance::parse("KPPvK"), *Balance::parse("KQQvK")}),
            (std::vector<Balance>{*Balance::parse("KQQvK"), *Balance::parse("KPPvK")}));
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

  // KQvK was made and self-checked on the way to KPvK (a promotion reaches it): its record has the
  // table stage, so a batch of KQvK proves nothing twice.
  auto dep = run::load_record(dir.path, *Balance::parse("KQvK"));
  ASSERT_TRUE(dep);
  EXPECT_TRUE(dep->table.done);
  EXPECT_FALSE(dep->minimize.done);
  EXPECT_GT(dep->generate_seconds, 0);
  EXPECT_GT(dep->self_check_seconds, 0);
  EXPECT_GT(dep->positions, 0u);
  EXPECT_EQ(dep->counts.legal(), dep->positions);
  Result<std::vector<run::BatchRecord>> queen = Error{""};
  log = run_logged(request(dir.path, {"KQvK"}), no_progress(), &queen);
  ASSERT_TRUE(queen) << queen.error().message;
  EXPECT_EQ(log, (std::vector<std::string>{"KQvK table (skipped)", "KQvK minimize", "KQvK check"}));
  EXPECT_EQ(queen->front().positions, dep->positions);
  EXPECT_EQ(queen->front().mismatches, 0u);
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

bool has(const std::vector<std::string>& log, const std::string& line) {
  return std::find(log.begin(), log.end(), line) != log.end();
}

// --capture-resolved adds each balance's capture-resolved cover and its exhaustive proof, after the
// standalone stages of every balance listed; the records make a rerun skip them, and only a
// missing .egtcr brings them back.
TEST(BatchRun, CaptureResolvedStagesMakeAndProveTheSecondCover) {
  TempDir dir("batch-cr");
  // KPvK's promotions reach the other four, and every capture KvK.
  const std::vector<std::string> names = {"KPvK", "KQvK", "KRvK", "KBvK", "KNvK", "KvK"};
  run::BatchRequest req = request(dir.path, names);
  req.covers = store::CoverKind::CaptureResolved;
  Result<std::vector<run::BatchRecord>> first = Error{""};
  auto log = run_logged(req, no_progress(), &first);
  ASSERT_TRUE(first) << first.error().message;
  ASSERT_EQ(log.size(), 6u * 5u);  // table, minimize, check, minimize-cr, check-cr each
  for (size_t i = 0; i < log.size(); ++i) {
    const bool cr = log[i].find("-cr") != std::string::npos;
    EXPECT_EQ(cr, i >= 6u * 3u) << "every standalone stage comes before any capture-resolved one: " << log[i];
  }
  EXPECT_EQ(log.back(), "KPvK check-cr");  // after the covers its promotions probe
  for (const run::BatchRecord& r : *first) {
    SCOPED_TRACE(r.balance.name());
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_TRUE(r.minimize.done && r.check.done && r.minimize_cr.done && r.check_cr.done);
    const fs::path cr_path = store::cover_path(dir.path, r.balance, store::CoverKind::CaptureResolved);
    ASSERT_TRUE(fs::exists(cr_path));
    EXPECT_EQ(r.cr_cover_bytes, fs::file_size(cr_path));
    EXPECT_GT(r.minimize_cr.seconds, 0);
    EXPECT_GT(r.cr_minimize_expected_peak, 0u);
    EXPECT_GT(r.cr_checked_positions, 0u);
    EXPECT_EQ(r.cr_probed_positions, r.checked_positions);  // every legal position, as the standalone check
    EXPECT_EQ(r.cr_mismatches, 0u);
  }
  const run::BatchRecord& kpk = first->back();
  ASSERT_EQ(kpk.balance, *Balance::parse("KPvK"));
  EXPECT_GT(kpk.cr_search_positions, 0u);  // promotions that win
  EXPECT_GT(kpk.cr_cubes, 0u);

  // Done: nothing runs again, and the figures come back from the records.
  Result<std::vector<run::BatchRecord>> again = Error{""};
  log = run_logged(req, no_progress(), &again);
  ASSERT_TRUE(again);
  ASSERT_EQ(log.size(), 6u * 5u);
  for (const std::string& line : log) EXPECT_NE(line.find("(skipped)"), std::string::npos) << line;
  EXPECT_EQ(again->back().cr_cover_bytes, kpk.cr_cover_bytes);
  EXPECT_EQ(again->back().cr_search_positions, kpk.cr_search_positions);
  EXPECT_EQ(again->back().cr_probed_positions, kpk.cr_probed_positions);
  EXPECT_EQ(again->back().check_cr.seconds, kpk.check_cr.seconds);

  // Without the flag the batch is what it was: no capture-resolved stage.
  run::BatchRequest plain = request(dir.path, names);
  log = run_logged(plain);
  EXPECT_EQ(log.size(), 6u * 3u);
  for (const std::string& line : log) EXPECT_EQ(line.find("-cr"), std::string::npos) << line;

  // A capture-resolved cover that disappeared is made and proven again; nothing else is.
  fs::remove(store::cover_path(dir.path, kpk.balance, store::CoverKind::CaptureResolved));
  log = run_logged(req);
  ASSERT_EQ(log.size(), 6u * 5u);
  for (const std::string& line : log) {
    if (line.rfind("KPvK ", 0) != 0 || line.find("-cr") == std::string::npos) {
      EXPECT_NE(line.find("(skipped)"), std::string::npos) << line;
    }
  }
  EXPECT_TRUE(has(log, "KPvK minimize-cr"));
  EXPECT_TRUE(has(log, "KPvK check-cr"));
  EXPECT_TRUE(fs::exists(store::cover_path(dir.path, kpk.balance, store::CoverKind::CaptureResolved)));
}

// A capture-resolved stage without the covers its capture search probes fails naming them, and the
// run goes on with the other balances; once the covers are there, it runs.
TEST(BatchRun, CaptureResolvedStageNamesTheMissingCovers) {
  TempDir dir("batch-cr-missing");
  run::BatchRequest req = request(dir.path, {"KBvK", "KNvK"});
  req.covers = store::CoverKind::CaptureResolved;
  Result<std::vector<run::BatchRecord>> result = Error{""};
  auto log = run_logged(req, no_progress(), &result);
  ASSERT_TRUE(result) << result.error().message;  // a balance that fails does not stop the run
  EXPECT_EQ(log, (std::vector<std::string>{"KNvK table", "KNvK minimize", "KNvK check", "KBvK table", "KBvK minimize",
                                           "KBvK check", "KNvK minimize-cr", "KBvK minimize-cr"}));
  for (const run::BatchRecord& r : *result) {
    SCOPED_TRACE(r.balance.name());
    EXPECT_TRUE(r.check.done);  // the standalone cover is made and proven all the same
    EXPECT_FALSE(r.minimize_cr.done);
    EXPECT_EQ(r.error.rfind("minimize-cr: " + r.balance.name() + "'s capture-resolved cover needs the covers", 0), 0u)
        << r.error;
    EXPECT_NE(r.error.find("missing: KvK "), std::string::npos) << r.error;
    EXPECT_FALSE(fs::exists(store::cover_path(dir.path, r.balance, store::CoverKind::CaptureResolved)));
    EXPECT_FALSE(run::load_record(dir.path, r.balance)->minimize_cr.done);
  }

  // One stage alone needs the stages before it.
  run::BatchRequest one = request(dir.path, {"KBvK"});
  one.only = run::BatchStage::CheckCr;
  auto early = run::run_batch(one);
  ASSERT_TRUE(early);
  EXPECT_EQ(early->at(0).error, "check-cr: needs the minimize-cr stage done first");

  // With KvK's cover made, both go through and the standalone stages are not run again.
  run_logged(request(dir.path, {"KvK"}));
  log = run_logged(req, no_progress(), &result);
  ASSERT_TRUE(result);
  EXPECT_EQ(log, (std::vector<std::string>{"KNvK table (skipped)", "KNvK minimize (skipped)", "KNvK check (skipped)",
                                           "KBvK table (skipped)", "KBvK minimize (skipped)", "KBvK check (skipped)",
                                           "KNvK minimize-cr", "KNvK check-cr", "KBvK minimize-cr", "KBvK check-cr"}));
  for (const run::BatchRecord& r : *result) EXPECT_TRUE(r.error.empty() && r.check_cr.done) << r.error;
  // The missing-cover check is the one the stages ask.
  EXPECT_TRUE(run::missing_successor_covers(dir.path, *Balance::parse("KBvK")).empty());
  EXPECT_EQ(run::missing_successor_covers(dir.path, *Balance::parse("KPvK")),
            (std::vector<Balance>{*Balance::parse("KQvK"), *Balance::parse("KRvK")}));  // KBvK, KNvK, KvK are there
}

// The report carries the capture-resolved figures only when those stages were asked for or are done,
// and --stage takes their names.
TEST(BatchRun, CliReportsCaptureResolvedFiguresOnlyWhenThere) {
  TempDir dir("batch-cr-cli");
  auto batch = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"batch", "KvK", "--data", dir.path.string(), "--json", "--quiet", "-j", "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run_program(EGTMIN_CLI, args);
  };
  auto plain = batch({});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out.find("minimize_cr"), std::string::npos) << plain.out;
  auto staged = batch({"--stage", "minimize-cr"});
  ASSERT_EQ(staged.exit_code, 0) << staged.err;
  EXPECT_NE(staged.out.find("\"minimize_cr\""), std::string::npos) << staged.out;
  auto full = batch({"--capture-resolved"});
  ASSERT_EQ(full.exit_code, 0) << full.err;
  EXPECT_NE(full.out.find("\"check_cr\""), std::string::npos) << full.out;
  EXPECT_NE(full.out.find("\"cr_cover_bytes\""), std::string::npos) << full.out;
  auto later = batch({});  // done before: still reported
  ASSERT_EQ(later.exit_code, 0) << later.err;
  EXPECT_NE(later.out.find("\"cr_probed_positions\""), std::string::npos) << later.out;
  EXPECT_NE(batch({"--stage", "bogus-cr"}).exit_code, 0);
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
