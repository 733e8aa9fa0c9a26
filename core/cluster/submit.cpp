// SPDX-License-Identifier: GPL-3.0-or-later
#include "cluster/submit.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "cluster/job_files.hpp"
#include "run/batch_run.hpp"
#include "run/run_plan.hpp"
#include "table/generator.hpp"
#include "util/atomic_file.hpp"

namespace egtmin::cluster {

namespace fs = std::filesystem;
using run::BatchStage;

namespace {

// Single quotes for the shell, whatever the path holds.
std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string key(const Balance& b, BatchStage s) { return b.name() + "." + std::string(name_of(s)); }

}  // namespace

size_t SubmitReport::count(PlannedJob::Action a) const {
  return size_t(std::count_if(jobs.begin(), jobs.end(), [&](const PlannedJob& j) { return j.action == a; }));
}

std::string job_script(const SubmitRequest& req, const Balance& b, BatchStage s, const StageResources& r) {
  std::ostringstream o;
  o << "#!/bin/sh\n";
  o << "# egtmin: the " << name_of(s) << " stage of " << b.name() << ", written by egtmin-cli cluster submit.\n";
  o << "#SBATCH --job-name=" << req.job_prefix << "-" << key(b, s) << "\n";
  o << "#SBATCH --output=" << log_path(req.data_dir, b, s, "%j").string() << "\n";
  o << "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=" << r.cpus << "\n";
  o << "#SBATCH --mem=" << slurm_memory(r.memory_bytes) << "\n";
  o << "#SBATCH --time=" << slurm_time(r.time) << "\n";
  // A requeued job starts the stage again: the records say what is finished, and every file is
  // written whole or not at all.
  o << "#SBATCH --requeue\n";
  if (!req.partition.empty()) o << "#SBATCH --partition=" << req.partition << "\n";
  if (!req.account.empty()) o << "#SBATCH --account=" << req.account << "\n";
  o << "exec " << quoted(req.egtmin_cli.string()) << " batch " << b.name() << " --stage " << name_of(s) << " --data "
    << quoted(req.data_dir.string()) << " --threads " << r.cpus << " --memory-limit none";
  if (s == BatchStage::Verify) o << " --syzygy " << quoted(req.syzygy_dir.string());
  o << "\n";
  return o.str();
}

Result<SubmitReport> submit(const SubmitRequest& req, Slurm& slurm) {
  if (req.balances.empty()) return Error{"no balances to submit"};
  if (!req.data_dir.is_absolute())
    return Error{"the data directory must be an absolute path: " + req.data_dir.string()};
  if (!req.egtmin_cli.is_absolute() || !fs::exists(req.egtmin_cli))
    return Error{"the jobs' egtmin-cli must be an existing absolute path: " + req.egtmin_cli.string()};
  if (!req.syzygy_dir.empty() && !fs::is_directory(req.syzygy_dir))
    return Error{"the Syzygy directory does not exist: " + req.syzygy_dir.string()};
  for (const Balance& b : req.balances)
    if (auto s = check_supported(b); !s) return s.error();

  // The requested balances get every stage; the tables they need that are missing, a table job.
  std::set<Balance> requested;
  for (const Balance& b : req.balances) requested.insert(b.canonical());
  std::vector<Balance> all(requested.begin(), requested.end());
  for (const Balance& b : run::missing_tables(req.data_dir, all))
    if (!requested.count(b)) all.push_back(b);
  const std::vector<Balance> order = run::dependency_order(all);

  // The jobs submitted before that are still to run.
  std::map<std::string, JobState> queued;
  std::vector<std::string> known;
  for (const Balance& b : order)
    for (BatchStage s : run::kClusterStages)
      if (auto id = read_job_id(req.data_dir, b, s)) known.push_back(*id);
  if (!known.empty() && !req.dry_run) {
    auto q = slurm.queue(known);
    if (!q) return Error{"cannot read the queue: " + q.error().message};
    queued = std::move(*q);
  }

  SubmitReport report;
  std::map<std::string, std::string> pending;  // "NAME.STAGE" -> the job that will finish it
  for (const Balance& b : order) {
    const run::BatchRecord record = run::record_as_found(req.data_dir, b);
    // A table the requested balances need gets its table job alone; the Syzygy comparison runs
    // when the jobs are given Syzygy's directory.
    std::vector<BatchStage> stages;
    for (BatchStage s : run::kClusterStages)
      if (s == BatchStage::Table || (requested.count(b) && (s != BatchStage::Verify || !req.syzygy_dir.empty())))
        stages.push_back(s);
    std::string previous;  // the job of the stage before, when it is still to finish
    for (BatchStage s : stages) {
      PlannedJob job;
      job.balance = b;
      job.stage = s;
      job.resources = stage_resources(b, s, req.cpus, req.overrides);
      const std::optional<std::string> old_id = read_job_id(req.data_dir, b, s);
      const auto old_job = old_id ? queued.find(*old_id) : queued.end();
      if (record.stage(s).done) {
        job.action = PlannedJob::Action::Done;
      } else if (old_job != queued.end() && is_alive(old_job->second)) {
        job.action = PlannedJob::Action::Kept;
        job.job_id = *old_id;
      } else {
        // Left waiting on a dependency that failed: it would never run, and a new job replaces it.
        if (old_job != queued.end() && !req.dry_run) {
          if (auto c = slurm.cancel(*old_id); !c)
            return Error{"cannot cancel job " + *old_id + ": " + c.error().message};
          report.cancelled.push_back(*old_id);
        }
        if (s == BatchStage::Table) {
          for (const Balance& d : successor_balances(b))
            if (auto it = pending.find(key(d.canonical(), BatchStage::Table)); it != pending.end())
              job.after.push_back(it->second);
        } else if (!previous.empty()) {
          job.after.push_back(previous);
        }
        std::sort(job.after.begin(), job.after.end(), [](const std::string& x, const std::string& y) {
          return x.size() != y.size() ? x.size() < y.size() : x < y;  // job ids in numeric order
        });
        job.after.erase(std::unique(job.after.begin(), job.after.end()), job.after.end());
        const std::string script = job_script(req, b, s, job.resources);
        if (auto w = write_file_atomically(script_path(req.data_dir, b, s),
                                           std::span(reinterpret_cast<const uint8_t*>(script.data()), script.size()));
            !w)
          return w.error();
        std::error_code ec;
        fs::create_directories(logs_dir(req.data_dir), ec);
        if (req.dry_run) {
          job.action = PlannedJob::Action::Planned;
          job.job_id = key(b, s);
        } else {
          auto id = slurm.submit(script_path(req.data_dir, b, s).string(), job.after, req.sbatch_args);
          if (!id) return Error{"submitting " + key(b, s) + ": " + id.error().message};
          job.action = PlannedJob::Action::Submitted;
          job.job_id = *id;
          if (auto w = write_job_id(req.data_dir, b, s, *id); !w) return w.error();
        }
      }
      if (job.action != PlannedJob::Action::Done) pending[key(b, s)] = job.job_id;
      previous = job.action == PlannedJob::Action::Done ? previous : job.job_id;
      report.jobs.push_back(std::move(job));
    }
  }
  return report;
}

}  // namespace egtmin::cluster
