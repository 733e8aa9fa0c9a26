// SPDX-License-Identifier: GPL-3.0-or-later
// The probe's one door: code outside core/probe includes this header and no other of the probe's.
// What callers need, and where it is defined:
//   Covers, OpenOptions   open a data directory's covers and probe positions, the short way (below)
//   CoverProber           the prober, for callers that choose what to load and how; its answer
//                         CoverAnswer, its strategies Method and RegionPolicy (probe/cover_prober.hpp)
//   Syzygy                the one wrapper over Fathom, the Syzygy prober (probe/syzygy.hpp)
//   ProbeMethodId         the probe methods that benchmarks time and charts draw, and their
//                         registry: names, labels, probe functions (probe/probe_methods.hpp)
//   ProbeMemory           the memory levels a user chooses from (probe/probe_memory.hpp)
//   make_layout           probe layout files, written beside the covers (probe/probe_layout.hpp)
//   check_probe           the hot path proved against a table (probe/probe_check.hpp)
// The index structures behind the prober (CubeIndex, RegionIndex, and hot_probe.hpp,
// which inlines the hot path into its callers' loops) come with CoverProber but are its
// internals: core/probe and its tests work on them by name.
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "chess/balance.hpp"
#include "chess/position.hpp"
#include "logic/cube.hpp"
#include "probe/cover_prober.hpp"
#include "probe/probe_check.hpp"
#include "probe/probe_layout.hpp"
#include "probe/probe_memory.hpp"
#include "probe/probe_methods.hpp"
#include "probe/syzygy.hpp"
#include "table/table.hpp"
#include "util/result.hpp"

namespace egtmin::probe {

struct OpenOptions {
  int threads = 0;  // covers are loaded and indexed on this many threads (0: default_threads())
  ProbeMemory memory = kDefaultProbeMemory;  // what is built for each cover, and the probe's method
};

struct CoverStats {
  std::vector<Balance> balances;             // loaded covers, sorted
  size_t memory_bytes = 0;                   // resident bytes of everything the loaded covers hold
  ProbeMemory memory = kDefaultProbeMemory;  // the level they were opened with
};

class Covers {
 public:
  // Loads every cover under data_dir/covers and indexes it as options.memory says (from the stored
  // probe layouts where the level builds what they hold); errors name the bad file.
  static Result<Covers> open(const std::filesystem::path& data_dir, const OpenOptions& options = {});
  Covers(Covers&&) noexcept;
  Covers& operator=(Covers&&) noexcept;
  ~Covers();

  bool has(const Balance& b) const;
  // The value of a position (checked for legality first), with the cube that answered. An
  // en-passant square is resolved by also probing the capture.
  Result<CoverAnswer> probe(const Position& pos) const;
  // The fast path for a position known to be legal: Wdl::Illegal where probe() gives an error.
  Wdl probe_wdl(const Position& pos) const;
  CoverStats stats() const;

  // The structures behind the probe, for the benchmarks.
  const CoverProber& prober() const { return *impl_; }

 private:
  Covers(std::unique_ptr<CoverProber> impl, ProbeMemory memory);
  std::unique_ptr<CoverProber> impl_;
  ProbeMemory memory_ = kDefaultProbeMemory;
};

}  // namespace egtmin::probe
