// SPDX-License-Identifier: GPL-3.0-or-later
#include "cluster/status.hpp"

#include <algorithm>
#include <map>

#include "cluster/job_files.hpp"
#include "run/batch_run.hpp"
#include "run/run_plan.hpp"

namespace egtmin::cluster {

using run::BatchStage;

bool ClusterStatus::finished() const {
  for (const BalanceStatus& b : balances)
    for (const StageStatus& s : b.stages)
      if (s.state != StageState::Done && s.state != StageState::NotSubmitted) return false;
  return true;
}

size_t ClusterStatus::count(StageState state) const {
  size_t n = 0;
  for (const BalanceStatus& b : balances)
    for (const StageStatus& s : b.stages) n += s.state == state;
  return n;
}

Result<ClusterStatus> cluster_status(const StatusRequest& req, Slurm& slurm) {
  ClusterStatus status;
  std::vector<Balance> balances = req.balances.empty() ? balances_with_jobs(req.data_dir) : req.balances;
  for (Balance& b : balances) b = b.canonical();
  balances = run::dependency_order(balances);

  std::vector<std::string> ids;
  for (const Balance& b : balances)
    for (BatchStage s : run::kClusterStages)
      if (auto id = read_job_id(req.data_dir, b, s)) ids.push_back(*id);
  std::map<std::string, JobState> queued, ended;
  bool know_queue = false;
  if (req.ask_scheduler && !ids.empty()) {
    if (auto q = slurm.queue(ids)) {
      queued = std::move(*q);
      know_queue = true;
      std::vector<std::string> gone;
      for (const std::string& id : ids)
        if (!queued.count(id)) gone.push_back(id);
      // Accounting says how a job ended; without it (no slurmdbd) the log has to tell.
      if (auto a = slurm.accounting(gone)) ended = std::move(*a);
    } else {
      status.queue_error = q.error().message;
    }
  } else if (!req.ask_scheduler) {
    status.queue_error = "the scheduler was not asked";
  }

  for (const Balance& b : balances) {
    BalanceStatus bs;
    bs.balance = b;
    const run::BatchRecord record = run::record_as_found(req.data_dir, b);
    for (BatchStage s : run::kClusterStages) {
      StageStatus& st = bs.stage(s);
      const auto id = read_job_id(req.data_dir, b, s);
      if (id) st.job_id = *id;
      if (record.stage(s).done) {
        st.state = StageState::Done;
        continue;
      }
      if (!id) continue;  // not submitted
      if (auto q = queued.find(*id); q != queued.end()) {
        st.detail =
            q->second.state +
            (q->second.reason.empty() || q->second.reason == "None" ? std::string() : " (" + q->second.reason + ")");
        if (!is_alive(q->second))
          st.state = StageState::Failed;
        else
          st.state = is_running(q->second) ? StageState::Running : StageState::Queued;
      } else if (know_queue) {
        st.state = StageState::Failed;  // out of the queue, and the stage is not done
        if (auto e = ended.find(*id); e != ended.end())
          st.detail = e->second.state + (e->second.exit_code.empty() ? "" : " exit " + e->second.exit_code);
        else
          st.detail = "left the queue without finishing";
      } else {
        st.state = StageState::Unknown;
      }
      if (st.state == StageState::Failed) {
        const auto log = log_path(req.data_dir, b, s, *id);
        st.log_tail = last_lines(log, req.log_lines);
        // A job cancelled before it started (the stage it waited on failed) leaves no log.
        if (!std::filesystem::exists(log) && st.detail == "left the queue without finishing")
          st.detail = "never started: cancelled in the queue (did a stage it waited on fail?)";
      }
    }
    status.balances.push_back(std::move(bs));
  }
  return status;
}

}  // namespace egtmin::cluster
