// SPDX-License-Identifier: GPL-3.0-or-later
// Capture-resolved don't-cares: a won position whose win a capture or promotion already reaches
// need not be stored, because a probe first searches those moves one ply deep (into the smaller
// balances' tables or covers) and stops at the first that wins. Syzygy's WDL files leave such
// positions to the probe the same way; here they become don't-cares for the minimizer, so the
// cover may give them any value and only the probe's capture search makes them exact.
//
// The rule, for the side to move: a position is left to the search when its value is a win (not
// a cursed win: the rule's values are kept) and some capture or promotion leads to a position the
// opponent loses (not a blessed loss). Every other position keeps its value: the probe answers
// win when a capture or promotion wins, else what the cover says, which is exact wherever a
// capture does not win. (A position whose value a capture reaches short of a win, a draw by
// capture for instance, stays stored: that partial case needs the cover to hold "draw or worse",
// which the passes do not model.)
#pragma once

#include <cstdint>
#include <functional>

#include "chess/position.hpp"
#include "table/generator.hpp"
#include "table/table.hpp"
#include "util/progress.hpp"
#include "util/result.hpp"

namespace egtmin {

// The value for the side to move of a position after a capture or promotion (a position of
// another balance), Illegal when it cannot be had.
using SuccessorValue = std::function<Wdl(const Position&)>;

// Does a capture or promotion win for the side to move (lead to a plain loss for the opponent)?
// Captures are tried before quiet promotions; the search stops at the first win.
bool capture_wins(const Position& pos, const SuccessorValue& value);

struct CaptureResolution {
  Table table;             // the table with the positions left to the search set to Illegal
  uint64_t positions = 0;  // canonical legal positions of the table
  uint64_t resolved = 0;   // of them, left to the capture search
};

// Leaves every canonical won position with a winning capture or promotion to the search. The
// tables of the balances captures and promotions reach come from `lookup`; an error names a
// missing one.
Result<CaptureResolution> resolve_captures(const Table& table, const TableLookup& lookup, int threads = 0,
                                           const Progress& progress = no_progress());

}  // namespace egtmin
