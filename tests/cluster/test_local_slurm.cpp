// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin's cluster commands against a real Slurm: scripts/cluster-test.sh starts a one-node
// cluster (munged, slurmctld, slurmd) and runs this program with SLURM_CONF pointing at it.
// The 3-piece set and KQvKR (whose captures reach KQvK and KRvK) are submitted; KQvKR's
// minimization is cancelled while it runs, as a preempted or killed job would be; the run then
// stops with that stage failed and its check cancelled, nothing half-written. Submitting again
// submits exactly those two stages, the run completes, and every cover is checked exact.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <thread>

#include <unistd.h>

#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using egtmin::test::run_program;
using nlohmann::json;

// Alone on 2 cores the run takes about a minute; the deadline leaves room for a loaded machine
// within CTest's 15-minute timeout.
constexpr auto kDeadline = std::chrono::minutes(13);

// $EGTMIN_TEST_TIMEOUT_SCALE (CMake's EGTMIN_TEST_TIMEOUT_SCALE): instrumented builds run every
// stage several times slower than the rates submit derives its jobs' time limits from.
int time_scale() {
  const char* s = std::getenv("EGTMIN_TEST_TIMEOUT_SCALE");
  const int v = s ? std::atoi(s) : 1;
  return v > 1 ? v : 1;
}

// The submission: one core per job (two jobs at a time on the 2-core node), and in instrumented
// builds room for the slower stages (ten minutes a stage, times the scale).
std::vector<std::string> submit_args(const fs::path& data) {
  std::vector<std::string> a = {"cluster", "submit",      "--pieces", "3",     "KQvKR",
                                "--data",  data.string(), "-j1",      "--json"};
  if (time_scale() > 1)
    for (const char* stage : {"table", "minimize", "check"})
      a.insert(a.end(), {"--time", std::string(stage) + "=" + std::to_string(10 * time_scale())});
  return a;
}

json cli_json(const std::vector<std::string>& args, int expected_exit = 0) {
  auto r = run_program(EGTMIN_CLI, args);
  EXPECT_EQ(r.exit_code, expected_exit) << r.out << r.err;
  try {
    return json::parse(r.out);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not JSON: " << r.out << r.err;
    return json::object();
  }
}

json status_of(const fs::path& data) { return cli_json({"cluster", "status", "--data", data.string(), "--json"}); }

std::string stage_state(const json& st, const std::string& balance, const std::string& stage) {
  for (const json& b : st["balances"])
    if (b["balance"] == balance) return b["stages"][stage]["state"];
  return "absent";
}

// A program on PATH (run_program takes a path).
std::string on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (size_t start = 0; start <= dirs.size();) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const fs::path candidate = fs::path(dirs.substr(start, end - start)) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  return name;
}

// Polls until no job is queued or running.
json wait_for_queue(const fs::path& data, Clock::time_point deadline) {
  json st;
  do {
    std::this_thread::sleep_for(std::chrono::seconds(2));
    st = status_of(data);
  } while (st.value("queued", 1) + st.value("running", 1) > 0 && Clock::now() < deadline);
  return st;
}

// Every file under dir, with its last write time: what a resubmission must leave alone.
std::map<std::string, fs::file_time_type> files(const fs::path& dir) {
  std::map<std::string, fs::file_time_type> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = e.last_write_time();
  return out;
}

TEST(LocalSlurm, KilledJobResubmittedCompletesTheDag) {
  if (!std::getenv("EGTMIN_LOCAL_SLURM") || !std::getenv("SLURM_CONF"))
    GTEST_SKIP() << "needs the one-node Slurm cluster that scripts/cluster-test.sh starts";
  egtmin::test::TempDir tmp("local-slurm");
  const fs::path data = tmp.path / "data";
  const auto deadline = Clock::now() + kDeadline * time_scale();
  const auto t0 = Clock::now();

  json sub = cli_json(submit_args(data));
  // KvK, five 3-piece balances and KQvKR, three stages each.
  EXPECT_EQ(sub["submitted"], 21);
  EXPECT_EQ(sub["done"], 0);
  std::string minimize_job;
  for (const json& j : sub["jobs"])
    if (j["balance"] == "KQvKR" && j["stage"] == "minimize") minimize_job = j["job"];
  ASSERT_FALSE(minimize_job.empty());

  // Cancel KQvKR's minimization a second into its run.
  json st;
  do {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    st = cli_json({"cluster", "status", "KQvKR", "--data", data.string(), "--json"});
  } while (stage_state(st, "KQvKR", "minimize") != "running" && stage_state(st, "KQvKR", "minimize") != "done" &&
           Clock::now() < deadline);
  ASSERT_EQ(stage_state(st, "KQvKR", "minimize"), "running") << st.dump(2);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  auto cancel = run_program(on_path("scancel"), {minimize_job});
  ASSERT_EQ(cancel.exit_code, 0) << cancel.err;

  st = wait_for_queue(data, deadline);
  ASSERT_EQ(st["queued"], 0) << st.dump(2);
  EXPECT_EQ(stage_state(st, "KQvKR", "table"), "done");
  EXPECT_EQ(stage_state(st, "KQvKR", "minimize"), "failed") << st.dump(2);
  EXPECT_EQ(stage_state(st, "KQvKR", "check"), "failed") << st.dump(2);  // cancelled: its dependency failed
  EXPECT_EQ(st["done"], 19) << st.dump(2);
  EXPECT_EQ(st["failed"], 2) << st.dump(2);
  // Nothing half-written: no cover of KQvKR, no temporary anywhere.
  EXPECT_FALSE(fs::exists(data / "covers" / "KQvKR.egtc"));
  for (const auto& [name, when] : files(data)) EXPECT_EQ(name.find(".tmp-"), std::string::npos) << name;
  // `cluster status` without --json says the same, with the log's last lines.
  auto text = run_program(EGTMIN_CLI, {"cluster", "status", "--data", data.string()});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("KQvKR minimize failed"), std::string::npos) << text.out;

  // Submitting again: the two stages left, nothing else.
  const auto before = files(data);
  sub = cli_json(submit_args(data));
  EXPECT_EQ(sub["submitted"], 2) << sub.dump(2);
  EXPECT_EQ(sub["done"], 19) << sub.dump(2);
  for (const json& j : sub["jobs"])
    if (j["action"] == "submitted") EXPECT_TRUE(j["balance"] == "KQvKR" && j["stage"] != "table") << j.dump();
  st = wait_for_queue(data, deadline);
  EXPECT_TRUE(st["finished"].get<bool>()) << st.dump(2);
  EXPECT_EQ(st["done"], 21) << st.dump(2);
  EXPECT_EQ(st["failed"], 0) << st.dump(2);

  // Nothing redone: every table, cover and record of the finished stages is as it was.
  const auto after = files(data);
  for (const auto& [name, when] : before) {
    if (name.rfind("cluster/", 0) == 0 || name.find("KQvKR") != std::string::npos) continue;
    ASSERT_TRUE(after.count(name)) << name << " disappeared";
    EXPECT_EQ(after.at(name), when) << name << " was written again";
  }
  // One log per job that ran: each stage ran once, KQvKR's minimization twice (killed, then whole).
  std::map<std::string, int> logs;
  for (const auto& e : fs::directory_iterator(data / "cluster" / "logs")) {
    const std::string name = e.path().filename().string();  // NAME.STAGE.ID.log
    logs[name.substr(0, name.find('.', name.find('.') + 1))]++;
  }
  EXPECT_EQ(logs.size(), 21u);
  for (const auto& [stage, n] : logs) EXPECT_EQ(n, stage == "KQvKR.minimize" ? 2 : 1) << stage;

  // The covers, checked on every legal position by `check`.
  json check = cli_json({"check", "--pieces", "3", "KQvKR", "--data", data.string(), "--json", "-q"});
  EXPECT_EQ(check["mismatches"], 0);
  EXPECT_EQ(check["balances"].size(), 7u);
  for (const json& b : check["balances"]) {
    EXPECT_EQ(b["mismatches"], 0) << b.dump();
    EXPECT_TRUE(b["exhaustive"].get<bool>()) << b.dump();
    EXPECT_GT(b["positions"].get<uint64_t>(), 0u) << b.dump();
  }
  std::printf("local Slurm run: %.0f s from the first submission to the last check\n",
              std::chrono::duration<double>(Clock::now() - t0).count());
}

}  // namespace
