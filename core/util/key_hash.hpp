// SPDX-License-Identifier: GPL-3.0-or-later
// Multiplicative hashing of a few material keys into an open-addressed table (the probers'
// material lookups): the slot is the top `bits` bits of key * multiplier, and the multiplier is
// chosen to leave the fewest keys off their home slot, ideally none: then a probe's loop always
// stops at its first compare, a branch that never mispredicts. The keys are few (two per cover),
// so trying a few thousand multipliers is cheap beside opening the covers.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace egtmin {

inline size_t key_hash(uint64_t key, uint64_t mul, int bits) { return size_t((key * mul) >> (64 - bits)); }

inline uint64_t best_key_multiplier(std::span<const uint64_t> keys, int bits) {
  std::vector<char> taken(size_t{1} << bits);
  size_t best_displaced = SIZE_MAX;
  uint64_t best = 0, candidate = 0x9E3779B97F4A7C15ull;
  for (int attempt = 0; attempt < 4096 && best_displaced > 0; ++attempt) {
    std::fill(taken.begin(), taken.end(), 0);
    size_t displaced = 0;
    for (uint64_t k : keys) {
      const size_t h = key_hash(k, candidate, bits);
      displaced += size_t(taken[h]);
      taken[h] = 1;
    }
    if (displaced < best_displaced) best_displaced = displaced, best = candidate;
    candidate = (candidate ^ (candidate >> 31)) * 0xBF58476D1CE4E5B9ull | 1;  // next odd multiplier
  }
  return best;
}

}  // namespace egtmin
