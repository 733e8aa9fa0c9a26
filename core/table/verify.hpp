// SPDX-License-Identifier: GPL-3.0-or-later
// Cross-checks a generated table against Syzygy over every legal position of its encoding, on all
// five values of the 50-move rule.
#pragma once

#include <string>
#include <vector>

#include "probe/probe.hpp"
#include "table/table.hpp"
#include "util/progress.hpp"

namespace egtmin {

struct VerifyReport {
  std::string balance;
  uint64_t positions = 0;  // legal positions compared
  uint64_t mismatches = 0;
  uint64_t unanswered = 0;            // Fathom could not probe (counted as mismatches too)
  Table::Counts counts;               // Syzygy's values of the compared positions (side to move)
  std::vector<std::string> examples;  // FENs of the first few mismatches
};

struct VerifyOptions {
  int threads = 0;  // 0: default_threads()
  // 0: every legal position; otherwise every `stride`-th index (a deterministic sample).
  uint64_t stride = 0;
};

VerifyReport verify_against_syzygy(const Table& table, const Syzygy& syzygy, const VerifyOptions& opts = {},
                                   const Progress& progress = no_progress());

}  // namespace egtmin
