// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/probe_memory.hpp"

namespace egtmin::probe {

namespace {

// The levels trade memory for probe time (docs/bench-probe.md, "Probe memory levels"): smallest
// keeps only the cubes and scans them; fast maps the stored layouts. A level between them, an
// index built when the covers open with one copy of each cube and no region indexes, was left out
// (docs/measured.md): it keeps the cubes beside it, so it takes more memory than the mapped
// layouts, probes slower and is slow to open.
constexpr ProbeMemoryLevel kLevels[] = {
    {ProbeMemory::Fast, "fast", "the default index, mapped from the stored probe layouts; the fastest probes",
     Method::Indexed, CoverProber::kDefaultCopies, RegionPolicy::Auto},
    {ProbeMemory::Smallest, "smallest", "the cubes alone, scanned in file order; the least memory, the slowest probes",
     Method::Linear, CoverProber::kNoIndex, RegionPolicy::Never},
};

}  // namespace

std::span<const ProbeMemoryLevel> probe_memory_levels() { return kLevels; }

const ProbeMemoryLevel& probe_memory_level(ProbeMemory level) {
  for (const ProbeMemoryLevel& l : kLevels)
    if (l.level == level) return l;
  return kLevels[0];
}

Result<ProbeMemory> parse_probe_memory(std::string_view name) {
  for (const ProbeMemoryLevel& l : kLevels)
    if (l.name == name) return l.level;
  return Error{"unknown probe memory level '" + std::string(name) + "' (" + probe_memory_names() + ")"};
}

std::string probe_memory_names() {
  std::string out;
  const size_t n = std::size(kLevels);
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) out += i + 1 == n ? " or " : ", ";
    out += kLevels[i].name;
  }
  return out;
}

}  // namespace egtmin::probe
