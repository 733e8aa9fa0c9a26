// SPDX-License-Identifier: GPL-3.0-or-later
// How much memory probing the covers may take, as a user chooses it: named levels, from the fastest
// probe (the default index, read from the stored probe layouts) down to the least memory (the cubes
// alone, scanned). Each level says what CoverProber builds for every cover and which method then
// probes. This is the one list of levels: egtmin-cli's --memory and its help, and the workbench's
// setting, are made from it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "probe/cover_prober.hpp"
#include "util/result.hpp"

namespace egtmin::probe {

enum class ProbeMemory : uint8_t { Fast = 0, Smallest = 1 };

struct ProbeMemoryLevel {
  ProbeMemory level;
  std::string_view name;         // "smallest": as --memory and the settings file spell it
  std::string_view description;  // one line, for help texts and the settings dialog
  Method method;                 // how probes search the covers
  // What CoverProber::open builds for each cover (CoverProber::kNoIndex: the cubes alone).
  double max_copies;
  RegionPolicy regions;
};

inline constexpr ProbeMemory kDefaultProbeMemory = ProbeMemory::Fast;

// Every level, most memory first.
std::span<const ProbeMemoryLevel> probe_memory_levels();
const ProbeMemoryLevel& probe_memory_level(ProbeMemory level);
// The level of that name; the error lists the names.
Result<ProbeMemory> parse_probe_memory(std::string_view name);
// "fast or smallest", for messages.
std::string probe_memory_names();

}  // namespace egtmin::probe
