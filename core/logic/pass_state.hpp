// SPDX-License-Identifier: GPL-3.0-or-later
// What a minimization pass works on: one balance's care function and, per output, the cubes the
// passes are shrinking (`work`) and those the essential pass has set aside (`fixed`: ESPRESSO
// moves essentials into the don't-care set; they count as coverage but are never changed). The
// pipeline (logic/pipeline.hpp) owns one PassState and runs the registered passes
// (logic/pass_registry.hpp) over it in turn.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <thread>
#include <vector>

#include "logic/care_function.hpp"
#include "logic/cover.hpp"
#include "logic/passes.hpp"
#include "table/table.hpp"
#include "util/progress.hpp"

namespace egtmin::logic {

// How a compact pass that runs on the initial minterms builds its cover: from the minterm list
// (compact(), passes.hpp), or straight from the care bitmaps (bitmap_compact.hpp), which never
// lists the minterms. Auto takes the bitmaps when the minterm list would be large (5 pieces).
enum class CompactSource : uint8_t { Auto, Minterms, Bitmap };
constexpr uint64_t kBitmapCompactMinterms = uint64_t{1} << 26;  // Auto's threshold (care minterms)

// A function with more care minterms than kPartCareMinterms is minimized in parts (see
// logic/split.hpp and MinimizeOptions::split): the passes' memory grows with the care minterms
// they see at once, and their time faster than that; larger parts give a few fewer cubes for
// several times the memory and time (docs/measured.md).
constexpr uint64_t kPartCareMinterms = uint64_t{1} << 24;
constexpr int kMaxSplitInputs = 8;  // at most 256 parts

struct MinimizeOptions {
  CanonScheme canon = CanonScheme::Full;  // the scheme the canon pass applies
  int threads = 1;                        // workers inside passes (outputs run in parallel)
  CompactSource compact_source = CompactSource::Auto;
  Effort effort = Effort::Normal;  // how hard expand and irredundant try
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

// Runs fn(i) for i in [0, count) on up to `threads` workers (the calling thread among them).
template <class Fn>
void parallel_for(size_t count, int threads, Fn&& fn) {
  threads = std::max(1, std::min(threads, int(std::min<size_t>(count, 1024))));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < count;) fn(i);
  };
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

// Runs fn(slot) for the three outputs on up to `threads` workers: the outputs are independent
// problems (a cube of output o only has to avoid the care minterms of the other two).
template <class Fn>
void per_output(int threads, Fn&& fn) {
  parallel_for(size_t(kOutputs), threads, [&](size_t s) { fn(int(s)); });
}

}  // namespace egtmin::logic
