// SPDX-License-Identifier: GPL-3.0-or-later
// Capture-resolved don't-cares: a position whose value a capture or promotion already reaches
// need not be stored exactly, because the probe also searches those moves one ply deep (into the
// smaller balances' tables or covers) and answers the better of what the search and the cover
// give. Syzygy's WDL files leave such positions to the probe the same way.
//
// The rule, for the side to move, with c the best value a capture or promotion reaches and v the
// position's value (always v >= c; loss < blessed loss < draw < cursed win < win):
// - c < v: the cover must give v (the search alone falls short).
// - c = v: any stored value s <= v gives max(c, s) = v. So a win a capture reaches is a full
//   don't-care; a draw or cursed win a capture reaches may be stored as anything but the side to
//   move's win ("at most a draw": the cover's outputs are win/draw/loss, so "at most a cursed win"
//   is not expressible and the draw-or-worse set is what is left); a blessed loss a capture
//   reaches may drop its 50-move flag (stored as a plain loss).
// The probe therefore reads the cover first, returns a win at once, and otherwise returns the
// better of the cover's value and the capture search's (which stops at the first win).
#pragma once

#include <cstddef>
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

// The best value a capture or promotion gives the side to move (Illegal when it has none).
// Captures are tried before quiet promotions; the search stops at the first win.
Wdl capture_value(const Position& pos, const SuccessorValue& value);

// The positions a probe answers by searching all their moves: the side to move in check, and no
// move of it giving check in turn (so no child is such a position, and the search is one ply
// deep). A layout's regions may leave these to the search (RegionFreedom::evasions). Why: checks
// break the patterns a region's cubes follow (a piece that blocks, a king with few squares), and
// a region spent many cubes on them, while a position in check has few moves (docs/measured.md).
// The value for the side to move: the best its moves give, each child's value for its own side to
// move from `value` (a position of this balance or of one a capture or promotion leads to);
// Illegal when `pos` is not such a position, or a child has no value. Checkmate is a loss.
// En-passant captures are left out: covers hold positions without en-passant rights, and the
// probe adds the capture after, as for any other position. A position with more than
// kMaxEvasionChildren moves is not one the search decides (none with 5 pieces comes near).
// `fetch`, when given, sees every child before any is valued: a prober starts there the reads
// from memory its probes of them will wait for, so that those waits overlap instead of following
// one another (CoverProber::prefetch).
using ChildFetch = std::function<void(const Position&)>;
inline constexpr size_t kMaxEvasionChildren = 64;
Wdl evasion_value(const Position& pos, const SuccessorValue& value, const ChildFetch& fetch = nullptr);

// Which of the rule's cases a resolution uses: only the wins a capture reaches (the full
// don't-cares), or every value a capture reaches (the partial ones too). An "at most a draw"
// position need not be held by any stored cube, so the partial cases need a cover whose implied
// output such positions allow (the draw always is); a cover storing every output uses WinsOnly.
enum class CaptureRule : uint8_t { WinsOnly, ValueReached };

struct CaptureResolution {
  // The table with the full don't-cares and the "at most a draw" positions set to Illegal, and
  // the blessed losses a capture reaches set to plain losses.
  Table table;
  // One bit per slot of the table: the positions the cover may give a draw or worse for the side
  // to move (Illegal in `table`; empty under CaptureRule::WinsOnly).
  std::vector<uint64_t> at_most_draw;
  uint64_t positions = 0;    // canonical legal positions of the table
  uint64_t resolved = 0;     // of them, full don't-cares (a win a capture reaches)
  uint64_t draw_capped = 0;  // "at most a draw" (a draw or cursed win a capture reaches)
  uint64_t unflagged = 0;    // blessed losses a capture reaches, stored as losses

  bool at_most_draw_slot(uint64_t slot) const {
    return !at_most_draw.empty() && (at_most_draw[slot >> 6] >> (slot & 63) & 1);
  }
};

// Applies the rule to every canonical legal position. The tables of the balances captures and
// promotions reach come from `lookup`; an error names a missing one. Runs on `threads` workers
// (0: default_threads()).
Result<CaptureResolution> resolve_captures(const Table& table, const TableLookup& lookup, int threads = 0,
                                           const Progress& progress = no_progress(),
                                           CaptureRule rule = CaptureRule::ValueReached);

}  // namespace egtmin
