// SPDX-License-Identifier: GPL-3.0-or-later
// Where a cluster run stands, per balance and stage, from the shared data directory and the
// scheduler: done (the batch record says so and its files are there), queued or running (its job
// is in squeue), failed (its job left the queue without finishing the stage: sacct's state where
// accounting is on, and the last lines of the job's log), or not submitted. Read-only: the CLI's
// `cluster status` and the GUI's Runs panel both show it.
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "chess/balance.hpp"
#include "cluster/slurm.hpp"
#include "run/batch_stage.hpp"
#include "util/enum_names.hpp"
#include "util/result.hpp"

namespace egtmin::cluster {

// Unknown: submitted, but the scheduler could not be asked (no squeue on this host).
enum class StageState : uint8_t { NotSubmitted, Queued, Running, Done, Failed, Unknown };
// As `cluster status` and the GUI's cluster view show them (util/enum_names.hpp).
inline constexpr EnumName<StageState> kStageStateNames[] = {{StageState::NotSubmitted, "not submitted"},
                                                            {StageState::Queued, "queued"},
                                                            {StageState::Running, "running"},
                                                            {StageState::Done, "done"},
                                                            {StageState::Failed, "failed"},
                                                            {StageState::Unknown, "submitted (queue unknown)"}};
constexpr std::span<const EnumName<StageState>> enum_names(StageState) { return kStageStateNames; }

struct StageStatus {
  StageState state = StageState::NotSubmitted;
  std::string job_id;
  std::string detail;                 // the scheduler's state and reason, or how the job ended
  std::vector<std::string> log_tail;  // a failed job's last log lines
};

struct BalanceStatus {
  Balance balance;
  std::array<StageStatus, run::kClusterStages.size()> stages;  // in run::kClusterStages' order
  StageStatus& stage(run::BatchStage s) { return stages[job_index(s)]; }
  const StageStatus& stage(run::BatchStage s) const { return stages[job_index(s)]; }
  // s's place in run::kClusterStages (s a job stage).
  static constexpr size_t job_index(run::BatchStage s) {
    for (size_t i = 0; i < run::kClusterStages.size(); ++i)
      if (run::kClusterStages[i] == s) return i;
    return 0;
  }
};

struct ClusterStatus {
  std::vector<BalanceStatus> balances;  // in dependency order
  // Why the scheduler could not be asked (no squeue on this host): states then come from the
  // records alone, and stages not finished are Unknown.
  std::string queue_error;
  bool finished() const;  // every submitted stage done
  size_t count(StageState s) const;
};

struct StatusRequest {
  std::filesystem::path data_dir;
  std::vector<Balance> balances;  // empty: every balance with a job under the data directory
  size_t log_lines = 5;
  bool ask_scheduler = true;  // false: the data directory alone (a host without Slurm's commands)
};

Result<ClusterStatus> cluster_status(const StatusRequest& request, Slurm& slurm);

}  // namespace egtmin::cluster
