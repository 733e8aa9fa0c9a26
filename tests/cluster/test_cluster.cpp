// SPDX-License-Identifier: GPL-3.0-or-later
// The cluster layer without a Slurm: a fake stands in for sbatch, squeue, sacct and scancel, so
// these check the jobs' dependency graph, what a second submission keeps, skips and replaces,
// the status read back, and the parsing of the scheduler's output. The real scheduler is
// exercised by tests/cluster/test_local_slurm.cpp under scripts/cluster-test.sh.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "cluster/job_files.hpp"
#include "cluster/resources.hpp"
#include "cluster/slurm.hpp"
#include "cluster/status.hpp"
#include "cluster/submit.hpp"
#include "logic/pass_sequence.hpp"
#include "run/batch_run.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace egtmin;
using namespace std::chrono_literals;
namespace fs = std::filesystem;
using cluster::PlannedJob;
using cluster::StageState;
using run::BatchStage;
using test::TempDir;

Balance bal(const char* name) { return *Balance::parse(name); }

// Answers as Slurm would: sbatch hands out ids from 100, squeue lists `queue`, sacct `ended`
// (or fails as it does without accounting), scancel removes the job from the queue.
struct FakeSlurm {
  std::vector<std::vector<std::string>> calls;
  std::map<std::string, std::string> queue;  // id -> "STATE|REASON"
  std::map<std::string, std::string> ended;  // id -> "STATE|EXIT"
  bool accounting = true;
  int next_id = 100;

  cluster::CommandRunner runner() {
    return [this](const std::vector<std::string>& argv) -> Result<cluster::CommandOutput> {
      calls.push_back(argv);
      cluster::CommandOutput o;
      o.exit_code = 0;
      if (argv[0] == "sbatch") {
        o.out = std::to_string(next_id) + "\n";
        queue[std::to_string(next_id++)] = "PENDING|Dependency";
      } else if (argv[0] == "squeue") {
        for (const auto& [id, s] : queue) o.out += id + "|" + s + "\n";
      } else if (argv[0] == "sacct") {
        if (!accounting) return cluster::CommandOutput{1, "", "sacct: error: Slurm accounting storage is disabled\n"};
        for (const auto& [id, s] : ended) o.out += id + "|" + s + "\n" + id + ".batch|" + s + "\n";
      } else if (argv[0] == "scancel") {
        queue.erase(argv[1]);
      }
      return o;
    };
  }
  std::vector<std::vector<std::string>> sbatches() const {
    std::vector<std::vector<std::string>> out;
    for (const auto& c : calls)
      if (c[0] == "sbatch") out.push_back(c);
    return out;
  }
};

cluster::SubmitRequest request(const fs::path& dir, std::vector<const char*> names) {
  cluster::SubmitRequest r;
  for (const char* n : names) r.balances.push_back(bal(n));
  r.data_dir = dir;
  r.egtmin_cli = EGTMIN_CLI;
  r.cpus = 1;
  return r;
}

const PlannedJob& job(const cluster::SubmitReport& report, const char* balance, BatchStage s) {
  for (const PlannedJob& j : report.jobs)
    if (j.balance == bal(balance) && j.stage == s) return j;
  static PlannedJob none;
  ADD_FAILURE() << "no job for " << balance << " " << name_of(s);
  return none;
}

std::string id_of(const cluster::SubmitReport& report, const char* balance, BatchStage s) {
  return job(report, balance, s).job_id;
}

TEST(ClusterResources, SlurmTimesRoundTrip) {
  EXPECT_EQ(*cluster::parse_slurm_time("90"), 5400s);
  EXPECT_EQ(*cluster::parse_slurm_time("10:30"), 630s);
  EXPECT_EQ(*cluster::parse_slurm_time("2:00:00"), 7200s);
  EXPECT_EQ(*cluster::parse_slurm_time("1-12"), 129600s);
  EXPECT_EQ(*cluster::parse_slurm_time("1-12:30"), 131400s);
  EXPECT_EQ(*cluster::parse_slurm_time("1-00:00:05"), 86405s);
  for (const char* bad : {"", "x", "1:2:3:4", "-5", "0", "1-", "1h"})
    EXPECT_FALSE(cluster::parse_slurm_time(bad)) << bad;
  EXPECT_EQ(cluster::parse_slurm_time("1h").error().message.rfind("'1h' is not a Slurm time", 0), 0u);
  EXPECT_EQ(cluster::parse_slurm_time("0").error().message, "'0' is no time at all");
  EXPECT_EQ(cluster::slurm_time(129600s + 61s), "1-12:01:01");
  EXPECT_EQ(cluster::slurm_memory(uint64_t{3} << 30), "3072M");
  EXPECT_EQ(cluster::slurm_memory((uint64_t{1} << 20) + 1), "2M");  // rounded up, never under
}

TEST(ClusterResources, OverridesNameWhatIsWrong) {
  cluster::ResourceOverrides o;
  ASSERT_TRUE(cluster::parse_memory_override("minimize=16G", o));
  ASSERT_TRUE(cluster::parse_time_override("table=4:00:00", o));
  EXPECT_EQ(o.memory_bytes.at(BatchStage::Minimize), uint64_t{16} << 30);
  EXPECT_EQ(o.time.at(BatchStage::Table), 14400s);
  auto no_stage = cluster::parse_memory_override("16G", o);
  ASSERT_FALSE(no_stage);
  EXPECT_NE(no_stage.error().message.find("STAGE=VALUE"), std::string::npos) << no_stage.error().message;
  auto bad_stage = cluster::parse_time_override("gen=10", o);
  ASSERT_FALSE(bad_stage);
  EXPECT_NE(bad_stage.error().message.find("'gen'"), std::string::npos) << bad_stage.error().message;
  EXPECT_FALSE(cluster::parse_memory_override("check=lots", o));
  EXPECT_FALSE(cluster::parse_time_override("check=1:xx", o));

  const auto kqvkr = cluster::stage_resources(bal("KQvKR"), BatchStage::Minimize, 2, o);
  EXPECT_EQ(kqvkr.memory_bytes, uint64_t{16} << 30);  // the override
  const auto small = cluster::stage_resources(bal("KQvKR"), BatchStage::Table, 2, o);
  EXPECT_EQ(small.time, 14400s);
}

TEST(ClusterResources, FollowTheBalanceSize) {
  for (BatchStage s : run::kClusterStages) {
    const auto four = cluster::stage_resources(bal("KQvKR"), s, 2);
    const auto five = cluster::stage_resources(bal("KRPvKR"), s, 2);
    EXPECT_GE(four.time, 600s) << name_of(s);  // never under the floor
    EXPECT_EQ(four.time.count() % 60, 0);      // whole minutes
    EXPECT_GT(five.memory_bytes, four.memory_bytes) << name_of(s);
    EXPECT_GE(five.time, four.time) << name_of(s);
    // Above the plan's expected peak: a job over its request is killed.
    EXPECT_GT(five.memory_bytes, cluster::expected_memory_bytes(bal("KRPvKR"), s, 2));
    EXPECT_GT(five.time, cluster::expected_seconds(bal("KRPvKR"), s, 2));
  }
  // KRPvKR's table: a request must exceed the peak its recorded run took, and three times its time
  // alone (249 s): a balance at twice its kind's share, beside other jobs half as long again.
  const auto table = cluster::stage_resources(bal("KRPvKR"), BatchStage::Table, 2);
  EXPECT_GT(table.memory_bytes, uint64_t(6.72e9));
  EXPECT_GT(table.time, 3 * 249s);
}

TEST(ClusterSlurm, ParsesWhatTheCommandsPrint) {
  EXPECT_EQ(*cluster::parse_sbatch_output("4242\n"), "4242");
  EXPECT_EQ(*cluster::parse_sbatch_output("4242;big\n"), "4242");
  auto bad = cluster::parse_sbatch_output("sbatch: error: Batch job submission failed\n");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("Batch job submission failed"), std::string::npos);

  auto q = cluster::parse_squeue("12|PENDING|Dependency\n13|RUNNING|None\n14|PENDING|DependencyNeverSatisfied\n");
  ASSERT_EQ(q.size(), 3u);
  EXPECT_TRUE(cluster::is_alive(q["12"]) && !cluster::is_running(q["12"]));
  EXPECT_TRUE(cluster::is_alive(q["13"]) && cluster::is_running(q["13"]));
  EXPECT_FALSE(cluster::is_alive(q["14"]));

  auto a = cluster::parse_sacct("20|FAILED|1:0\n20.batch|FAILED|1:0\n21|CANCELLED by 0|0:15\n22|OUT_OF_MEMORY|0:125\n");
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a["20"].state, "FAILED");
  EXPECT_EQ(a["20"].exit_code, "1:0");
  EXPECT_EQ(a["21"].state, "CANCELLED");
  EXPECT_EQ(a["22"].state, "OUT_OF_MEMORY");
}

TEST(ClusterSlurm, SubmitAsksForAfterokAndKillOnInvalidDependency) {
  FakeSlurm fake;
  cluster::Slurm slurm(fake.runner());
  ASSERT_EQ(*slurm.submit("/d/a.sh", {}, {"--qos=long"}), "100");
  ASSERT_EQ(*slurm.submit("/d/b.sh", {"100", "7"}), "101");
  EXPECT_EQ(fake.calls[0], (std::vector<std::string>{"sbatch", "--parsable", "--qos=long", "/d/a.sh"}));
  EXPECT_EQ(fake.calls[1], (std::vector<std::string>{"sbatch", "--parsable", "--dependency=afterok:100:7",
                                                     "--kill-on-invalid-dep=yes", "/d/b.sh"}));
  // A failing command's message comes back with it.
  cluster::Slurm broken([](const std::vector<std::string>&) -> Result<cluster::CommandOutput> {
    return cluster::CommandOutput{1, "", "sbatch: error: retrying\nsbatch: error: invalid partition specified: gpu\n"};
  });
  auto r = broken.submit("/d/a.sh", {});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("invalid partition specified: gpu"), std::string::npos) << r.error().message;
  EXPECT_EQ(r.error().message.find("retrying"), std::string::npos) << r.error().message;  // the last line says it
}

// KQvKR from nothing: table jobs for it and every table it reaches, each after the tables its
// captures reach; then minimize after table, check after minimize.
TEST(ClusterSubmit, JobsFollowTheDependencies) {
  TempDir dir("cluster-dag");
  FakeSlurm fake;
  cluster::Slurm slurm(fake.runner());
  auto req = request(dir.path, {"KQvKR"});
  req.partition = "compute";
  req.sbatch_args = {"--qos=long"};
  auto report = cluster::submit(req, slurm);
  ASSERT_TRUE(report) << report.error().message;
  // KQvKR needs KQvK and KRvK (captures), which need KvK.
  EXPECT_EQ(report->count(PlannedJob::Action::Submitted), 4u + 2u);
  const std::string kvk = id_of(*report, "KvK", BatchStage::Table);
  const std::string kqvk = id_of(*report, "KQvK", BatchStage::Table);
  const std::string krvk = id_of(*report, "KRvK", BatchStage::Table);
  const std::string table = id_of(*report, "KQvKR", BatchStage::Table);
  EXPECT_TRUE(job(*report, "KvK", BatchStage::Table).after.empty());
  EXPECT_EQ(job(*report, "KQvK", BatchStage::Table).after, std::vector<std::string>{kvk});
  auto after = job(*report, "KQvKR", BatchStage::Table).after;
  std::sort(after.begin(), after.end());
  std::vector<std::string> want = {kqvk, krvk};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(after, want);
  EXPECT_EQ(job(*report, "KQvKR", BatchStage::Minimize).after, std::vector<std::string>{table});
  EXPECT_EQ(job(*report, "KQvKR", BatchStage::Check).after,
            std::vector<std::string>{id_of(*report, "KQvKR", BatchStage::Minimize)});
  for (const PlannedJob& j : report->jobs)  // dependencies get their table only
    EXPECT_TRUE(j.balance == bal("KQvKR") || j.stage == BatchStage::Table) << j.balance.name();
  // Every job is submitted after those it waits for, and the scripts, ids and sbatch calls agree.
  const auto sbatches = fake.sbatches();
  ASSERT_EQ(sbatches.size(), report->jobs.size());
  for (size_t i = 0; i < report->jobs.size(); ++i) {
    const PlannedJob& j = report->jobs[i];
    for (const std::string& a : j.after) EXPECT_LT(a, j.job_id);
    EXPECT_EQ(*cluster::read_job_id(dir.path, j.balance, j.stage), j.job_id);
    const auto& argv = sbatches[i];
    EXPECT_EQ(argv.back(), cluster::script_path(dir.path, j.balance, j.stage).string());
    EXPECT_NE(std::find(argv.begin(), argv.end(), "--qos=long"), argv.end());
  }
  std::ifstream in(cluster::script_path(dir.path, bal("KQvKR"), BatchStage::Minimize));
  const std::string script((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(script.find("batch KQvKR --stage minimize --data '" + dir.path.string() + "'"), std::string::npos)
      << script;
  EXPECT_NE(script.find("#SBATCH --partition=compute\n"), std::string::npos) << script;
  EXPECT_NE(script.find("#SBATCH --mem="), std::string::npos) << script;
  EXPECT_NE(script.find("#SBATCH --time="), std::string::npos) << script;
  EXPECT_NE(script.find("#SBATCH --output=" + cluster::logs_dir(dir.path).string() + "/KQvKR.minimize.%j.log"),
            std::string::npos)
      << script;
}

TEST(ClusterSubmit, BadRequestsAreRefusedByName) {
  TempDir dir("cluster-bad");
  FakeSlurm fake;
  cluster::Slurm slurm(fake.runner());
  auto relative = request("data", {"KRvK"});
  auto r = cluster::submit(relative, slurm);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("absolute"), std::string::npos) << r.error().message;
  auto no_cli = request(dir.path, {"KRvK"});
  no_cli.egtmin_cli = dir.path / "nowhere" / "egtmin-cli";
  r = cluster::submit(no_cli, slurm);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("nowhere"), std::string::npos) << r.error().message;
  auto no_syzygy = request(dir.path, {"KRvK"});
  no_syzygy.syzygy_dir = dir.path / "no-syzygy";
  EXPECT_FALSE(cluster::submit(no_syzygy, slurm));
  EXPECT_TRUE(fake.calls.empty());  // nothing reached the scheduler
}

// A second submission: finished stages get no job, queued ones are kept (and waited on), a job
// stuck behind a failed dependency is cancelled and replaced, and gone jobs are resubmitted.
TEST(ClusterSubmit, SubmittingAgainSkipsKeepsAndReplaces) {
  TempDir dir("cluster-again");
  // KvK and KRvK finished for real, through the batch's own stages.
  run::BatchRequest batch;
  batch.balances = {bal("KRvK")};
  batch.data_dir = dir.path;
  batch.passes = logic::default_passes();
  batch.threads = 1;
  ASSERT_TRUE(run::run_batch(batch));

  FakeSlurm fake;
  cluster::Slurm slurm(fake.runner());
  auto first = cluster::submit(request(dir.path, {"KRvK", "KQvKR"}), slurm);
  ASSERT_TRUE(first) << first.error().message;
  for (BatchStage s : {BatchStage::Table, BatchStage::Minimize, BatchStage::Check})
    EXPECT_EQ(job(*first, "KRvK", s).action, PlannedJob::Action::Done);
  EXPECT_FALSE(cluster::read_job_id(dir.path, bal("KRvK"), BatchStage::Table));
  // KRvK is done, so KQvKR's table waits only for KQvK's.
  EXPECT_EQ(job(*first, "KQvKR", BatchStage::Table).after,
            std::vector<std::string>{id_of(*first, "KQvK", BatchStage::Table)});

  // KQvK's table ran and failed; KQvKR's table was left behind it; its minimize is still queued.
  const std::string kqvk = id_of(*first, "KQvK", BatchStage::Table);
  const std::string stuck = id_of(*first, "KQvKR", BatchStage::Table);
  const std::string minimize = id_of(*first, "KQvKR", BatchStage::Minimize);
  const std::string check = id_of(*first, "KQvKR", BatchStage::Check);
  fake.queue.erase(kqvk);
  fake.ended[kqvk] = "FAILED|1:0";
  fake.queue[stuck] = "PENDING|DependencyNeverSatisfied";
  fake.calls.clear();
  auto second = cluster::submit(request(dir.path, {"KRvK", "KQvKR"}), slurm);
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(second->cancelled, std::vector<std::string>{stuck});
  EXPECT_EQ(job(*second, "KQvK", BatchStage::Table).action, PlannedJob::Action::Submitted);
  EXPECT_NE(id_of(*second, "KQvK", BatchStage::Table), kqvk);
  EXPECT_EQ(job(*second, "KQvKR", BatchStage::Table).action, PlannedJob::Action::Submitted);
  EXPECT_EQ(job(*second, "KQvKR", BatchStage::Table).after,
            std::vector<std::string>{id_of(*second, "KQvK", BatchStage::Table)});
  EXPECT_EQ(job(*second, "KQvKR", BatchStage::Minimize).action, PlannedJob::Action::Kept);
  EXPECT_EQ(id_of(*second, "KQvKR", BatchStage::Minimize), minimize);
  EXPECT_EQ(job(*second, "KQvKR", BatchStage::Check).action, PlannedJob::Action::Kept);
  EXPECT_EQ(id_of(*second, "KQvKR", BatchStage::Check), check);
  EXPECT_EQ(fake.sbatches().size(), 2u);  // nothing duplicated
  EXPECT_EQ(*cluster::read_job_id(dir.path, bal("KQvK"), BatchStage::Table), id_of(*second, "KQvK", BatchStage::Table));

  // The status: KRvK done; KQvK and KQvKR's table queued (the fake leaves new jobs pending), the rest too.
  cluster::StatusRequest sr;
  sr.data_dir = dir.path;
  auto st = cluster::cluster_status(sr, slurm);
  ASSERT_TRUE(st) << st.error().message;
  ASSERT_EQ(st->balances.size(), 2u);  // those with jobs: KQvK, KQvKR
  EXPECT_EQ(st->balances[0].balance, bal("KQvK"));
  EXPECT_EQ(st->balances[0].stage(BatchStage::Table).state, StageState::Queued);
  EXPECT_EQ(st->balances[1].stage(BatchStage::Minimize).state, StageState::Queued);
  EXPECT_EQ(st->balances[1].stage(BatchStage::Verify).state, StageState::NotSubmitted);
  EXPECT_FALSE(st->finished());
  sr.balances = {bal("KRvK")};
  st = cluster::cluster_status(sr, slurm);
  ASSERT_TRUE(st);
  for (BatchStage s : {BatchStage::Table, BatchStage::Minimize, BatchStage::Check})
    EXPECT_EQ(st->balances[0].stage(s).state, StageState::Done);
  EXPECT_TRUE(st->finished());
}

TEST(ClusterStatus, RunningFailedAndTheLogsLastLines) {
  TempDir dir("cluster-status");
  FakeSlurm fake;
  cluster::Slurm slurm(fake.runner());
  auto report = cluster::submit(request(dir.path, {"KvK", "KRvK"}), slurm);
  ASSERT_TRUE(report);
  const std::string kvk = id_of(*report, "KvK", BatchStage::Table);
  const std::string krvk = id_of(*report, "KRvK", BatchStage::Table);
  fake.queue.erase(kvk);
  fake.ended[kvk] = "OUT_OF_MEMORY|0:125";
  fake.queue[krvk] = "RUNNING|None";
  std::ofstream(cluster::log_path(dir.path, bal("KvK"), BatchStage::Table, kvk))
      << "line 1\nline 2\nprogress 10%\rprogress 50%\nslurmstepd: error: Detected 1 oom_kill event\n";
  cluster::StatusRequest sr;
  sr.data_dir = dir.path;
  sr.log_lines = 2;
  auto st = cluster::cluster_status(sr, slurm);
  ASSERT_TRUE(st) << st.error().message;
  ASSERT_EQ(st->balances.size(), 2u);
  const auto& failed = st->balances[0].stage(BatchStage::Table);
  EXPECT_EQ(failed.state, StageState::Failed);
  EXPECT_EQ(failed.detail, "OUT_OF_MEMORY exit 0:125");
  EXPECT_EQ(failed.log_tail,
            (std::vector<std::string>{"progress 50%", "slurmstepd: error: Detected 1 oom_kill event"}));
  EXPECT_EQ(st->balances[1].stage(BatchStage::Table).state, StageState::Running);
  EXPECT_EQ(st->balances[1].stage(BatchStage::Minimize).state, StageState::Queued);
  EXPECT_EQ(st->count(StageState::Failed), 1u);

  // Without accounting (no slurmdbd) a job out of the queue and unfinished is still failed.
  fake.accounting = false;
  st = cluster::cluster_status(sr, slurm);
  ASSERT_TRUE(st);
  EXPECT_EQ(st->balances[0].stage(BatchStage::Table).state, StageState::Failed);
  EXPECT_EQ(st->balances[0].stage(BatchStage::Table).detail, "left the queue without finishing");
  // A job cancelled in the queue never ran and has no log: the status says so.
  fake.queue.erase(id_of(*report, "KRvK", BatchStage::Check));
  st = cluster::cluster_status(sr, slurm);
  ASSERT_TRUE(st);
  EXPECT_EQ(st->balances[1].stage(BatchStage::Check).state, StageState::Failed);
  EXPECT_EQ(st->balances[1].stage(BatchStage::Check).detail.rfind("never started", 0), 0u)
      << st->balances[1].stage(BatchStage::Check).detail;
  EXPECT_TRUE(st->balances[1].stage(BatchStage::Check).log_tail.empty());
  // Without squeue at all nothing is claimed to have failed.
  cluster::Slurm none([](const std::vector<std::string>& argv) -> Result<cluster::CommandOutput> {
    return Error{"cannot run " + argv[0] + ": No such file or directory"};
  });
  st = cluster::cluster_status(sr, none);
  ASSERT_TRUE(st);
  EXPECT_NE(st->queue_error.find("No such file"), std::string::npos);
  EXPECT_EQ(st->balances[0].stage(BatchStage::Table).state, StageState::Unknown);
  EXPECT_EQ(st->count(StageState::Failed), 0u);
}

TEST(ClusterCommand, RunsAProgramAndCapturesBoth) {
  auto r = cluster::run_command({"sh", "-c", "echo out; echo err >&2; exit 3"});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->out, "out\n");
  EXPECT_EQ(r->err, "err\n");
  auto missing = cluster::run_command({"egtmin-no-such-program"});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("egtmin-no-such-program"), std::string::npos);
}

}  // namespace
