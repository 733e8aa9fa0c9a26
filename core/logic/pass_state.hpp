// SPDX-License-Identifier: GPL-3.0-or-later
// What a minimization pass works on: one balance's care function and, per output, the cubes the
// passes are shrinking (`work`) and those the essential pass has set aside (`fixed`: ESPRESSO
// moves essentials into the don't-care set; they count as coverage but are never changed). The
// pipeline (logic/pipeline.hpp) owns one PassState and runs the registered passes
// (logic/pass_registry.hpp) over it in turn.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "logic/care_function.hpp"
#include "logic/cover.hpp"
#include "logic/passes.hpp"
#include "table/table.hpp"
#include "util/parallel.hpp"
#include "util/progress.hpp"

namespace egtmin::logic {

// How a compact pass that runs on the initial minterms builds its cover: from the minterm list
// (compact(), passes.hpp), or straight from the care bitmaps (bitmap_compact.hpp), which never
// lists the minterms. Auto takes the bitmaps when the minterm list would be large (5 pieces).
enum class CompactSource : uint8_t { Auto, Minterms, Bitmap };
constexpr uint64_t kBitmapCompactMinterms = uint64_t{1} << 26;  // Auto's threshold (care minterms)

// A function with more care minterms than kPartCareMinterms is minimized in parts (see
// logic/split.hpp and MinimizeOptions::split): the passes' memory grows with the care minterms
// they see at once, and their time faster than that; larger parts give slightly fewer cubes for
// much more memory and time (docs/measured.md).
constexpr uint64_t kPartCareMinterms = uint64_t{1} << 24;
constexpr int kMaxSplitInputs = 8;  // at most 256 parts

struct MinimizeOptions {
  CanonScheme canon = CanonScheme::Full;  // the scheme the canon pass applies
  int threads = 1;                        // workers inside passes (0: default_threads())
  CompactSource compact_source = CompactSource::Auto;
  Effort effort = Effort::Normal;              // how hard expand and irredundant try
  FunctionScope scope = FunctionScope::Whole;  // run_parts gives each part Part
  // The inputs to split the function on (logic/split.hpp): each value of them is minimized on its
  // own, the empty parts skipped. Not set: choose_split(f, part_care_minterms, kMaxSplitInputs).
  std::optional<std::vector<int>> split = std::nullopt;
  // The most care minterms a part may have when the split is chosen. Functions with many
  // don't-cares need smaller parts: their primes are larger and overlap more, so irredundant's
  // matrix holds more entries per care minterm (docs/measured.md).
  uint64_t part_care_minterms = kPartCareMinterms;
};
// Capture-resolved covers: their don't-cares make primes larger and irredundant's matrix denser
// (docs/measured.md), so their parts were kept to 2^24 before the standalone limit came down to
// it.
constexpr uint64_t kResolvedPartCareMinterms = uint64_t{1} << 24;

// The care minterms of f as the initial cover.
Cover minterm_cover(const CareFunction& f);

struct PassState {
  const Table* table = nullptr;  // null for functions not from a table (canon is then a no-op)
  // The table's "at most a draw" slots (table/capture_resolve.hpp), null for none.
  const std::vector<uint64_t>* at_most_draw = nullptr;
  CareFunction f;
  std::array<Cover, kOutputs> work;
  std::array<Cover, kOutputs> fixed;
  // The care function is already under the canon scheme (canon ran first, or there is no table).
  bool canon_done = false;
  // The work covers are the minterms of f, not yet listed (see CompactSource): a pass that reads
  // the work covers calls list_minterms() first.
  bool minterms_pending = false;

  void list_minterms();
  void split(const Cover& all);  // all outputs' cubes -> work[output]
  Cover joined() const;          // fixed and work cubes of every output
  uint64_t cubes() const;
  uint64_t literals() const;
};

// Runs fn(slot) for the three outputs on up to `threads` workers (0: default_threads()): the
// outputs are independent problems (a cube of output o only has to avoid the care minterms of the
// other two).
template <class Fn>
void per_output(int threads, Fn&& fn) {
  parallel_for(uint64_t(kOutputs), threads, 1, no_progress(), [&](uint64_t s, uint64_t, int) { fn(int(s)); });
}

}  // namespace egtmin::logic
