// SPDX-License-Identifier: GPL-3.0-or-later
// How many cubes cover each care minterm of one output, as bit-sliced counters: for every
// non-empty 64-minterm word of the ON-set, kPlanes words whose bit b together hold minterm b's
// count. Adding or removing a cube then costs a few word operations per 64 minterms (a ripple
// carry across the planes) instead of one counter update per minterm, which is what makes
// reduce and the essential pass cheap on covers whose cubes each span thousands of care
// positions. (The passes that only add cubes use OnceCoverage below.)
// Counts saturate at 2^kPlanes - 1 ("many"): a saturated minterm is never decremented and is
// treated as possibly uncovered-if-removed, so saturation can only make passes keep more.
#pragma once

#include <cstdint>
#include <vector>

#include "logic/care_function.hpp"

namespace egtmin::logic {

class Coverage {
 public:
  static constexpr int kPlanes = 16;

  Coverage(const CareFunction& f, Output o);

  const BitTree& on() const { return *on_; }

  void add(CubeWord c);
  void remove(CubeWord c);

  // Minterm mask of one word (`bits` = the cube's members there): count 1, or saturated.
  uint64_t exactly_one(uint64_t word, uint64_t bits) const;

  // The supercube (inputs only; 0 when none) of c's care minterms counted once (or saturated).
  CubeWord unique_supercube(CubeWord c) const;
  // Care minterms of output o inside c.
  uint64_t size(CubeWord c) const;

 private:
  uint64_t* planes(uint64_t word) { return &planes_[uint64_t(slot_[word]) * kPlanes]; }
  const uint64_t* planes(uint64_t word) const { return &planes_[uint64_t(slot_[word]) * kPlanes]; }

  const BitTree* on_;
  int n_;
  std::vector<uint32_t> slot_;  // word -> its planes (only words with care minterms)
  std::vector<uint64_t> planes_;
};

// Which care minterms of one output a cover holds once, and which more than once: all that
// irredundant's essential test and expand's LAST_GASP rounds ask, and they only add cubes. Two
// words per 64 minterms (held at least once; at least twice) where Coverage keeps sixteen, so a
// five-piece part's counts stay in the caches while every cube of the cover is added.
class OnceCoverage {
 public:
  OnceCoverage(const CareFunction& f, Output o);

  void add(CubeWord c);
  // Minterm mask of one word (`bits` = the cube's members there): held by exactly one cube.
  uint64_t exactly_one(uint64_t word, uint64_t bits) const {
    const uint64_t* p = planes(word);
    return bits & p[0] & ~p[1];
  }
  // The supercube (inputs only; 0 when none) of c's care minterms held once.
  CubeWord unique_supercube(CubeWord c) const;

 private:
  uint64_t* planes(uint64_t word) { return &planes_[2 * uint64_t(slot_[word])]; }
  const uint64_t* planes(uint64_t word) const { return &planes_[2 * uint64_t(slot_[word])]; }

  const BitTree* on_;
  int n_;
  std::vector<uint32_t> slot_;    // word -> its two planes (only words with care minterms)
  std::vector<uint64_t> planes_;  // per word: held at least once, at least twice
};

}  // namespace egtmin::logic
