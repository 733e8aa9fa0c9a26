// SPDX-License-Identifier: GPL-3.0-or-later
// Slurm's commands as egtmin uses them: sbatch to submit a job script after others, squeue for
// the jobs still in the queue, sacct for how finished ones ended (where accounting is on), and
// scancel. Each builds its arguments and parses the machine-readable output it asks for.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "cluster/command.hpp"
#include "util/result.hpp"

namespace egtmin::cluster {

// A job as squeue or sacct tells it: its state (PENDING, RUNNING, FAILED, ...) and, for a pending
// job, why it waits (Dependency, Resources, DependencyNeverSatisfied, ...).
struct JobState {
  std::string id;
  std::string state;
  std::string reason;     // squeue only
  std::string exit_code;  // sacct only: "1:0" (code:signal)
};

// Pending or running: a job that will still do its work. A pending job whose dependency failed
// never runs (DependencyNeverSatisfied) and does not count.
bool is_alive(const JobState& j);
bool is_running(const JobState& j);

// "12345" or "12345;cluster" (sbatch --parsable) into the id; an error quotes what came back.
Result<std::string> parse_sbatch_output(const std::string& out);
// squeue -h -o "%i|%T|%r" lines, by job id.
std::map<std::string, JobState> parse_squeue(const std::string& out);
// sacct -n -P -X -o JobID,State,ExitCode lines, by job id ("CANCELLED by 0" read as CANCELLED).
std::map<std::string, JobState> parse_sacct(const std::string& out);

class Slurm {
 public:
  explicit Slurm(CommandRunner runner = run_command) : run_(std::move(runner)) {}

  // Submits the script to start after every job in `after` has completed successfully; when one
  // of them fails the new job is cancelled rather than left waiting for ever. The job's id.
  Result<std::string> submit(const std::string& script, const std::vector<std::string>& after,
                             const std::vector<std::string>& extra_args = {});
  // The jobs in the queue among `ids` (all of them, when empty).
  Result<std::map<std::string, JobState>> queue(const std::vector<std::string>& ids = {});
  // How the jobs among `ids` ended; an error where accounting is off (no slurmdbd).
  Result<std::map<std::string, JobState>> accounting(const std::vector<std::string>& ids);
  Status cancel(const std::string& id);

 private:
  CommandRunner run_;
};

}  // namespace egtmin::cluster
