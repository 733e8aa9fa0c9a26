// SPDX-License-Identifier: GPL-3.0-or-later
// The batch run: every stage once, in dependency order, recorded; a run stopped in the middle and
// started again finishes without redoing a finished stage or leaving a half-written file.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "logic/pass_sequence.hpp"
#include "probe/probe_layout.hpp"
#include "run/batch_run.hpp"
#include "run/stages/all.hpp"
#include "store/cover_file.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace egtmin;
namespace fs = std::filesystem;

using test::TempDir;
using S = run::BatchStage;

run::BatchRequest request(const fs::path& dir, std::vector<std::string> names) {
  run::BatchRequest r;
  for (const auto& n : names) r.balances.push_back(*Balance::parse(n));
  r.passes = logic::default_passes();
  r.threads = 2;
  r.data_dir = dir;
  r.syzygy_sizes = {{"KPvK", 7824}};
  return r;
}

// Turns one cube of the capture-resolved cover at `cr` from a draw to a win (or anything else to a
// draw) and saves it: a cover that is wrong somewhere, for the proofs to find.
void flip_one_cube(const fs::path& cr, const Balance& b) {
  auto cover = store::load_cover(cr, &b);
  ASSERT_TRUE(cover) << cover.error().message;
  logic::CubeWord& cube = cover->cubes[cover->cubes.size() / 2];
  cube = logic::with_output(cube,
                            logic::output_of(cube) == logic::Output::Draw ? logic::Output::Win : logic::Output::Draw);
  ASSERT_TRUE(store::save_cover(cr, *cover));
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
    EXPECT_TRUE(r.stage(S::Table).done && r.stage(S::Minimize).done && r.stage(S::Check).done);
    EXPECT_GT(r.results<S::Table>().positions, 0u);
    EXPECT_EQ(r.results<S::Table>().values.legal(), r.results<S::Table>().positions);
    EXPECT_GT(r.results<S::Minimize>().cubes, 0u);
    EXPECT_EQ(r.results<S::Minimize>().cover_bytes, fs::file_size(store::cover_path(dir.path, r.balance)));
    EXPECT_GT(r.results<S::Check>().checked_positions,
              r.results<S::Table>().positions);  // every legal position, not only representatives
    EXPECT_EQ(r.results<S::Check>().mismatches, 0u);
    EXPECT_GT(r.stage(S::Table).peak_bytes, 0u);
    EXPECT_GE(r.results<S::Table>().expected_peak_bytes,
              r.stage(S::Table).peak_bytes);  // the plan's estimate is an upper one
    EXPECT_GT(r.results<S::Minimize>().care_positions, 0u);
    ASSERT_EQ(r.results<S::Minimize>().passes.size(), 4u);  // the default passes, each timed
    EXPECT_EQ(r.results<S::Minimize>().passes.back().pass, "irredundant");
    EXPECT_LT(r.results<S::Minimize>().cubes,
              r.results<S::Minimize>().passes.back().cubes);  // the output with the most cubes is left implied
  }
  EXPECT_EQ((*first)[1].syzygy_wdl_bytes, std::optional<uint64_t>(7824));
  EXPECT_FALSE((*first)[0].syzygy_wdl_bytes);

  Result<std::vector<run::BatchRecord>> again = Error{""};
  log = run_logged(request(dir.path, {"KPvK", "KRvK"}), no_progress(), &again);
  ASSERT_TRUE(again);
  for (const std::string& line : log) EXPECT_NE(line.find("(skipped)"), std::string::npos) << line;
  EXPECT_EQ((*again)[1].results<S::Minimize>().cubes,
            (*first)[1].results<S::Minimize>().cubes);  // the report comes back from the records
  EXPECT_EQ((*again)[1].results<S::Table>().generate_seconds, (*first)[1].results<S::Table>().generate_seconds);
  ASSERT_EQ((*again)[1].results<S::Minimize>().passes.size(), (*first)[1].results<S::Minimize>().passes.size());
  EXPECT_EQ((*again)[1].results<S::Minimize>().passes[2].pass, (*first)[1].results<S::Minimize>().passes[2].pass);
  EXPECT_EQ((*again)[1].results<S::Minimize>().passes[2].seconds, (*first)[1].results<S::Minimize>().passes[2].seconds);
  EXPECT_EQ((*again)[1].results<S::Minimize>().care_positions, (*first)[1].results<S::Minimize>().care_positions);
  EXPECT_EQ((*again)[1].results<S::Table>().expected_peak_bytes, (*first)[1].results<S::Table>().expected_peak_bytes);

  // A cover that disappeared is made and checked again; the table is not.
  fs::remove(store::cover_path(dir.path, *Balance::parse("KRvK")));
  log = run_logged(request(dir.path, {"KRvK"}));
  EXPECT_EQ(log, (std::vector<std::string>{"KRvK table (skipped)", "KRvK minimize", "KRvK check"}));

  // KQvK was made and self-checked on the way to KPvK (a promotion reaches it): its record has the
  // table stage, so a batch of KQvK proves nothing twice.
  auto dep = run::load_record(dir.path, *Balance::parse("KQvK"));
  ASSERT_TRUE(dep);
  EXPECT_TRUE(dep->stage(S::Table).done);
  EXPECT_FALSE(dep->stage(S::Minimize).done);
  EXPECT_GT(dep->results<S::Table>().generate_seconds, 0);
  EXPECT_GT(dep->results<S::Table>().self_check_seconds, 0);
  EXPECT_GT(dep->results<S::Table>().positions, 0u);
  EXPECT_EQ(dep->results<S::Table>().values.legal(), dep->results<S::Table>().positions);
  Result<std::vector<run::BatchRecord>> queen = Error{""};
  log = run_logged(request(dir.path, {"KQvK"}), no_progress(), &queen);
  ASSERT_TRUE(queen) << queen.error().message;
  EXPECT_EQ(log, (std::vector<std::string>{"KQvK table (skipped)", "KQvK minimize", "KQvK check"}));
  EXPECT_EQ(queen->front().results<S::Table>().positions, dep->results<S::Table>().positions);
  EXPECT_EQ(queen->front().results<S::Check>().mismatches, 0u);
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
  EXPECT_TRUE(rec->stage(S::Table).done);
  EXPECT_FALSE(rec->stage(S::Minimize).done);
  for (const auto& e : fs::directory_iterator(dir.path / "covers"))  // covers and their probe layouts, no temporaries
    EXPECT_TRUE(e.path().extension() == ".egtc" || e.path().extension() == ".egtl") << "left behind: " << e.path();

  Result<std::vector<run::BatchRecord>> resumed = Error{""};
  auto log = run_logged(request(dir.path, {"KRvK", "KPvK"}), no_progress(), &resumed);
  ASSERT_TRUE(resumed) << resumed.error().message;
  EXPECT_EQ(log, (std::vector<std::string>{"KRvK table (skipped)", "KRvK minimize (skipped)", "KRvK check (skipped)",
                                           "KPvK table (skipped)", "KPvK minimize", "KPvK check"}));
  EXPECT_EQ(resumed->back().results<S::Check>().mismatches, 0u);
}

bool has(const std::vector<std::string>& log, const std::string& line) {
  return std::find(log.begin(), log.end(), line) != log.end();
}

// Both covers: each balance gets its standalone and capture-resolved covers, each proven, after the
// covers its capture search probes; the records make a rerun skip them, and only a missing .egtcr
// brings its stages back.
TEST(BatchRun, BothCoversAreMadeAndProven) {
  TempDir dir("batch-cr");
  // KPvK's promotions reach the other four, and every capture KvK.
  const std::vector<std::string> names = {"KPvK", "KQvK", "KRvK", "KBvK", "KNvK", "KvK"};
  run::BatchRequest req = request(dir.path, names);
  req.covers = run::CoverSet::Both;
  Result<std::vector<run::BatchRecord>> first = Error{""};
  auto log = run_logged(req, no_progress(), &first);
  ASSERT_TRUE(first) << first.error().message;
  ASSERT_EQ(log.size(), 6u * 5u);          // table, minimize, check, minimize-cr, check-cr each
  EXPECT_EQ(log.back(), "KPvK check-cr");  // after the covers its promotions probe
  for (const run::BatchRecord& r : *first) {
    SCOPED_TRACE(r.balance.name());
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_TRUE(r.stage(S::Minimize).done && r.stage(S::Check).done && r.stage(S::MinimizeCr).done &&
                r.stage(S::CheckCr).done);
    const fs::path cr_path = store::cover_path(dir.path, r.balance, store::CoverKind::CaptureResolved);
    ASSERT_TRUE(fs::exists(cr_path));
    EXPECT_EQ(r.results<S::MinimizeCr>().cover_bytes, fs::file_size(cr_path));
    // The probe layout written beside each cover, which probes without it; the capture-resolved
    // one as its proof probed it.
    EXPECT_EQ(r.results<S::CheckCr>().layout_bytes, fs::file_size(probe::layout_path(cr_path)));
    const fs::path standalone = store::cover_path(dir.path, r.balance, store::CoverKind::Standalone);
    EXPECT_EQ(r.results<S::Minimize>().layout_bytes, fs::file_size(probe::layout_path(standalone)));
    // Their format version, which the bytes depend on.
    EXPECT_EQ(r.results<S::CheckCr>().layout_version, probe::kLayoutVersion);
    EXPECT_EQ(r.results<S::Minimize>().layout_version, probe::kLayoutVersion);
    EXPECT_GT(r.stage(S::MinimizeCr).seconds, 0);
    EXPECT_GT(r.results<S::MinimizeCr>().expected_peak_bytes, 0u);
    // The probe's proof agreed everywhere: the cubes' own check was not needed.
    EXPECT_EQ(r.results<S::CheckCr>().checked_positions, 0u);
    // Every legal position, as the standalone check.
    EXPECT_EQ(r.results<S::CheckCr>().probed_positions, r.results<S::Check>().checked_positions);
    EXPECT_EQ(r.results<S::CheckCr>().mismatches, 0u);
  }
  const run::BatchRecord& kpk = first->back();
  ASSERT_EQ(kpk.balance, *Balance::parse("KPvK"));
  EXPECT_GT(kpk.results<S::MinimizeCr>().search_positions, 0u);  // promotions that win
  EXPECT_GT(kpk.results<S::MinimizeCr>().cubes, 0u);

  // Done: nothing runs again, and the figures come back from the records.
  Result<std::vector<run::BatchRecord>> again = Error{""};
  log = run_logged(req, no_progress(), &again);
  ASSERT_TRUE(again);
  ASSERT_EQ(log.size(), 6u * 5u);
  for (const std::string& line : log) EXPECT_NE(line.find("(skipped)"), std::string::npos) << line;
  EXPECT_EQ(again->back().results<S::MinimizeCr>().cover_bytes, kpk.results<S::MinimizeCr>().cover_bytes);
  EXPECT_EQ(again->back().results<S::CheckCr>().layout_bytes, kpk.results<S::CheckCr>().layout_bytes);
  EXPECT_EQ(again->back().results<S::CheckCr>().layout_version, probe::kLayoutVersion);
  EXPECT_EQ(again->back().results<S::MinimizeCr>().search_positions, kpk.results<S::MinimizeCr>().search_positions);
  EXPECT_EQ(again->back().results<S::CheckCr>().probed_positions, kpk.results<S::CheckCr>().probed_positions);
  EXPECT_EQ(again->back().stage(S::CheckCr).seconds, kpk.stage(S::CheckCr).seconds);

  // The standalone covers alone: no capture-resolved stage.
  run::BatchRequest plain = request(dir.path, names);
  log = run_logged(plain);
  EXPECT_EQ(log.size(), 6u * 3u);
  for (const std::string& line : log) EXPECT_EQ(line.find("-cr"), std::string::npos) << line;

  // A capture-resolved layout no longer the one proven (here removed; so too one made again in
  // another version or form) is proven again, which writes it where it is missing, and the record
  // gives the layout proven; nothing else runs.
  const fs::path kpk_layout =
      probe::layout_path(store::cover_path(dir.path, kpk.balance, store::CoverKind::CaptureResolved));
  ASSERT_TRUE(fs::remove(kpk_layout));
  Result<std::vector<run::BatchRecord>> reproved = Error{""};
  log = run_logged(req, no_progress(), &reproved);
  ASSERT_TRUE(reproved) << reproved.error().message;
  for (const std::string& line : log)
    EXPECT_EQ(line.find("(skipped)") == std::string::npos, line == "KPvK check-cr") << line;
  ASSERT_TRUE(fs::exists(kpk_layout));
  EXPECT_EQ(reproved->back().results<S::CheckCr>().layout_bytes, fs::file_size(kpk_layout));
  EXPECT_EQ(reproved->back().results<S::CheckCr>().layout_bytes, kpk.results<S::CheckCr>().layout_bytes);
  EXPECT_EQ(reproved->back().results<S::CheckCr>().mismatches, 0u);

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

// Capture-resolved covers alone: no standalone cover is made, and the balances a capture search
// reaches that have no cover get theirs first, in the same run.
TEST(BatchRun, CaptureResolvedRunMakesTheCoversItsSearchesProbe) {
  TempDir dir("batch-cr-only");
  run::BatchRequest req = request(dir.path, {"KPvK"});
  req.covers = run::CoverSet::CaptureResolved;
  const std::vector<Balance> planned = run::batch_balances(req);
  ASSERT_EQ(planned.size(), 6u);  // KPvK, the four it promotes to, and KvK their captures reach
  EXPECT_EQ(planned.front(), *Balance::parse("KvK"));
  EXPECT_EQ(planned.back(), *Balance::parse("KPvK"));
  // The plan names each stage ahead with an estimate, before anything runs.
  const run::BatchPlan before = run::plan_batch(req);
  ASSERT_EQ(before.stages.size(), 6u * 3u);
  for (const run::PlannedStage& p : before.stages) {
    EXPECT_FALSE(p.done);
    EXPECT_FALSE(run::part_of(p.stage) == run::StagePart::Standalone) << name_of(p.stage);
    EXPECT_GT(p.expected_peak_bytes, 0u);
  }
  EXPECT_GT(before.peak_bytes_to_do(), 0u);
  Result<std::vector<run::BatchRecord>> result = Error{""};
  auto log = run_logged(req, no_progress(), &result);
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->size(), 6u);
  EXPECT_EQ(log.size(), 6u * 3u);  // table, minimize-cr, check-cr each
  for (const std::string& line : log) {
    EXPECT_EQ(line.find(" minimize "), std::string::npos) << line;
    EXPECT_FALSE(line.ends_with(" check")) << line;
  }
  EXPECT_EQ(log.back(), "KPvK check-cr");
  for (const run::BatchRecord& r : *result) {
    SCOPED_TRACE(r.balance.name());
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_TRUE(r.stage(S::CheckCr).done);
    EXPECT_FALSE(r.stage(S::Minimize).done);
    EXPECT_EQ(r.results<S::CheckCr>().mismatches, 0u);
    EXPECT_GT(r.results<S::CheckCr>().probed_positions, 0u);
    EXPECT_FALSE(fs::exists(store::cover_path(dir.path, r.balance, store::CoverKind::Standalone)));
  }
  // Now that they have covers, a second run plans KPvK alone, with nothing left to do.
  EXPECT_EQ(run::batch_balances(req), (std::vector<Balance>{*Balance::parse("KPvK")}));
  const run::BatchPlan after = run::plan_batch(req);
  ASSERT_EQ(after.stages.size(), 3u);
  for (const run::PlannedStage& p : after.stages) EXPECT_TRUE(p.done);
  EXPECT_EQ(after.seconds_to_do().count(), 0);
  EXPECT_GT(result->back().stage(S::MinimizeCr).cpu_seconds, 0);
  EXPECT_EQ(run::load_record(dir.path, *Balance::parse("KPvK"))->stage(S::MinimizeCr).cpu_seconds,
            result->back().stage(S::MinimizeCr).cpu_seconds);
}

// --successors tables: one balance made and proven with the values its captures and promotions
// reach read from their tables, so no cover below it is made; the proof finds the same as through
// their covers, and still finds a wrong cube.
TEST(BatchRun, SuccessorTablesProveOneBalanceWithoutTheCoversBelowIt) {
  TempDir dir("batch-cr-tables");
  run::BatchRequest req = request(dir.path, {"KPvK"});
  req.covers = run::CoverSet::CaptureResolved;
  req.successors = run::SuccessorValues::Tables;
  const Balance kpk = *Balance::parse("KPvK");
  // The tables it reaches come first, as steps of their own with their table stage alone.
  const std::vector<Balance> planned = run::batch_balances(req);
  ASSERT_EQ(planned.size(), 6u);  // KvK, the four KPvK promotes to, KPvK
  EXPECT_EQ(planned.back(), kpk);
  const run::BatchPlan plan = run::plan_batch(req);
  ASSERT_EQ(plan.stages.size(), 5u + 3u);
  for (const run::PlannedStage& p : plan.stages)
    EXPECT_TRUE(p.stage == S::Table || p.balance == kpk) << p.balance.name() << " " << name_of(p.stage);
  auto tables = run::run_batch(req);
  ASSERT_TRUE(tables) << tables.error().message;
  ASSERT_EQ(tables->size(), 6u);
  for (const run::BatchRecord& below : *tables) {
    EXPECT_TRUE(below.stage(S::Table).done) << below.balance.name();
    EXPECT_EQ(below.stage(S::MinimizeCr).done, below.balance == kpk) << below.balance.name();
  }
  EXPECT_EQ(run::batch_balances(req), (std::vector<Balance>{kpk}));  // every table there now
  const run::BatchRecord& r = tables->back();
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_TRUE(r.stage(S::CheckCr).done);
  EXPECT_EQ(r.results<S::CheckCr>().mismatches, 0u);
  EXPECT_EQ(r.results<S::CheckCr>().successors, run::SuccessorValues::Tables);
  EXPECT_EQ(run::load_record(dir.path, kpk)->results<S::CheckCr>().successors, run::SuccessorValues::Tables);
  for (const char* below : {"KQvK", "KRvK", "KBvK", "KNvK", "KvK"})
    EXPECT_FALSE(fs::exists(store::cover_path(dir.path, *Balance::parse(below), store::CoverKind::CaptureResolved)))
        << below;

  // Through the covers below it instead (made by this run), the proof probes the same positions.
  TempDir covers_dir("batch-cr-covers");
  run::BatchRequest through_covers = request(covers_dir.path, {"KPvK"});
  through_covers.covers = run::CoverSet::CaptureResolved;
  auto covers = run::run_batch(through_covers);
  ASSERT_TRUE(covers) << covers.error().message;
  const run::BatchRecord& c = covers->back();
  EXPECT_EQ(c.results<S::CheckCr>().successors, run::SuccessorValues::Covers);
  EXPECT_EQ(c.results<S::CheckCr>().probed_positions, r.results<S::CheckCr>().probed_positions);
  EXPECT_EQ(c.results<S::CheckCr>().mismatches, 0u);

  // A wrong cube is found through the tables too.
  const fs::path cr = store::cover_path(dir.path, kpk, store::CoverKind::CaptureResolved);
  ASSERT_NO_FATAL_FAILURE(flip_one_cube(cr, kpk));
  fs::remove(probe::layout_path(cr));
  TableStore store(dir.path);
  run::StageFigures figures;
  run::StageContext ctx{req, store, kpk, 2, no_progress(), figures, {}};
  run::Stage<S::CheckCr>::Results wrong;
  run::Stage<S::CheckCr>::run(ctx, wrong);
  EXPECT_FALSE(figures.done);
  EXPECT_GT(wrong.mismatches, 0u);
}

// A wrong cube: check-cr's proof through the probe finds it, and the cubes' own check then runs
// to say whether the cubes or the capture search are wrong.
TEST(BatchRun, CheckCrNamesTheCubesWhenTheProbeDisagrees) {
  TempDir dir("batch-cr-wrong");
  run::BatchRequest req = request(dir.path, {"KPvK"});
  req.covers = run::CoverSet::CaptureResolved;
  ASSERT_TRUE(run::run_batch(req));
  const Balance kpk = *Balance::parse("KPvK");
  const fs::path cr = store::cover_path(dir.path, kpk, store::CoverKind::CaptureResolved);
  ASSERT_NO_FATAL_FAILURE(flip_one_cube(cr, kpk));
  fs::remove(probe::layout_path(cr));  // the probe builds its index from the changed cubes

  TableStore store(dir.path);
  run::StageFigures figures;
  run::StageContext c{req, store, kpk, 2, no_progress(), figures, {}};
  run::Stage<S::CheckCr>::Results results;
  run::Stage<S::CheckCr>::run(c, results);
  EXPECT_FALSE(figures.done);
  EXPECT_GT(results.probed_positions, 0u);
  EXPECT_GT(results.checked_positions, 0u);  // the cubes' check ran
  EXPECT_GT(results.mismatches, 0u);
  EXPECT_NE(c.error.find("mismatches of the probe"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("the cubes alone: "), std::string::npos) << c.error;
  EXPECT_EQ(c.error.find("so the capture search"), std::string::npos) << c.error;  // the cubes are wrong
}

// One capture-resolved stage alone (a cluster job's step) makes nothing else: without the covers
// its capture search probes it fails naming them, and it needs the stages before it.
TEST(BatchRun, CaptureResolvedStageAloneNamesTheMissingCovers) {
  TempDir dir("batch-cr-missing");
  ASSERT_TRUE(run::run_batch(request(dir.path, {"KBvK"})));  // the table (and KvK's) and the standalone cover
  run::BatchRequest one = request(dir.path, {"KBvK"});
  one.only = run::BatchStage::CheckCr;
  auto early = run::run_batch(one);
  ASSERT_TRUE(early);
  EXPECT_EQ(early->at(0).error, "check-cr: needs the minimize-cr stage done first");

  one.only = run::BatchStage::MinimizeCr;
  EXPECT_EQ(run::batch_balances(one), (std::vector<Balance>{*Balance::parse("KBvK")}));
  auto missing = run::run_batch(one);
  ASSERT_TRUE(missing);
  const run::BatchRecord& r = missing->at(0);
  EXPECT_EQ(r.error.rfind("minimize-cr: KBvK's capture-resolved cover needs the covers", 0), 0u) << r.error;
  EXPECT_NE(r.error.find("missing: KvK "), std::string::npos) << r.error;
  EXPECT_FALSE(fs::exists(store::cover_path(dir.path, r.balance, store::CoverKind::CaptureResolved)));
  EXPECT_FALSE(run::load_record(dir.path, r.balance)->stage(S::MinimizeCr).done);

  // With KvK's cover made, it goes through.
  ASSERT_TRUE(run::run_batch(request(dir.path, {"KvK"})));
  auto made = run::run_batch(one);
  ASSERT_TRUE(made);
  EXPECT_TRUE(made->at(0).error.empty()) << made->at(0).error;
  EXPECT_TRUE(made->at(0).stage(S::MinimizeCr).done);
  // The missing-cover check is the one the stages ask.
  EXPECT_TRUE(run::missing_successor_covers(dir.path, *Balance::parse("KBvK")).empty());
  EXPECT_EQ(run::missing_successor_covers(dir.path, *Balance::parse("KPvK")),
            (std::vector<Balance>{*Balance::parse("KQvK"), *Balance::parse("KRvK"), *Balance::parse("KNvK")}));
}

// The report carries a cover's figures only when its stages were asked for or are done, and
// --stage and --covers take their names.
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
  auto bad = batch({"--covers", "some"});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("unknown cover set 'some' (standalone, capture-resolved or both)"), std::string::npos)
      << bad.err;
  EXPECT_NE(batch({"--capture-resolved", "--covers", "standalone"}).exit_code, 0);
  // --plan runs nothing and says what a run would do.
  TempDir fresh("batch-plan");
  auto plan = test::run_program(
      EGTMIN_CLI, {"batch", "KBvK", "--covers", "capture-resolved", "--plan", "--data", fresh.path.string()});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("KvK      minimize-cr"), std::string::npos) << plan.out;  // what KBvK's search probes
  EXPECT_NE(plan.out.find("KBvK     check-cr"), std::string::npos) << plan.out;
  EXPECT_NE(plan.out.find("6 stage(s) to do (0 done before)"), std::string::npos) << plan.out;
  EXPECT_FALSE(fs::exists(fresh.path / "batch"));
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

namespace {

// A plan's expected times go by kind of balance: against a lone king, a pawnful balance's cover is
// made in a fraction of the time of one with material on each side, though their tables have as
// many slots.
TEST(BatchRun, ExpectedTimesGoByKindOfBalance) {
  const Balance lone = *Balance::parse("KBPPvK"), each = *Balance::parse("KRPvKR");
  ASSERT_EQ(run::table_slots(lone), run::table_slots(each));
  EXPECT_LT(run::expected_stage_seconds(lone, S::MinimizeCr, 2), run::expected_stage_seconds(each, S::MinimizeCr, 2));
  EXPECT_LT(run::expected_stage_seconds(lone, S::Table, 2), run::expected_stage_seconds(each, S::Table, 2));
  // Stages measured for the pawns alone keep one rate for both shapes.
  EXPECT_EQ(run::expected_stage_seconds(lone, S::Minimize, 2), run::expected_stage_seconds(each, S::Minimize, 2));
}

}  // namespace
