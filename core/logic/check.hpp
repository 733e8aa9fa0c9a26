// SPDX-License-Identifier: GPL-3.0-or-later
// Verifies a cover against its table the way a probe reads it: each legal position is mapped to
// its representative (CoverCanon), the first cube containing the representative gives the value,
// negated when the representative swapped colours, and that must equal the table's value.
#pragma once

#include <cstdint>
#include <string>

#include "logic/cover.hpp"
#include "table/cover_canon.hpp"
#include "table/table.hpp"
#include "util/progress.hpp"

namespace egtmin::logic {

struct CheckReport {
  uint64_t positions = 0;   // legal positions checked
  uint64_t mismatches = 0;  // wrong value or no matching cube
  bool exhaustive = false;
  std::string first_mismatch;  // "index 123: table win, cover draw" for the first one
};

// sample == 0: every index of the 2^n space, where the first match is found by painting the
// cubes in order over the representatives (exactly first-match semantics, without a linear scan
// per position). sample > 0: that many uniformly drawn legal positions, each by linear scan.
CheckReport check_cover(const Table& table, const Cover& cover, CanonScheme scheme, uint64_t sample = 0,
                        uint64_t seed = 1, int threads = 1, const Progress& progress = no_progress());

}  // namespace egtmin::logic
