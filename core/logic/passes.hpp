// SPDX-License-Identifier: GPL-3.0-or-later
// The minimization passes, each on the ON-cover of one output (the three outputs of a table are
// independent problems: a cube of output o only has to avoid the care minterms of the other two,
// so they run in parallel). Every pass keeps the cover exact on the care set: each care minterm
// of output o stays covered by some cube of output o, and no cube of output o contains a care
// minterm of another output.
//
// `fixed` holds cubes the essential pass has set aside (ESPRESSO moves essentials into the
// don't-care set): they count as coverage in irredundant and reduce but are never changed.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "logic/care_function.hpp"
#include "logic/cover.hpp"
#include "util/enum_names.hpp"
#include "util/progress.hpp"
#include "util/result.hpp"

namespace egtmin::logic {

// The passes as the pipeline runs them, by name, are listed in logic/pass_registry.hpp.

// How hard expand and irredundant try (egtmin-cli minimize --effort). Normal is sized to keep
// the whole 3-4 piece set quick to minimize; High spends more CPU on each balance (more
// seed orders and LAST_GASP rounds in expand whatever the cover's size, a row-weighting local
// search in irredundant) for fewer cubes.
enum class Effort : uint8_t { Normal, High };
// As --effort and the GUI's settings spell them (util/enum_names.hpp).
inline constexpr EnumName<Effort> kEffortNames[] = {{Effort::Normal, "normal"}, {Effort::High, "high"}};
constexpr std::span<const EnumName<Effort>> enum_names(Effort) { return kEffortNames; }

// Whether a pass sees a whole function or one part of a split one (logic/split.hpp). At normal
// effort irredundant leaves out its local search on a part, and expand makes the primes of a
// large cover (one seed order, one LAST_GASP round) whatever the part's size: a part is a slice
// of a large function, and the extra work there took much of the passes' time for about one
// percent of the cubes (docs/measured.md).
enum class FunctionScope : uint8_t { Whole, Part };

// MINI's iterated distance-one merging, to a fixed point: for each input in turn, merge the 0/1
// pairs of cubes equal except at that input into X and drop the cubes one with X there contains
// (merge_on). Purely syntactic (needs no care set); any outputs.
// Stops between inputs when progress is cancelled (the cover is still exact then).
void compact(Cover& f, const Progress& progress = no_progress());
// Where merge_on keeps a block's 10 and 11 cubes until its 01 cubes are written back: held by the
// caller across a compaction's steps, and freed with it.
struct MergeBuffers {
  Cover zeros, frees;
};
// One step of compact on f in value order (ascending), which it keeps: merges each group of cubes
// equal except at `input` (0 + 1 -> X; a cube with X there swallows those with 0 or 1; copies
// collapse). Returns whether a new X cube was made.
bool merge_on(Cover& f, int input, MergeBuffers& buffers);
// Sorts f by its cubes with `input` made free: the order a compaction's cover has had since its
// steps sorted that way, so that covers and files stay as they were.
void to_key_order(Cover& f, int input);
// The inputs at which some cube of f has a literal (only those can merge).
std::vector<int> literal_inputs(const Cover& f);

// Raises each cube to a prime (a cube of output o that contains no care minterm of another
// output and cannot grow): a greedy set cover of o's care minterms (logic/expand.cpp). Cubes go
// largest first; a cube whose care minterms earlier primes cover is dropped, any other is raised
// literal by literal, each time the raise adding the most care minterms not yet covered. On small
// covers further seed orders and alternative raises add more primes, and LAST_GASP-style rounds
// add primes that hold the uniquely covered parts of several cubes, so that irredundant has
// a choice (logic/expand.hpp: expand_effort). All cubes of `cover` have output o; the result
// holds primes only, none inside another.
void expand(Cover& cover, const CareFunction& f, Output o, const Progress& progress = no_progress(),
            Effort effort = Effort::Normal, FunctionScope scope = FunctionScope::Whole);

// Coverage counts (logic/coverage.hpp) are per output, so the outputs run in parallel.
// Keeps a minimum-size subset of the cover as a covering problem (logic/irredundant.cpp):
// relatively essential cubes stay, totally redundant ones go, and the partially redundant ones
// are chosen by a weighted greedy cover with local search over the care minterms nothing else
// covers, then a row-weighting local search on the dominance-reduced matrix (longer at high
// effort). Every kept cube has a care minterm only it (among kept and fixed cubes) covers.
void irredundant(Cover& cover, const Cover& fixed, const CareFunction& f, Output o, Effort effort = Effort::Normal,
                 FunctionScope scope = FunctionScope::Whole);
// Shrinks each cube (largest first) to the smallest cube holding the care minterms only it
// covers; a cube with none is dropped.
void reduce(Cover& cover, const Cover& fixed, const CareFunction& f, Output o);
// Moves cubes that alone cover some care minterm (relatively essential) into `fixed`.
void essential(Cover& cover, Cover& fixed, const CareFunction& f, Output o);
// expand + irredundant, then reduce-expand-irredundant until neither cubes nor literals improve.
void espresso(Cover& cover, const Cover& fixed, const CareFunction& f, Output o,
              const Progress& progress = no_progress(), Effort effort = Effort::Normal,
              FunctionScope scope = FunctionScope::Whole);

// Minterm word of an index, faster than cube.hpp's bit loop (hot in reduce).
CubeWord minterm_fast(uint64_t index, int n, Output o = Output::None);

}  // namespace egtmin::logic
