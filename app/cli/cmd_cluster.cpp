// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli cluster submit|status: a piece count's work as Slurm jobs on a shared data directory.
#include <chrono>
#include <cstdio>
#include <thread>

#include "cluster/job_files.hpp"
#include "cluster/status.hpp"
#include "cluster/submit.hpp"
#include "common.hpp"

namespace egtmin::cli {

namespace {

namespace fs = std::filesystem;
using cluster::PlannedJob;
using cluster::StageState;

// Slurm's jobs run on other hosts: every path they are given must be absolute.
fs::path absolute_path(const fs::path& p) {
  std::error_code ec;
  fs::path a = fs::absolute(p, ec);
  return ec ? p : a.lexically_normal();
}

const char* action_name(PlannedJob::Action a) {
  switch (a) {
    case PlannedJob::Action::Done: return "done";
    case PlannedJob::Action::Kept: return "queued before";
    case PlannedJob::Action::Submitted: return "submitted";
    case PlannedJob::Action::Planned: return "planned";
  }
  return "?";
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

Command add_submit(CLI::App* group) {
  struct Args {
    Common common;
    std::vector<std::string> balances;
    int pieces = 0;
    std::string partition, account, syzygy, egtmin_cli, job_prefix = "egtmin";
    std::vector<std::string> mem, time, sbatch_args;
    bool dry_run = false;
  };
  auto a = std::make_shared<Args>();
  auto* sub = group->add_subcommand("submit",
                                    "Submit every stage of the balances as Slurm jobs that follow their dependencies");
  sub->footer(
      "One job per balance and stage, each running `egtmin-cli batch NAME --stage STAGE` on the data\n"
      "directory, which must be on a filesystem every node sees. A balance's table job waits for the\n"
      "table jobs of the balances its captures and promotions reach (afterok); then come verify\n"
      "(with --syzygy), minimize and check, one after the other. A job whose dependency fails is\n"
      "cancelled by Slurm. Tables the balances need that are not on disk get a table job too.\n"
      "Submitting again is safe: finished stages (DATA/batch records) get no job, jobs still queued\n"
      "or running are kept, the rest is submitted. Scripts and job ids go to DATA/cluster/jobs, logs\n"
      "to DATA/cluster/logs.\n"
      "Each job asks for --threads cores (default 2) and the memory and time measured for its\n"
      "balance's size with headroom (see docs/cluster.md); --mem and --time override them per stage.\n"
      "Examples:\n  egtmin-cli cluster submit --pieces 5 --data /shared/egtmin --partition compute\n"
      "  egtmin-cli cluster submit KRPvKR --data /shared/egtmin --mem minimize=16G --time table=4:00:00\n"
      "  egtmin-cli cluster submit --pieces 4 --data /shared/egtmin --dry-run --json");
  add_balance_selection(sub, a->balances, a->pieces, "Balances to submit");
  sub->add_option("--partition", a->partition, "Slurm partition for every job");
  sub->add_option("--account", a->account, "Slurm account to charge");
  sub->add_option("--mem", a->mem, "Memory of one stage's jobs, STAGE=SIZE (table=8G); repeatable");
  sub->add_option("--time", a->time, "Time limit of one stage's jobs, STAGE=TIME (minimize=1-12:00:00); repeatable");
  sub->add_option("--sbatch-arg", a->sbatch_args, "One more argument for every sbatch (--sbatch-arg=--qos=long)");
  sub->add_option("--syzygy", a->syzygy, "Syzygy .rtbw directory on every node: adds a verify job per balance");
  sub->add_option("--egtmin-cli", a->egtmin_cli, "The egtmin-cli the jobs run (default: this one), on every node");
  sub->add_option("--job-prefix", a->job_prefix, "Prefix of the jobs' names (default egtmin)");
  sub->add_flag("--dry-run", a->dry_run, "Write the job scripts and print the plan; submit nothing");
  add_common(sub, a->common);
  sub->get_option("--threads")->description("Cores per job (--cpus-per-task) and the threads it runs (default 2)");
  return {sub, [a] {
            auto requested = balances_or_pieces(a->balances, a->pieces, "cluster submit");
            if (!requested) return fail(requested.error().message);
            cluster::SubmitRequest req;
            req.balances = *requested;
            req.data_dir = absolute_path(a->common.data_dir());
            std::error_code ec;
            req.egtmin_cli =
                a->egtmin_cli.empty() ? fs::read_symlink("/proc/self/exe", ec) : absolute_path(a->egtmin_cli);
            if (!a->syzygy.empty()) req.syzygy_dir = absolute_path(a->syzygy);
            req.cpus = a->common.threads > 0 ? a->common.threads : 2;
            req.partition = a->partition;
            req.account = a->account;
            req.job_prefix = a->job_prefix;
            req.sbatch_args = a->sbatch_args;
            req.dry_run = a->dry_run;
            for (const std::string& m : a->mem)
              if (auto s = cluster::parse_memory_override(m, req.overrides); !s) return fail(s.error().message);
            for (const std::string& t : a->time)
              if (auto s = cluster::parse_time_override(t, req.overrides); !s) return fail(s.error().message);
            cluster::Slurm slurm;
            auto report = cluster::submit(req, slurm);
            if (!report) return fail(report.error().message);
            if (a->common.json) {
              nlohmann::json jobs = nlohmann::json::array();
              for (const PlannedJob& j : report->jobs)
                jobs.push_back({{"balance", j.balance.name()},
                                {"stage", std::string(name_of(j.stage))},
                                {"action", action_name(j.action)},
                                {"job", j.job_id},
                                {"after", j.after},
                                {"memory_bytes", j.resources.memory_bytes},
                                {"time_seconds", j.resources.time.count()},
                                {"cpus", j.resources.cpus}});
              print_json({{"jobs", jobs},
                          {"submitted", report->count(PlannedJob::Action::Submitted)},
                          {"kept", report->count(PlannedJob::Action::Kept)},
                          {"done", report->count(PlannedJob::Action::Done)},
                          {"planned", report->count(PlannedJob::Action::Planned)},
                          {"cancelled", report->cancelled},
                          {"data", req.data_dir.string()}});
              return int(kOk);
            }
            for (const std::string& id : report->cancelled)
              std::printf("cancelled job %s: it waited on a job that failed\n", id.c_str());
            for (const PlannedJob& j : report->jobs) {
              std::printf("%-8s %-8s %-13s", j.balance.name().c_str(), std::string(name_of(j.stage)).c_str(),
                          action_name(j.action));
              if (j.action == PlannedJob::Action::Submitted || j.action == PlannedJob::Action::Planned)
                std::printf(" %-14s mem %-7s time %s cpus %d%s%s", j.job_id.c_str(),
                            cluster::slurm_memory(j.resources.memory_bytes).c_str(),
                            cluster::slurm_time(j.resources.time).c_str(), j.resources.cpus,
                            j.after.empty() ? "" : " after ", joined(j.after).c_str());
              else if (j.action == PlannedJob::Action::Kept)
                std::printf(" %s", j.job_id.c_str());
              std::printf("\n");
            }
            std::printf("%zu job(s) %s, %zu queued before, %zu stage(s) done; scripts in %s\n",
                        report->count(PlannedJob::Action::Submitted) + report->count(PlannedJob::Action::Planned),
                        a->dry_run ? "planned (dry run)" : "submitted", report->count(PlannedJob::Action::Kept),
                        report->count(PlannedJob::Action::Done), cluster::jobs_dir(req.data_dir).c_str());
            return int(kOk);
          }};
}

nlohmann::json status_json(const cluster::ClusterStatus& st) {
  nlohmann::json rows = nlohmann::json::array();
  for (const cluster::BalanceStatus& b : st.balances) {
    nlohmann::json stages = nlohmann::json::object();
    for (run::BatchStage s : run::kClusterStages) {
      const cluster::StageStatus& x = b.stage(s);
      stages[std::string(name_of(s))] = {
          {"state", std::string(name_of(x.state))}, {"job", x.job_id}, {"detail", x.detail}, {"log_tail", x.log_tail}};
    }
    rows.push_back({{"balance", b.balance.name()}, {"stages", stages}});
  }
  nlohmann::json j = {{"balances", rows},
                      {"finished", st.finished()},
                      {"done", st.count(StageState::Done)},
                      {"queued", st.count(StageState::Queued)},
                      {"running", st.count(StageState::Running)},
                      {"failed", st.count(StageState::Failed)}};
  if (!st.queue_error.empty()) j["queue_error"] = st.queue_error;
  return j;
}

void print_status(const cluster::ClusterStatus& st) {
  if (!st.queue_error.empty())
    std::printf("the queue could not be read (%s): states from the records only\n", st.queue_error.c_str());
  for (const cluster::BalanceStatus& b : st.balances) {
    std::printf("%-8s", b.balance.name().c_str());
    for (run::BatchStage s : run::kClusterStages) {
      const cluster::StageStatus& x = b.stage(s);
      if (x.state == StageState::NotSubmitted) continue;
      std::printf("  %s: %s", std::string(name_of(s)).c_str(), std::string(name_of(x.state)).c_str());
      if (x.state != StageState::Done && !x.job_id.empty()) std::printf(" (job %s)", x.job_id.c_str());
    }
    std::printf("\n");
    for (run::BatchStage s : run::kClusterStages) {
      const cluster::StageStatus& x = b.stage(s);
      if (x.state != StageState::Failed) continue;
      std::printf("  %s %s failed: %s\n", b.balance.name().c_str(), std::string(name_of(s)).c_str(), x.detail.c_str());
      for (const std::string& line : x.log_tail) std::printf("    | %s\n", line.c_str());
    }
  }
  std::printf("%zu done, %zu running, %zu queued, %zu failed\n", st.count(StageState::Done),
              st.count(StageState::Running), st.count(StageState::Queued), st.count(StageState::Failed));
}

Command add_status(CLI::App* group) {
  struct Args {
    Common common;
    std::vector<std::string> balances;
    int pieces = 0;
    size_t lines = 5;
    double wait = 0;
    bool no_scheduler = false;
  };
  auto a = std::make_shared<Args>();
  auto* sub = group->add_subcommand("status", "Where a cluster run stands, per balance and stage");
  sub->footer(
      "Per balance and stage: done (its batch record and files are there), queued or running (its job\n"
      "is in squeue), failed (its job left the queue without finishing the stage: sacct's state where\n"
      "accounting is on, and the last lines of the job's log), or not submitted. Without balances,\n"
      "every balance submitted under the data directory.\n"
      "With --wait, polls until no job is queued or running; then exits 0 when every submitted stage\n"
      "is done and 1 when one failed or the wait ran out.\n"
      "Examples:\n  egtmin-cli cluster status --data /shared/egtmin\n"
      "  egtmin-cli cluster status --data /shared/egtmin --wait 3600 --json");
  add_balance_selection(sub, a->balances, a->pieces, "Balances to report");
  sub->add_option("--lines", a->lines, "Log lines shown for a failed job (default 5)");
  sub->add_option("--wait", a->wait, "Wait up to SECONDS for the queued and running jobs to end")
      ->check(CLI::NonNegativeNumber);
  sub->add_flag("--no-scheduler", a->no_scheduler, "Do not ask squeue or sacct: the data directory alone");
  add_common(sub, a->common);
  sub->get_option("--threads")->description("Not used: status only reads (accepted like every command's)");
  return {sub, [a] {
            cluster::StatusRequest req;
            req.data_dir = absolute_path(a->common.data_dir());
            if (!a->balances.empty() || a->pieces > 0) {
              auto requested = balances_or_pieces(a->balances, a->pieces, "cluster status");
              if (!requested) return fail(requested.error().message);
              req.balances = *requested;
            }
            req.log_lines = a->lines;
            req.ask_scheduler = !a->no_scheduler;
            cluster::Slurm slurm;
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(a->wait);
            while (true) {
              auto st = cluster::cluster_status(req, slurm);
              if (!st) return fail(st.error().message);
              const bool active = st->count(StageState::Queued) + st->count(StageState::Running) > 0;
              if (a->wait > 0 && active && std::chrono::steady_clock::now() < deadline) {
                std::this_thread::sleep_for(std::chrono::seconds(2));
                continue;
              }
              if (st->balances.empty())
                return fail("no cluster jobs under " + req.data_dir.string() + " (see cluster submit --help)");
              if (a->common.json)
                print_json(status_json(*st));
              else
                print_status(*st);
              if (a->wait <= 0) return int(kOk);
              return st->finished() && st->count(StageState::Failed) == 0 ? int(kOk) : int(kFailure);
            }
          }};
}

Command add_cluster(CLI::App& app) {
  auto* group = app.add_subcommand("cluster", "Run the work of many balances as Slurm jobs on a shared data directory");
  group->require_subcommand(1);
  group->footer(
      "Examples:\n  egtmin-cli cluster submit --pieces 5 --data /shared/egtmin\n"
      "  egtmin-cli cluster status --data /shared/egtmin");
  Command submit = add_submit(group);
  Command status = add_status(group);
  return {group, [submit, status] {
            if (submit.sub->parsed()) return submit.run();
            if (status.sub->parsed()) return status.run();
            return int(kUsage);
          }};
}

const CommandRegistration kRegistered(45, add_cluster);
}  // namespace

}  // namespace egtmin::cli
