// SPDX-License-Identifier: GPL-3.0-or-later
// A piece count's (or named balances') work as Slurm jobs: one job per balance and stage, each
// running `egtmin-cli batch NAME --stage STAGE` on the shared data directory. A balance's table
// job starts after the table jobs of the balances its captures and promotions reach
// (--dependency=afterok); its later stages follow one another (table, verify, minimize, check),
// one at a time, since each writes the balance's record.
//
// Submitting again is safe: a stage the batch records show finished gets no job, a stage whose
// job is still queued or running keeps it (later jobs wait on it), and only the rest is
// submitted. Tables the balances need that are neither on disk nor requested get a table job.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "chess/balance.hpp"
#include "cluster/resources.hpp"
#include "cluster/slurm.hpp"
#include "run/batch_stage.hpp"
#include "util/result.hpp"

namespace egtmin::cluster {

struct SubmitRequest {
  std::vector<Balance> balances;
  std::filesystem::path data_dir;    // absolute, on a filesystem every node sees
  std::filesystem::path egtmin_cli;  // the binary the jobs run, absolute, on every node
  std::filesystem::path syzygy_dir;  // when given, a verify job per balance compares with Syzygy
  int cpus = 1;                      // per job, and the threads it runs
  ResourceOverrides overrides;
  std::string partition, account;
  std::string job_prefix = "egtmin";
  std::vector<std::string> sbatch_args;  // added to every sbatch, before the script
  bool dry_run = false;                  // write the scripts, submit nothing
};

struct PlannedJob {
  Balance balance;
  run::BatchStage stage = run::BatchStage::Table;
  enum class Action : uint8_t { Done, Kept, Submitted, Planned } action = Action::Planned;
  std::string job_id;              // the job kept or submitted
  std::vector<std::string> after;  // the jobs it waits for (ids; "NAME.STAGE" in a dry run)
  StageResources resources;
};

struct SubmitReport {
  std::vector<PlannedJob> jobs;        // every stage of every balance, in submission order
  std::vector<std::string> cancelled;  // jobs left waiting on a failed dependency, cancelled
  size_t count(PlannedJob::Action a) const;
};

// The job script of one stage (the sbatch directives and the one command it runs).
std::string job_script(const SubmitRequest& request, const Balance& b, run::BatchStage s, const StageResources& r);

// Writes the scripts and submits what is not finished nor queued. Stops at the first sbatch that
// fails (the report has what was submitted before it; submitting again goes on from there).
Result<SubmitReport> submit(const SubmitRequest& request, Slurm& slurm);

}  // namespace egtmin::cluster
