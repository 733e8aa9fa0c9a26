// SPDX-License-Identifier: GPL-3.0-or-later
// Proves a table without Syzygy: every canonical legal position's value must follow, in one ply,
// from the values of the positions its legal moves reach (in this table for quiet moves and pawn
// pushes, in the smaller tables for captures and promotions). Moves come from the chess library's
// own move generator, not the table generator's.
//
// Without the rule the check is exact: a position's folded value is the minimax of its
// successors'. The 50-move rule is a matter of distance, so given the generator's distances to
// zeroing (GenerateOptions::distances) the check is exact too: a win in d plies needs a zeroing
// move into a loss (d = 1) or a quiet move into a loss in d - 1 and nothing shorter, a loss in d
// has every move lose and its longest defence lasting d - 1, and a cursed win or blessed loss has
// no such line within 100 plies. Without distances, the rule's values are checked as far as one
// ply allows (a zeroing move into a loss makes a win, a win needs a move into a loss, a blessed
// loss an escape).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "table/generator.hpp"
#include "table/table.hpp"
#include "util/progress.hpp"

namespace egtmin {

struct SelfCheckReport {
  std::string balance;
  uint64_t positions = 0;  // canonical legal positions checked
  Table::Counts counts;    // of those positions, per value
  uint64_t failures = 0;
  bool exact_rule = false;            // distances were given: the rule's values were proven too
  std::vector<std::string> examples;  // the first few failures: FEN, stored value, why
  bool ok() const { return failures == 0 && positions > 0; }
};

struct SelfCheckOptions {
  int threads = 0;      // 0: default_threads()
  uint64_t stride = 1;  // check the slots that are multiples of stride (1: all; more: a quick sample)
};

// `lookup` hands over the tables of successor_balances(table.balance()); `distances` is empty or
// the generator's per-slot distances for this table.
SelfCheckReport self_check(const Table& table, const TableLookup& lookup, std::span<const uint8_t> distances = {},
                           const SelfCheckOptions& opts = {}, const Progress& progress = no_progress());

}  // namespace egtmin
