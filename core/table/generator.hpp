// SPDX-License-Identifier: GPL-3.0-or-later
// Retrograde analysis of one balance: exact win/draw/loss with best play (no 50-move rule), using
// the already solved tables of the balances that captures and promotions lead to.
#pragma once

#include <functional>

#include "table/table.hpp"
#include "util/progress.hpp"

namespace egtmin {

// Hands the generator the finished table of a canonical balance, or nullptr when it is missing.
using TableLookup = std::function<const Table*(const Balance&)>;

// The canonical balances that captures and promotions from b lead to (b's direct dependencies).
std::vector<Balance> successor_balances(const Balance& b);

struct GenerateOptions {
  int threads = 0;  // 0: all hardware threads
};

// b must be canonical with at most 5 pieces, and every successor balance must be available.
Result<Table> generate(const Balance& b, const TableLookup& lookup, const GenerateOptions& opts = {},
                       const Progress& progress = no_progress());

}  // namespace egtmin
