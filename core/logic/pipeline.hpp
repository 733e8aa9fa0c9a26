// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a chosen sequence of passes over one balance's function and reports each: the cover starts
// as one minterm per care position (F), and every pass leaves an exact cover of the care set.
// `canon` switches the care set to a canonicalization scheme (non-representatives become
// don't-cares) and drops cubes left with no care minterm; without it the scheme is none. When
// canon comes first the minterms are built under the scheme directly, which is what keeps
// 5-piece inputs in memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "logic/bitmap_compact.hpp"
#include "logic/care_function.hpp"
#include "logic/cover.hpp"
#include "logic/passes.hpp"
#include "table/table.hpp"
#include "util/progress.hpp"
#include "util/result.hpp"

namespace egtmin::logic {

struct PassReport {
  std::string pass;
  uint64_t cubes = 0;     // ON-cover cubes after the pass (all outputs)
  uint64_t literals = 0;
  double seconds = 0;      // wall time
  double cpu_seconds = 0;  // CPU time of the pass's threads (the calling thread when threads == 1)
  uint64_t peak_bytes = 0;  // process peak resident set (VmHWM) after the pass
};

// How a compact pass that runs on the initial minterms builds its cover: from the minterm list
// (compact(), passes.hpp), or straight from the care bitmaps (bitmap_compact.hpp), which never
// lists the minterms. Auto takes the bitmaps when the minterm list would be large (5 pieces).
enum class CompactSource : uint8_t { Auto, Minterms, Bitmap };
constexpr uint64_t kBitmapCompactMinterms = uint64_t{1} << 26;  // Auto's threshold (care minterms)

// An output's cover with more than kExpandWhole cubes is expanded in runs of kExpandChunk cubes
// (see pipeline.cpp). No 2-4 piece cover comes near kExpandWhole (the largest, KBvKP's, has
// 617,267 cubes for all three outputs after compaction), so those are expanded whole as before.
constexpr size_t kExpandWhole = size_t{1} << 20;
constexpr size_t kExpandChunk = size_t{1} << 18;

struct MinimizeOptions {
  CanonScheme canon = CanonScheme::Full;  // the scheme the canon pass applies
  int threads = 1;                        // workers inside passes (outputs run in parallel)
  CompactSource compact_source = CompactSource::Auto;
  Effort effort = Effort::Normal;  // how hard expand and irredundant try
};

struct Minimized {
  Cover cover;                 // final ON-cover, outputs W/D/L for White
  CanonScheme scheme = CanonScheme::None;
  uint64_t initial_cubes = 0;  // minterms of F before the first pass (under the scheme in force)
  uint64_t care_positions = 0;
  std::vector<PassReport> reports;
};

// Process peak resident set size in bytes (VmHWM), 0 when unknown.
uint64_t peak_memory_bytes();
// CPU seconds used so far by the calling thread, or by the whole process.
double cpu_now(bool whole_process);

// The care minterms of f as the initial cover.
Cover minterm_cover(const CareFunction& f);

Result<Minimized> minimize_table(const Table& table, const std::vector<Pass>& passes, const MinimizeOptions& options,
                                 const Progress& progress = no_progress());
// For functions not from a table (tests): canon is a no-op.
Result<Minimized> minimize_function(CareFunction f, const std::vector<Pass>& passes, const MinimizeOptions& options,
                                    const Progress& progress = no_progress());

}  // namespace egtmin::logic
