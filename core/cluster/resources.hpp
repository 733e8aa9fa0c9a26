// SPDX-License-Identifier: GPL-3.0-or-later
// What one stage of one balance asks the scheduler for: memory, wall time and cores. Memory is
// the run plan's expected peak (run/run_plan.hpp, an upper estimate calibrated on measured runs)
// with a fifth more room, since a job over its request is killed. Time is three times a rate per
// table slot measured on a 2-core machine with other work alongside, and never under ten minutes,
// since a job over its limit is killed too and small jobs spend more on starting than on work.
// Both can be overridden per stage.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "chess/balance.hpp"
#include "run/batch_stage.hpp"
#include "util/result.hpp"

namespace egtmin::cluster {

struct StageResources {
  uint64_t memory_bytes = 0;
  std::chrono::seconds time{0};
  int cpus = 1;
};

// The overrides given on the command line, by stage.
struct ResourceOverrides {
  std::map<run::BatchStage, uint64_t> memory_bytes;
  std::map<run::BatchStage, std::chrono::seconds> time;
};

// The expected peak memory and wall time of the stage on `cpus` cores, before any headroom.
uint64_t expected_memory_bytes(const Balance& b, run::BatchStage s, int cpus);
std::chrono::seconds expected_seconds(const Balance& b, run::BatchStage s, int cpus);

// What a job asks for: the expected figures with their headroom, or the overrides.
StageResources stage_resources(const Balance& b, run::BatchStage s, int cpus, const ResourceOverrides& overrides = {});

// sbatch's forms: "--mem" in whole MiB ("2048M"), "--time" as D-HH:MM:SS.
std::string slurm_memory(uint64_t bytes);
std::string slurm_time(std::chrono::seconds t);

// "minimize=16G" into an override; errors name the stage or size that could not be read.
Status parse_memory_override(std::string_view text, ResourceOverrides& into);
// "table=2:00:00", "check=90" (minutes), "minimize=1-12:00:00", as sbatch reads --time.
Status parse_time_override(std::string_view text, ResourceOverrides& into);
// Slurm's time forms: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS.
Result<std::chrono::seconds> parse_slurm_time(std::string_view text);

}  // namespace egtmin::cluster
