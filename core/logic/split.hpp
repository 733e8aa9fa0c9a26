// SPDX-License-Identifier: GPL-3.0-or-later
// Minimizing a large function in parts: fix a few inputs (the split), minimize each value of them
// as a function of the other inputs, and lift the parts' cubes back with those inputs fixed. The
// passes' memory grows with the care minterms they see at once (irredundant's coverage counters
// and covering matrix above all), so parts bound it; what a split costs is the cubes that would
// have spanned several parts. Cubes equal in every other input are merged again afterwards, so
// the inputs to split on are those across which the function rarely keeps its value: a cube
// rarely spans them anyway. input_agreement() measures that, and choose_split() uses it.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "logic/care_function.hpp"
#include "logic/cube.hpp"
#include "util/result.hpp"

namespace egtmin::logic {

struct Split {
  std::vector<int> inputs;  // ascending; each leaves whole 64-minterm words (see splittable())
  uint64_t parts() const { return uint64_t{1} << inputs.size(); }
};

// Can f be split on this input? Only inputs above the index's low 6 bits (a part is then made of
// whole 64-bit words of f's bitmaps): every input but the last piece's square.
bool splittable(const CareFunction& f, int input);

// Part `value` of f under the split (bit k of value, most significant first, is split input
// k's value), as a function of f's other inputs in their order.
CareFunction split_part(const CareFunction& f, const Split& split, uint64_t value);
// A cube of split_part(f, split, value) as a cube of f (n = f.inputs()).
CubeWord unsplit(CubeWord c, const Split& split, uint64_t value, int n);
// Care minterms of each part.
std::vector<uint64_t> part_care_counts(const CareFunction& f, const Split& split);

// Of the pairs of care minterms that differ in this input only, the share with the same output
// (1 when there are none).
double input_agreement(const CareFunction& f, int input);

// The split of f into parts of at most `limit` care minterms: splittable inputs in order of
// rising agreement until every part is small enough (at most max_inputs of them; none when f
// itself is small enough).
Split choose_split(const CareFunction& f, uint64_t limit, int max_inputs);

// The split a user asks for: "auto" (nothing: choose_split decides), "none" (no inputs), or
// input numbers separated by commas ("0,16,7"; input 0 is the side to move).
Result<std::optional<std::vector<int>>> parse_split(std::string_view text);

}  // namespace egtmin::logic
