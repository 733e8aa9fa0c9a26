// SPDX-License-Identifier: GPL-3.0-or-later
// The run service both the CLI and the GUI minimize through: tables first, balances in parallel,
// per-pass events in order, one honest bar over the whole run, cancel, and refusal before work.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include "logic/check.hpp"
#include "run/minimize_run.hpp"
#include "store/cover_file.hpp"
#include "support/env.hpp"
#include "support/temp_dir.hpp"
#include "table/table_store.hpp"

namespace {

using namespace egtmin;
namespace fs = std::filesystem;

using test::TempDir;

run::MinimizeRequest request(const fs::path& dir, std::vector<std::string> names, int threads) {
  run::MinimizeRequest r;
  for (const auto& n : names) r.balances.push_back(*Balance::parse(n));
  r.passes = logic::default_passes();
  r.threads = threads;
  r.data_dir = dir;
  return r;
}

TEST(MinimizeRun, GeneratesThenMinimizesInParallelWithEveryPassReported) {
  TempDir dir("run-parallel");
  auto req = request(dir.path, {"KRvK", "KQvK", "kvkq"}, 2);  // kvkq: KQvK again, colours swapped
  std::mutex m;
  std::vector<std::string> generated;
  std::map<std::string, std::vector<std::string>> events;  // per balance, in order
  std::vector<double> fractions;
  bool saw_generate = false, saw_pass = false;
  run::MinimizeEvents ev;
  ev.table_generated = [&](const Balance& b, const TableStore::Generated&) { generated.push_back(b.name()); };
  ev.balance_started = [&](const Balance& b, uint64_t minterms, uint64_t care, int inputs) {
    EXPECT_GT(minterms, 0u);
    EXPECT_GE(care, minterms);
    EXPECT_EQ(inputs, 19);
    events[b.name()].push_back("start");
  };
  ev.pass_done = [&](const Balance& b, const logic::PassReport& r) { events[b.name()].push_back(r.pass); };
  ev.balance_done = [&](const run::BalanceResult& r) { events[r.balance.name()].push_back(r.ok() ? "done" : r.error); };
  Progress progress([&](const ProgressEvent& e) {
    std::lock_guard lock(m);
    fractions.push_back(e.fraction);
    saw_generate |= e.stage == Stage::Generate;
    saw_pass |= e.stage == Stage::Pass;
  });
  auto r = run::run_minimize(req, ev, progress);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->ok());
  EXPECT_EQ(r->balance_workers, 2);
  EXPECT_EQ(r->pass_threads, 1);
  ASSERT_EQ(r->balances.size(), 2u) << "a balance named twice is minimized once";
  // KvK first (both depend on it), then the balances in the order asked.
  EXPECT_EQ(generated, (std::vector<std::string>{"KvK", "KRvK", "KQvK"}));
  const std::vector<std::string> want{"start", "canon", "compact", "expand", "irredundant", "done"};
  EXPECT_EQ(events["KRvK"], want);
  EXPECT_EQ(events["KQvK"], want);
  EXPECT_TRUE(saw_generate);
  EXPECT_TRUE(saw_pass);
  ASSERT_FALSE(fractions.empty());
  for (double f : fractions) EXPECT_TRUE(f >= 0 && f <= 1) << f;
  EXPECT_DOUBLE_EQ(fractions.back(), 1.0);

  // The covers it saved are exact over every position of their tables.
  TableStore store(dir.path);
  for (const run::BalanceResult& b : r->balances) {
    ASSERT_EQ(b.cover_path, store::cover_path(dir.path, b.balance));
    auto cover = store::load_cover(b.cover_path, &b.balance);
    ASSERT_TRUE(cover) << cover.error().message;
    EXPECT_EQ(cover->cubes.size(), b.cubes);
    EXPECT_EQ(cover->passes, "canon,compact,expand,irredundant");
    auto t = store.get(b.balance);
    ASSERT_TRUE(t);
    auto check = logic::check_cover(**t, cover->cubes, cover->canon, cover->rule_draws, cover->implied);
    EXPECT_EQ(check.mismatches, 0u) << b.balance.name();
  }

  // Again: nothing left to generate.
  auto again = run::run_minimize(req);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->generated.empty());
}

TEST(MinimizeRun, FivePiecesRunOneBalanceAtATimeWithAllThreads) {
  std::vector<Balance> mixed{*Balance::parse("KRvK"), *Balance::parse("KRPvKR")};
  EXPECT_EQ(run::split_threads(mixed, 2).balance_workers, 1);
  EXPECT_EQ(run::split_threads(mixed, 2).pass_threads, 2);
  EXPECT_EQ(run::split_threads({*Balance::parse("KRvK")}, 2).balance_workers, 1);
  EXPECT_EQ(run::split_threads({*Balance::parse("KRvK")}, 2).pass_threads, 2);
  EXPECT_EQ(run::split_threads({*Balance::parse("KRvK"), *Balance::parse("KQvK")}, 8).balance_workers, 2);
  EXPECT_EQ(run::split_threads({*Balance::parse("KRvK"), *Balance::parse("KQvK")}, 8).pass_threads, 1);
  // 0: the default thread count, shared the same way.
  EXPECT_EQ(run::split_threads(mixed, 0).pass_threads, default_threads());
}

TEST(MinimizeRun, RefusesUnsupportedPieceCountsBeforeAnyWork) {
  TempDir dir("run-refuse");
  auto r = run::run_minimize(request(dir.path, {"KRvK", "KQRBNvK"}, 1));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("KQRBNvK has 6 pieces"), std::string::npos) << r.error().message;
  EXPECT_FALSE(fs::exists(dir.path / "tables")) << "nothing generated";
}

TEST(MinimizeRun, CancelStopsTheRunAndSavesNothingHalfWritten) {
  TempDir dir("run-cancel");
  Progress progress;
  progress.cancel();
  auto r = run::run_minimize(request(dir.path, {"KRvK"}, 1), {}, progress);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "cancelled");
  EXPECT_FALSE(fs::exists(store::cover_path(dir.path, *Balance::parse("KRvK"))));
}

TEST(MinimizeRun, TablesOnlyWhenNoPasses) {
  TempDir dir("run-tables");
  auto req = request(dir.path, {"KNvK"}, 1);
  req.passes = {};
  auto r = run::run_minimize(req);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->balances.empty());
  EXPECT_TRUE(TableStore(dir.path).on_disk(*Balance::parse("KNvK")));
  EXPECT_FALSE(fs::exists(store::cover_path(dir.path, *Balance::parse("KNvK"))));
}

// The 50-move rule's draws reach both the saved cover and the run's summary, which the batch
// records count (a KQvKR table with cursed wins and blessed losses planted: no 3-4-piece balance
// has any).
TEST(MinimizeRun, RuleDrawsAreSavedAndCountedInTheSummary) {
  TempDir dir("run-rule-draws");
  const Balance kqkr = *Balance::parse("KQvKR");
  {
    TableStore store(dir.path);
    auto t = store.ensure(kqkr);
    ASSERT_TRUE(t) << t.error().message;
    Table planted = **t;
    for (uint64_t s = 0; s < planted.slots(); s += 37) {
      const Wdl v = planted.at_slot(s);
      if (v == Wdl::Win || v == Wdl::Loss) planted.set_slot(s, v == Wdl::Win ? Wdl::CursedWin : Wdl::BlessedLoss);
    }
    ASSERT_TRUE(planted.save(store.path_for(kqkr)).ok());
  }
  auto r = run::run_minimize(request(dir.path, {"KQvKR"}, 2), {}, no_progress());
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->balances.size(), 1u);
  auto cover = store::load_cover(r->balances[0].cover_path, &kqkr);
  ASSERT_TRUE(cover) << cover.error().message;
  EXPECT_GT(cover->rule_draws.size(), 1000u);
  EXPECT_EQ(r->balances[0].summary.rule_draws.size(), cover->rule_draws.size());
  TableStore store(dir.path);
  auto t = store.get(kqkr);
  ASSERT_TRUE(t);
  EXPECT_EQ(logic::check_cover(**t, cover->cubes, cover->canon, cover->rule_draws, cover->implied).mismatches, 0u);
}

}  // namespace

namespace {

run::BalanceResult minimize_one(const run::MinimizeRequest& req) {
  auto r = run::run_minimize(req, {}, no_progress());
  EXPECT_TRUE(r) << r.error().message;
  if (!r || r->balances.size() != 1) return {};
  EXPECT_TRUE(r->balances[0].ok()) << r->balances[0].error;
  return r->balances[0];
}

}  // namespace

// KRRvK: Black's king captures only into lost positions and White has nothing to capture, so
// capture resolution leaves no position to the search: the capture-resolved function is the
// standalone one, and the standalone cover is saved again instead of being made a second time.
// A balance where captures reach draws (KQvK), another pipeline or the high effort is minimized
// (KvK for those two: small, and nothing to capture either).
TEST(MinimizeRun, CaptureResolvedCoverReusesTheStandaloneOneWhenNothingIsLeftToTheSearch) {
  TempDir dir("run-cr-reuse");
  auto made = run::run_minimize(request(dir.path, {"KRRvK", "KQvK", "KvK"}, 2), {}, no_progress());
  ASSERT_TRUE(made) << made.error().message;
  const Balance krr = *Balance::parse("KRRvK");
  auto plain = store::load_cover(store::cover_path(dir.path, krr, store::CoverKind::Standalone));
  ASSERT_TRUE(plain) << plain.error().message;

  auto cr = request(dir.path, {"KRRvK"}, 2);
  cr.kind = store::CoverKind::CaptureResolved;
  const run::BalanceResult reused = minimize_one(cr);
  EXPECT_EQ(reused.capture_resolved, 0u);
  EXPECT_TRUE(reused.reused_standalone);
  EXPECT_TRUE(reused.summary.reports.empty());  // no pass ran
  auto file = store::load_cover(store::cover_path(dir.path, krr, store::CoverKind::CaptureResolved));
  ASSERT_TRUE(file) << file.error().message;
  EXPECT_EQ(file->kind, store::CoverKind::CaptureResolved);
  EXPECT_EQ(file->cubes, plain->cubes);
  EXPECT_EQ(file->implied, plain->implied);
  EXPECT_EQ(file->canon, plain->canon);
  EXPECT_EQ(file->passes, plain->passes);
  EXPECT_EQ(reused.cubes, plain->cubes.size());

  // A standalone cover that no longer agrees with the table (one cube lost: an irredundant cover
  // has none to spare) is not carried over: the capture-resolved cover is made afresh.
  store::CoverFile stale = *plain;
  stale.cubes.erase(stale.cubes.begin());
  ASSERT_TRUE(store::save_cover(store::cover_path(dir.path, krr, store::CoverKind::Standalone), stale));
  const run::BalanceResult remade = minimize_one(cr);
  EXPECT_FALSE(remade.reused_standalone);
  EXPECT_FALSE(remade.summary.reports.empty());
  auto fresh = store::load_cover(store::cover_path(dir.path, krr, store::CoverKind::CaptureResolved));
  ASSERT_TRUE(fresh) << fresh.error().message;
  EXPECT_NE(fresh->cubes, stale.cubes);

  // Captures that reach draws leave positions to the search: minimized with them open.
  auto kqk = request(dir.path, {"KQvK"}, 2);
  kqk.kind = store::CoverKind::CaptureResolved;
  const run::BalanceResult searched = minimize_one(kqk);
  EXPECT_GT(searched.capture_resolved, 0u);
  EXPECT_FALSE(searched.reused_standalone);
  EXPECT_FALSE(searched.summary.reports.empty());

  // Nothing left to the search either, but another pipeline than the standalone cover's, or the
  // high effort: made afresh.
  auto kk = request(dir.path, {"KvK"}, 2);
  kk.kind = store::CoverKind::CaptureResolved;
  EXPECT_TRUE(minimize_one(kk).reused_standalone);
  auto other = kk;
  other.passes = *logic::parse_passes("canon,compact");
  const run::BalanceResult compacted = minimize_one(other);
  EXPECT_EQ(compacted.capture_resolved, 0u);
  EXPECT_FALSE(compacted.reused_standalone);
  EXPECT_EQ(compacted.summary.reports.size(), 2u);
  auto high = kk;
  high.effort = logic::Effort::High;
  EXPECT_FALSE(minimize_one(high).reused_standalone);
}
