// SPDX-License-Identifier: GPL-3.0-or-later
#include "table/capture_resolve.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <new>
#include <vector>

#include "table/successor_tables.hpp"
#include "util/parallel.hpp"

namespace egtmin {

Wdl capture_value(const Position& pos, const SuccessorValue& value) {
  const MoveList moves = capture_and_promotion_moves(pos);
  Wdl best = Wdl::Illegal;
  // Captures first: they are most of the moves that leave the balance, and the cheapest to find.
  for (int pass = 0; pass < 2; ++pass)
    for (const Move& m : moves) {
      const bool capture = pos.is_capture(m);
      if (pass == 0 ? !capture : capture || m.promotion == NoPieceType) continue;
      const Wdl v = value(pos.after(m));
      if (v == Wdl::Illegal) continue;
      best = better(best, negate(v));
      if (best == Wdl::Win) return best;
    }
  return best;
}

Wdl evasion_value(const Position& pos, const SuccessorValue& value, const ChildFetch& fetch) {
  const Color us = pos.side_to_move();
  if (!pos.in_check(us)) return Wdl::Illegal;
  const MoveList moves = legal_moves(pos);
  if (moves.size() > kMaxEvasionChildren) return Wdl::Illegal;
  // Each child made once, for the test of check and for its probe. Left unconstructed, as in
  // MoveList: only the children made are written.
  union Children {
    Children() {}
    std::array<Position, kMaxEvasionChildren> at;
  } children;
  size_t n = 0;
  for (const Move& m : moves) {
    if (m.en_passant) continue;
    Position& child = children.at[n++];
    new (&child) Position(pos.after(m));
    if (child.in_check(~us)) return Wdl::Illegal;
  }
  if (fetch)
    for (size_t i = 0; i < n; ++i) fetch(children.at[i]);
  Wdl best = Wdl::Loss;  // checkmate when no move is left
  for (size_t i = 0; i < n; ++i) {
    const Wdl v = value(children.at[i]);
    if (v == Wdl::Illegal) return Wdl::Illegal;
    best = better(best, negate(v));
    if (best == Wdl::Win) break;
  }
  return best;
}

Result<CaptureResolution> resolve_captures(const Table& table, const TableLookup& lookup, int threads,
                                           const Progress& progress, CaptureRule rule) {
  // Every balance a capture or promotion reaches must be there before any work.
  const SuccessorTables successors(table.balance(), lookup);
  if (auto missing = successors.missing())
    return Error{"capture resolution of " + table.balance().name() + " needs the table of " + missing->name()};
  CaptureResolution out;
  out.table = table;
  const Encoding& enc = table.encoding();
  const Symmetry& sym = table.symmetry();
  const uint64_t slots = table.slots();
  auto successor = [&](const Position& after) { return successors.value_stm(after); };
  if (rule == CaptureRule::ValueReached) out.at_most_draw.assign((slots + 63) / 64, 0);
  // Chunks are whole words of the table's cells and of the bitmap, so workers never write the
  // same word.
  constexpr uint64_t kChunk = uint64_t{1} << 14;
  std::atomic<uint64_t> positions{0}, resolved{0}, capped{0}, unflagged{0};
  auto resolve_slots = [&](uint64_t begin, uint64_t end, int) {
    uint64_t n = 0, r = 0, d = 0, u = 0;
    for (uint64_t slot = begin; slot < end; ++slot) {
      const Wdl white = table.at_slot(slot);
      if (white == Wdl::Illegal) continue;
      ++n;
      const Placement p = sym.from_slot(slot);
      const Position pos = enc.position(p);
      const Wdl mine = pos.side_to_move() == White ? white : negate(white);
      // Losses gain nothing (stored as they are); under WinsOnly only wins are looked at.
      if (mine == Wdl::Loss || (rule == CaptureRule::WinsOnly && mine != Wdl::Win)) continue;
      if (capture_value(pos, successor) != mine) continue;
      if (mine == Wdl::Win) {
        out.table.set_slot(slot, Wdl::Illegal);
        ++r;
      } else if (mine == Wdl::BlessedLoss) {
        out.table.set_slot(slot, fold(white));
        ++u;
      } else {  // a draw or cursed win
        out.table.set_slot(slot, Wdl::Illegal);
        out.at_most_draw[slot >> 6] |= uint64_t{1} << (slot & 63);
        ++d;
      }
    }
    positions += n;
    resolved += r;
    capped += d;
    unflagged += u;
  };
  parallel_for(slots, threads, kChunk, progress, {Stage::CareSet, "capture resolution"}, resolve_slots);
  if (progress.cancelled()) return Error{"cancelled"};
  out.positions = positions;
  out.resolved = resolved;
  out.draw_capped = capped;
  out.unflagged = unflagged;
  return out;
}

}  // namespace egtmin
