// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a chosen sequence of registered passes (logic/pass_sequence.hpp) over one balance's
// function and reports each: the cover starts as one minterm per care position (F), and every
// pass leaves an exact cover of the care set. `canon` switches the care set to a canonicalization
// scheme (non-representatives become don't-cares); without it the scheme is none. When canon
// comes first the minterms are built under the scheme directly, which is what keeps 5-piece
// inputs in memory.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "logic/care_function.hpp"
#include "logic/cover.hpp"
#include "logic/pass_sequence.hpp"
#include "logic/pass_state.hpp"
#include "table/table.hpp"
#include "util/progress.hpp"
#include "util/result.hpp"

namespace egtmin::logic {

struct PassReport {
  std::string pass;
  uint64_t cubes = 0;  // ON-cover cubes after the pass (all outputs)
  uint64_t literals = 0;
  double seconds = 0;       // wall time
  double cpu_seconds = 0;   // CPU time of the pass's threads (the calling thread when threads == 1)
  uint64_t peak_bytes = 0;  // process peak resident set (VmHWM) after the pass
};

struct Minimized {
  Cover cover;                       // final ON-cover, outputs W/D/L for White (without the 50-move rule)
  std::vector<uint32_t> rule_draws;  // rule_draw_indices() under `scheme`: the rest of the five values
  CanonScheme scheme = CanonScheme::None;
  uint64_t initial_cubes = 0;  // minterms of F before the first pass (under the scheme in force)
  uint64_t care_positions = 0;
  std::vector<int> split_inputs;    // minimized in parts split on these inputs (logic/split.hpp)
  std::vector<PassReport> reports;  // per pass; over parts, the parts' figures summed
  // The outputs the cover may leave implied (CareFunction::may_imply), by output slot.
  std::array<bool, kOutputs> may_imply = {true, true, true};
};

// What the pipeline tells as it goes, on the thread that runs it.
struct PassEvents {
  // Before the first pass: the minterms F starts with and the care positions (under the scheme).
  std::function<void(uint64_t minterms, uint64_t care_positions)> started;
  std::function<void(const PassReport&)> pass_done;
};

// CPU seconds used so far by the calling thread, or by the whole process.
enum class CpuScope : uint8_t { Thread, Process };
double cpu_now(CpuScope scope);

// The scheme a cover made by these passes is under: `canon` when one of them is the canon pass
// (which applies it), none otherwise.
CanonScheme cover_scheme(const PassSequence& passes, CanonScheme canon);

// `at_most_draw`: the table's "at most a draw" slots of a capture-resolved function
// (CaptureResolution::at_most_draw), null for none.
Result<Minimized> minimize_table(const Table& table, const PassSequence& passes, const MinimizeOptions& options,
                                 const Progress& progress = no_progress(), const PassEvents& events = {},
                                 const std::vector<uint64_t>* at_most_draw = nullptr);
// For functions not from a table (tests): canon is a no-op.
Result<Minimized> minimize_function(CareFunction f, const PassSequence& passes, const MinimizeOptions& options,
                                    const Progress& progress = no_progress(), const PassEvents& events = {});

}  // namespace egtmin::logic
