// SPDX-License-Identifier: GPL-3.0-or-later
// The machinery behind expand (logic/passes.hpp declares the pass itself): raising one cube to a
// prime against the care bitmaps, with a running record of the care minterms the primes made so
// far cover.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "logic/care_function.hpp"
#include "logic/cover.hpp"
#include "logic/passes.hpp"
#include "util/progress.hpp"

namespace egtmin::logic {

class Expander {
 public:
  Expander(const CareFunction& f, Output o);

  // Does c contain a care minterm of another output?
  bool blocked(CubeWord c) const;
  // Does c contain a care minterm of the output that no marked cube covers?
  bool has_uncovered(CubeWord c) const;
  // (care minterms of the output in c not yet covered, all care minterms of the output in c)
  std::pair<uint64_t, uint64_t> gain(CubeWord c) const;
  // Records c's care minterms as covered.
  void mark(CubeWord c);
  // Replaces the record of covered care minterms (one bit per care-bitmap bit).
  void set_covered(std::vector<uint64_t> covered) { covered_ = std::move(covered); }
  // How expand_one ranks the literals it may raise.
  enum class Rank {
    NewCoverage,  // the most uncovered care minterms first, then the most care minterms
    AllCoverage,  // the most care minterms (covered or not)
  };
  // A prime containing c (c must not be blocked): literals raised one at a time, the best by
  // `rank` first (ties: the highest freq). first >= 0: raise that input first.
  CubeWord expand_one(CubeWord c, const std::array<uint64_t, kMaxInputs>& freq, int first = -1,
                      Rank rank = Rank::NewCoverage) const;

 private:
  const CareFunction& f_;
  const BitTree& on_;
  Output o_;
  const BitTree* block_[kOutputs] = {};
  int nb_ = 0;
  std::vector<uint64_t> covered_;
};

// How hard expand tries (logic/expand.cpp): `orders` greedy covers (largest cubes first,
// smallest first, then shuffled), `trials` alternative primes per cube, `gasp_rounds` rounds of
// LAST_GASP-style primes, `gasp_alt` = 1 adds a second prime per reduced cube (ranked by all care
// minterms), `gasp_full` = 1 takes each round's cover from all primes so far (0: from the last
// cover and the new primes only).
struct ExpandEffort {
  int orders = 1;
  int trials = 0;
  int gasp_rounds = 1;
  int gasp_alt = 0;
  int gasp_full = 0;
};
// The effort expand uses on a cover of `cubes` cubes (Normal: more on small covers).
ExpandEffort expand_effort(size_t cubes, Effort level = Effort::Normal, FunctionScope scope = FunctionScope::Whole);
void expand_with(Cover& cover, const CareFunction& f, Output o, const ExpandEffort& effort,
                 const Progress& progress = no_progress());

}  // namespace egtmin::logic
