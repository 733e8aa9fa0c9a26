// SPDX-License-Identifier: GPL-3.0-or-later
#include "cluster/resources.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "run/batch_run.hpp"
#include "run/run_plan.hpp"
#include "table/generator.hpp"
#include "util/memory.hpp"

namespace egtmin::cluster {

namespace {

using run::BatchStage;

// A job's time limit is this times the stage's expected time (Stage<S>::kSecondsPerSlot). The
// rates are typical of a kind of balance on a machine to itself: one balance of the kind can take
// twice its share (KRPvKR's capture-resolved minimization) and a stage beside other jobs about
// half as long again, and a job over its limit loses all its work.
constexpr double kTimeSafety = 4;
constexpr std::chrono::seconds kMinimumTime{600};
constexpr double kMemoryHeadroom = 1.2;
constexpr uint64_t kMinimumMemory = uint64_t{512} << 20;

// "table, verify, minimize or check": the stages a cluster submits.
std::string job_stage_names() {
  std::string out;
  for (size_t i = 0; i < run::kClusterStages.size(); ++i)
    out += (i == 0                                ? ""
            : i + 1 == run::kClusterStages.size() ? " or "
                                                  : ", ") +
           std::string(name_of(run::kClusterStages[i]));
  return out;
}

Result<std::pair<BatchStage, std::string_view>> split_override(std::string_view text, const char* flag) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos)
    return Error{std::string(flag) + ": '" + std::string(text) + "' is not STAGE=VALUE (stage: " + job_stage_names() +
                 ")"};
  const auto stage = parse_enum<BatchStage>(text.substr(0, eq));
  if (!stage || !run::info(*stage).cluster_job)
    return Error{std::string(flag) + ": unknown stage '" + std::string(text.substr(0, eq)) + "' (" + job_stage_names() +
                 ")"};
  return std::pair{*stage, text.substr(eq + 1)};
}

}  // namespace

uint64_t expected_memory_bytes(const Balance& b, BatchStage s, int cpus) {
  return run::expected_stage_peak_bytes(b, s, cpus);
}

std::chrono::seconds expected_seconds(const Balance& b, BatchStage s, int cpus) {
  return run::expected_stage_seconds(b, s, cpus);
}

StageResources stage_resources(const Balance& b, BatchStage s, int cpus, const ResourceOverrides& overrides) {
  StageResources r;
  r.cpus = std::max(cpus, 1);
  if (auto it = overrides.memory_bytes.find(s); it != overrides.memory_bytes.end()) {
    r.memory_bytes = it->second;
  } else {
    r.memory_bytes = std::max(kMinimumMemory, uint64_t(kMemoryHeadroom * double(expected_memory_bytes(b, s, r.cpus))));
  }
  if (auto it = overrides.time.find(s); it != overrides.time.end()) {
    r.time = it->second;
  } else {
    const auto t = std::chrono::seconds(int64_t(kTimeSafety * double(expected_seconds(b, s, r.cpus).count())));
    // Whole minutes: Slurm counts in minutes.
    r.time = std::max(kMinimumTime, std::chrono::seconds((t.count() + 59) / 60 * 60));
  }
  return r;
}

std::string slurm_memory(uint64_t bytes) {
  const uint64_t mib = (bytes + (uint64_t{1} << 20) - 1) >> 20;
  return std::to_string(std::max<uint64_t>(mib, 1)) + "M";
}

std::string slurm_time(std::chrono::seconds t) {
  const int64_t s = std::max<int64_t>(t.count(), 60);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%lld-%02lld:%02lld:%02lld", (long long)(s / 86400), (long long)(s / 3600 % 24),
                (long long)(s / 60 % 60), (long long)(s % 60));
  return buf;
}

Result<std::chrono::seconds> parse_slurm_time(std::string_view text) {
  // Quoted by appending: GCC 12 warns (-Wrestrict) on "'" + std::string(text), a false alarm.
  const std::string quoted = std::string(1, '\'').append(text).append("'");
  auto bad = [&] { return Error{quoted + " is not a Slurm time (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS)"}; };
  if (text.empty()) return bad();
  int64_t days = 0;
  std::string_view rest = text;
  const auto dash = text.find('-');
  std::vector<int64_t> parts;
  auto number = [](std::string_view digits, int64_t& out) {
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string_view::npos)
      return false;
    out = std::stoll(std::string(digits));
    return true;
  };
  if (dash != std::string_view::npos) {
    if (!number(text.substr(0, dash), days)) return bad();
    rest = text.substr(dash + 1);
  }
  while (true) {
    const auto colon = rest.find(':');
    int64_t v = 0;
    if (!number(rest.substr(0, colon), v)) return bad();
    parts.push_back(v);
    if (colon == std::string_view::npos) break;
    rest = rest.substr(colon + 1);
  }
  if (parts.size() > 3) return bad();
  int64_t seconds = 0;
  if (dash != std::string_view::npos) {  // D-HH, D-HH:MM, D-HH:MM:SS
    seconds = parts[0] * 3600 + (parts.size() > 1 ? parts[1] * 60 : 0) + (parts.size() > 2 ? parts[2] : 0);
    seconds += days * 86400;
  } else if (parts.size() == 1) {  // MM
    seconds = parts[0] * 60;
  } else if (parts.size() == 2) {  // MM:SS
    seconds = parts[0] * 60 + parts[1];
  } else {  // HH:MM:SS
    seconds = parts[0] * 3600 + parts[1] * 60 + parts[2];
  }
  if (seconds <= 0) return Error{quoted + " is no time at all"};
  return std::chrono::seconds(seconds);
}

Status parse_memory_override(std::string_view text, ResourceOverrides& into) {
  auto split = split_override(text, "--mem");
  if (!split) return split.error();
  auto bytes = parse_byte_size(split->second);
  if (!bytes) return Error{"--mem " + std::string(text) + ": " + bytes.error().message};
  if (*bytes == 0) return Error{"--mem " + std::string(text) + ": a job needs some memory"};
  into.memory_bytes[split->first] = *bytes;
  return ok_status();
}

Status parse_time_override(std::string_view text, ResourceOverrides& into) {
  auto split = split_override(text, "--time");
  if (!split) return split.error();
  auto t = parse_slurm_time(split->second);
  if (!t) return Error{"--time " + std::string(text) + ": " + t.error().message};
  into.time[split->first] = *t;
  return ok_status();
}

}  // namespace egtmin::cluster
