// SPDX-License-Identifier: GPL-3.0-or-later
// Retrograde analysis of one balance: the exact value of every position with best play under the
// 50-move rule (five values, table/wdl.hpp), using the already solved tables of the balances that
// captures and promotions lead to.
#pragma once

#include <functional>
#include <vector>

#include "table/table.hpp"
#include "util/progress.hpp"

namespace egtmin {

// Hands the generator the finished table of a canonical balance, or nullptr when it is missing.
using TableLookup = std::function<const Table*(const Balance&)>;

// The canonical balances that captures and promotions from b lead to (b's direct dependencies).
std::vector<Balance> successor_balances(const Balance& b);

// Plies without a capture or pawn move after which the 50-move rule draws the game.
constexpr int kRuleLimitPlies = 100;
// The distance of a position the rule does not decide (draws, cursed wins, blessed losses).
constexpr uint8_t kNoRuleDistance = 0xFF;

struct GenerateOptions {
  int threads = 0;  // 0: default_threads()
  // When set, receives per slot the plies to the zeroing move (or mate) that decides a win or loss
  // within the 50-move rule, kNoRuleDistance for every other slot: the certificate
  // table/self_check.hpp proves.
  std::vector<uint8_t>* distances = nullptr;
  // For TableStore::ensure: prove each new table with the self-check before writing it (a one-ply
  // proof of every position, costly in its own right; what gen, verify and minimize runs do).
  bool self_check = false;
  // Run the analyses without and with the rule separately in every pawn layer, as the generator
  // must where a zeroing move reaches a cursed win or a blessed loss: the reference that tests
  // hold the one-analysis path to.
  bool two_analyses = false;
};

// How far a pawn of colour c on s has advanced from its starting rank (0-5). Every pawn move
// raises the sum over a position's pawns, which is the order the generator solves positions in.
int pawn_advancement(Color c, Square s);

// b must be canonical with at most 5 pieces, and every successor balance must be available.
Result<Table> generate(const Balance& b, const TableLookup& lookup, const GenerateOptions& opts = {},
                       const Progress& progress = no_progress());

}  // namespace egtmin
