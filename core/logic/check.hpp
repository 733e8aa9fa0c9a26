// SPDX-License-Identifier: GPL-3.0-or-later
// Verifies a cover against its table the way a probe reads it: each legal position is mapped to
// its representative (CoverCanon), the first cube containing the representative gives the value
// (a cursed win or blessed loss when the representative is in the cover's list of the 50-move
// rule's draws), negated when the representative swapped colours, and that must equal the
// table's value: all five values are checked.
#pragma once

#include <cstdint>
#include <span>
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
// `rule_draws`: the cover's list of the rule's draws (ascending representative indices);
// `implied`: the value of a representative that no cube holds (Output::None: none, a mismatch).
// The exhaustive check runs on `threads` workers (0: default_threads()).
CheckReport check_cover(const Table& table, const Cover& cover, CanonScheme scheme,
                        std::span<const uint32_t> rule_draws, Output implied, uint64_t sample = 0, uint64_t seed = 1,
                        int threads = 1, const Progress& progress = no_progress());

}  // namespace egtmin::logic
