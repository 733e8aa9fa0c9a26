// SPDX-License-Identifier: GPL-3.0-or-later
// A cover: a flat list of PCN cubes (logic/cube.hpp), each carrying its output. Kept flat and
// unboxed because a 4-piece ON-set starts as tens of millions of minterms.
#pragma once

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

}  // namespace egtmin::logic
