// SPDX-License-Identifier: GPL-3.0-or-later
// The batch run one stage at a time (run::BatchRequest::only), as a cluster's jobs run it: the
// stages' prerequisites, their records, and the verify stage against Syzygy.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "logic/pass_sequence.hpp"
#include "run/batch_run.hpp"
#include "store/cover_file.hpp"
#include "support/env.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace egtmin;
namespace fs = std::filesystem;
using run::BatchStage;
using test::TempDir;
using S = run::BatchStage;

Balance bal(const char* name) { return *Balance::parse(name); }

// A batch of `balances` in `data_dir` with the default passes, on one thread.
run::BatchRequest request(const fs::path& data_dir, std::vector<Balance> balances) {
  run::BatchRequest req;
  req.balances = std::move(balances);
  req.data_dir = data_dir;
  req.passes = logic::default_passes();
  req.threads = 1;
  return req;
}

// One stage at a time, as the jobs run them: a stage before its prerequisites is refused by
// name, and a killed writer's temporary is cleared before the stage writes.
TEST(BatchStages, OneStageAtATime) {
  TempDir dir("batch-stage");
  run::BatchRequest req = request(dir.path, {bal("KRvK")});
  req.only = BatchStage::Minimize;
  auto early = run::run_batch(req);
  ASSERT_TRUE(early);
  EXPECT_EQ(early->at(0).error, "minimize: needs the table stage done first");
  EXPECT_FALSE(fs::exists(store::cover_path(dir.path, bal("KRvK"))));

  req.balances = {bal("KvK")};
  req.only = BatchStage::Table;
  ASSERT_TRUE(run::run_batch(req));
  req.balances = {bal("KRvK")};
  ASSERT_TRUE(run::run_batch(req));
  auto rec = run::load_record(dir.path, bal("KRvK"));
  ASSERT_TRUE(rec);
  EXPECT_TRUE(rec->stage(S::Table).done);
  EXPECT_FALSE(rec->stage(S::Minimize).done);
  const fs::path stale = store::cover_path(dir.path, bal("KRvK")).string() + ".tmp-Ab12Cd";
  fs::create_directories(stale.parent_path());
  std::ofstream(stale) << "half a cover";
  req.only = BatchStage::Minimize;
  auto minimized = run::run_batch(req);
  ASSERT_TRUE(minimized);
  EXPECT_TRUE(minimized->at(0).error.empty()) << minimized->at(0).error;
  EXPECT_FALSE(fs::exists(stale));
  req.only = BatchStage::Check;
  auto checked = run::run_batch(req);
  ASSERT_TRUE(checked);
  EXPECT_TRUE(checked->at(0).stage(S::Check).done);
  EXPECT_EQ(checked->at(0).results<S::Check>().mismatches, 0u);
  EXPECT_GT(checked->at(0).results<S::Check>().checked_positions, 0u);
  // The verify stage needs Syzygy's directory.
  req.only = BatchStage::Verify;
  EXPECT_FALSE(run::run_batch(req));
}

// The verify stage compares with Syzygy and is recorded like the others, so a job that ran it is
// not run again; a balance Syzygy has no file for is done without a comparison.
TEST(BatchStages, VerifyIsRecorded) {
  EGTMIN_REQUIRE_SYZYGY();
  TempDir dir("batch-verify");
  // A Syzygy directory with KRvK's file alone: KQvK has nothing to be compared with.
  const fs::path syzygy = dir.path / "syzygy";
  fs::create_directories(syzygy);
  fs::create_symlink(test::syzygy_dir() / "KRvK.rtbw", syzygy / "KRvK.rtbw");
  run::BatchRequest req = request(dir.path / "data", {bal("KQvK"), bal("KRvK")});
  req.only = BatchStage::Table;
  ASSERT_TRUE(run::run_batch(req));
  req.only = BatchStage::Verify;
  req.syzygy_dir = syzygy;
  auto verified = run::run_batch(req);
  ASSERT_TRUE(verified) << verified.error().message;
  for (const Balance& b : req.balances) {
    auto rec = run::load_record(req.data_dir, b);
    ASSERT_TRUE(rec);
    EXPECT_TRUE(rec->stage(S::Verify).done) << b.name();
    EXPECT_EQ(rec->results<S::Verify>().syzygy_mismatches, 0u);
  }
  auto krvk = run::load_record(req.data_dir, bal("KRvK"));
  EXPECT_TRUE(krvk->results<S::Verify>().syzygy_compared);
  EXPECT_GT(krvk->results<S::Verify>().syzygy_positions,
            krvk->results<S::Table>().positions);  // every legal position, not only canonical ones
  EXPECT_FALSE(run::load_record(req.data_dir, bal("KQvK"))->results<S::Verify>().syzygy_compared);
  std::vector<std::string> log;
  run::BatchEvents ev;
  ev.stage_done = [&](const run::BatchRecord&, run::BatchStage, bool skipped) {
    log.push_back(skipped ? "skipped" : "ran");
  };
  ASSERT_TRUE(run::run_batch(req, ev));
  EXPECT_EQ(log, (std::vector<std::string>{"skipped", "skipped"}));
}

// Comparing a table with Syzygy after its cover is made and proven reads the table only: the
// cover's stages stay done and are not run again.
TEST(BatchStages, VerifyLaterLeavesTheCoversDone) {
  EGTMIN_REQUIRE_SYZYGY();
  TempDir dir("batch-verify-later");
  run::BatchRequest req = request(dir.path, {bal("KRvK")});
  req.covers = run::CoverSet::Both;
  ASSERT_TRUE(run::run_batch(req));
  const auto made = fs::last_write_time(store::cover_path(dir.path, bal("KRvK"), store::CoverKind::CaptureResolved));
  req.syzygy_dir = test::syzygy_dir();
  std::vector<std::string> log;
  run::BatchEvents ev;
  ev.stage_done = [&](const run::BatchRecord& r, run::BatchStage s, bool skipped) {
    if (r.balance == bal("KRvK")) log.push_back(std::string(name_of(s)) + (skipped ? " skipped" : " ran"));
  };
  auto verified = run::run_batch(req, ev);
  ASSERT_TRUE(verified) << verified.error().message;
  EXPECT_EQ(log, (std::vector<std::string>{"table skipped", "verify ran", "minimize skipped", "check skipped",
                                           "minimize-cr skipped", "check-cr skipped"}));
  EXPECT_EQ(made, fs::last_write_time(store::cover_path(dir.path, bal("KRvK"), store::CoverKind::CaptureResolved)));
  auto rec = run::load_record(dir.path, bal("KRvK"));
  ASSERT_TRUE(rec);
  EXPECT_TRUE(rec->stage(S::Verify).done && rec->stage(S::CheckCr).done && rec->stage(S::Check).done);
}

}  // namespace
