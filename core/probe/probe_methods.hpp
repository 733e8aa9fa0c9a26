// SPDX-License-Identifier: GPL-3.0-or-later
// Every way the benchmarks and charts answer a probe, in one list: our cover methods and the
// anchor they are measured against (Fathom on Syzygy's files). The probe benchmark times each in
// turn, the CLI names them in its JSON and the GUI draws one series per method, all from here, so
// a new method is its id, its probe function, one entry in probe_methods.cpp and its test.
//
// Between the layers a method is its ProbeMethodId; its name is spelled here only, and read or
// written only at the edges (command-line flags, JSON and CSV), through this registry.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "chess/balance.hpp"
#include "chess/position.hpp"
#include "probe/cover_prober.hpp"
#include "probe/syzygy.hpp"
#include "table/table.hpp"

namespace egtmin::probe {

// Every method, in the order charts show them (kMethods lists them in this order): our default
// method first, the anchor last.
enum class ProbeMethodId : uint8_t { Indexed, Batched, Linear, CaptureResolved, Fathom };

// What a method may probe: our covers and the Syzygy directory, both open. `hold`, when given,
// keeps the Syzygy directory fixed for as long as the targets are used (the benchmark holds it
// across its timed loops, so that no probe pays for a lock).
struct ProbeTargets {
  const CoverProber& covers;
  const Syzygy& syzygy;
  const Syzygy::Hold* hold = nullptr;
  // The capture-resolved covers, when a run times them beside the standalone ones (null: the
  // methods that probe them are left out).
  const CoverProber* resolved = nullptr;
};

// Cover: one of ours. Anchor: the reference the others' times are divided by (and the values
// checked against).
enum class MethodRole : uint8_t { Cover, Anchor };

struct ProbeMethodInfo {
  ProbeMethodId id;
  std::string_view name;         // "indexed": as JSON keys, CSV columns and --method spell it
  std::string_view label;        // "cover, indexed": for people (chart legends)
  std::string_view description;  // one line
  MethodRole role;
  // Its time grows with the cover (a scan of every cube): slow at five pieces, so the benchmark
  // checks and times it on a subsample (ProbeBenchOptions::scan_positions).
  bool scans_cover;
  // It probes ProbeTargets::resolved: left out of a run that has none.
  bool reads_resolved;
  // Its time is a batch's: the probes overlap. Probed one position at a time (the benchmark's
  // per-probe times) it is a batch of one, the same probe as another method's, so charts of
  // per-probe times leave it out.
  bool overlaps_probes;
  // Probes positions[0..n) as fast as the method can (the timed loop; the probe inlines into it)
  // and returns a checksum of the values, so that the calls cannot be optimized away.
  uint64_t (*probe_batch)(const ProbeTargets&, const Position* positions, size_t n);
  // The value for the side to move, or nothing when the method has no answer or its paths
  // disagree (for covers: the timed hot path against the full one).
  std::optional<Wdl> (*probe_checked)(const ProbeTargets&, const Position&);
  // Resident bytes of what the method reads, for the balances in `balances`.
  size_t (*memory_bytes)(const ProbeTargets&, std::span<const Balance> balances);
};

// In the order charts show them: our default method first, the anchor last.
std::span<const ProbeMethodInfo> probe_methods();
const ProbeMethodInfo& probe_method(ProbeMethodId id);
// "indexed": as JSON keys, CSV columns and --method spell it.
std::string_view probe_method_name(ProbeMethodId id);
// Those of probe_methods() that targets can run: the capture-resolved one only with its covers,
// the ones that scan a cover only when every cover's cubes are on disk (not a layout alone).
std::vector<const ProbeMethodInfo*> probe_methods_for(const ProbeTargets& targets);
// The method of that name, for the edges that read names (flags, files); nothing when no method
// has it.
const ProbeMethodInfo* find_probe_method(std::string_view name);
// The method the others are compared with.
const ProbeMethodInfo& anchor_method();

// The registry's method that probes the covers with the prober's strategy `m`, and its name
// ("linear", "indexed": egtmin-cli probe's --method and its JSON).
ProbeMethodId probe_method_of(Method m);
std::string_view method_name(Method m);
// The strategy of a name the registry gives Method::Linear's or Method::Indexed's method; the
// error names both.
Result<Method> parse_method(std::string_view name);

}  // namespace egtmin::probe
