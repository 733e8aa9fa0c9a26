// SPDX-License-Identifier: GPL-3.0-or-later
// A cover: a flat list of PCN cubes (logic/cube.hpp), each carrying its output. Kept flat and
// unboxed because a 4-piece ON-set starts as tens of millions of minterms.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "logic/cube.hpp"

namespace egtmin::logic {

using Cover = std::vector<CubeWord>;

inline uint64_t literal_count(const Cover& f) {
  uint64_t l = 0;
  for (CubeWord c : f) l += literals(c);
  return l;
}

// The first cube containing minterm m (inputs only), or nullptr: the probe's linear scan.
inline const CubeWord* first_match(const Cover& f, CubeWord m) {
  for (const CubeWord& c : f)
    if (contains(c, m)) return &c;
  return nullptr;
}

// A cover may leave one output implied: its cubes are not stored, and a care position that matches
// no cube has it (cubes of one output never hold a care position of another, so the position of any
// other output still finds its cube). The output with the most cubes saves the most.
inline Output most_cubes_output(const Cover& f, std::array<bool, 3> allowed = {true, true, true}) {
  std::array<uint64_t, 4> n{};
  for (CubeWord c : f) ++n[size_t(output_of(c))];
  Output best = Output::None;
  for (int o = 1; o <= 3; ++o)
    if (allowed[size_t(o - 1)] && n[size_t(o)] > (best == Output::None ? 0 : n[size_t(best)])) best = Output(o);
  return best;
}
inline void drop_output(Cover& f, Output o) {
  std::erase_if(f, [o](CubeWord c) { return output_of(c) == o; });
}

// The output a cover gives a care position: its first matching cube's, else the implied one.
inline Output output_at(const Cover& f, CubeWord m, Output implied) {
  const CubeWord* c = first_match(f, m);
  return c ? output_of(*c) : implied;
}

}  // namespace egtmin::logic
