// SPDX-License-Identifier: GPL-3.0-or-later
// Where a cluster run keeps its own files, under the data directory that every node sees:
//   DATA/cluster/jobs/NAME.STAGE.sh    the job script
//   DATA/cluster/jobs/NAME.STAGE.job   the id of the job last submitted for it
//   DATA/cluster/logs/NAME.STAGE.ID.log  each job's output, one file per job id
// The .job file is what ties a stage to the scheduler's queue; what is finished is known from
// the batch records (run/batch_run.hpp) alone.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "chess/balance.hpp"
#include "run/batch_stage.hpp"
#include "util/result.hpp"

namespace egtmin::cluster {

std::filesystem::path jobs_dir(const std::filesystem::path& data_dir);
std::filesystem::path logs_dir(const std::filesystem::path& data_dir);
std::filesystem::path script_path(const std::filesystem::path& data_dir, const Balance& b, run::BatchStage s);
std::filesystem::path job_id_path(const std::filesystem::path& data_dir, const Balance& b, run::BatchStage s);
// The log of job `id`; with id "%j" the pattern sbatch --output takes.
std::filesystem::path log_path(const std::filesystem::path& data_dir, const Balance& b, run::BatchStage s,
                               const std::string& id);

// The id of the job last submitted for the stage, when there is one.
std::optional<std::string> read_job_id(const std::filesystem::path& data_dir, const Balance& b, run::BatchStage s);
Status write_job_id(const std::filesystem::path& data_dir, const Balance& b, run::BatchStage s, const std::string& id);

// Every balance with a job file under the data directory.
std::vector<Balance> balances_with_jobs(const std::filesystem::path& data_dir);

// The last `lines` lines of a file (fewer when it is shorter); empty when it cannot be read.
std::vector<std::string> last_lines(const std::filesystem::path& file, size_t lines);

}  // namespace egtmin::cluster
