// SPDX-License-Identifier: GPL-3.0-or-later
// Probing cover files, as a caller needs it: open a data directory's covers, probe a position,
// ask what is loaded and how much memory it takes. The index structures behind it (CubeIndex,
// RegionIndex, the hot path) stay in probe/cover_prober.hpp, for core and the benchmarks.
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "chess/balance.hpp"
#include "chess/position.hpp"
#include "logic/cube.hpp"
#include "probe/probe_memory.hpp"
#include "table/table.hpp"
#include "util/result.hpp"

namespace egtmin::probe {

class CoverProber;

struct OpenOptions {
  int threads = 0;  // covers are loaded and indexed on this many threads (0: default_threads())
  ProbeMemory memory = kDefaultProbeMemory;  // what is built for each cover, and the probe's method
};

// One position's answer from the covers.
struct CoverAnswer {
  Wdl wdl = Wdl::Illegal;    // for the side to move
  logic::CubeWord cube = 0;  // the cube that answered (for the position itself, not an ep capture)
  int inputs = 0;            // of that cover, for printing the cube
  Balance balance;           // canonical balance of the cover that answered
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
