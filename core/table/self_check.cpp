// SPDX-License-Identifier: GPL-3.0-or-later
#include "table/self_check.hpp"

#include <algorithm>
#include <climits>

#include "table/successor_tables.hpp"
#include "util/parallel.hpp"

namespace egtmin {

namespace {

constexpr int kMaxExamples = 5;

class Checker {
 public:
  Checker(const Table& table, const TableLookup& lookup, std::span<const uint8_t> distances)
      : own_(table),
        own_key_(table.balance().material_key()),
        successors_(table.balance(), lookup),
        distances_(distances) {}

  // Checks one canonical legal placement at `slot`; returns an empty string or why it fails.
  std::string check(const Placement& p, uint64_t slot) const;

 private:
  // The value for the side to move of a position of this table or of a successor balance,
  // en-passant rights included (as one more option for the side to move). Illegal when its table
  // is missing.
  Wdl value_stm(const Position& pos) const;
  // The slot after a move that keeps the material (no capture, no promotion) from canonical
  // placement pl at `slot`: the moved piece's square changed, the other side to move. Built from
  // the placement rather than from the position after the move (a copy of a 64-square board per
  // move), which gives the same slot.
  uint64_t own_slot(const Placement& pl, uint64_t slot, const Move& m) const {
    int moved = 0;
    while (pl.sq[size_t(moved)] != m.from) ++moved;
    return own_.symmetry().moved_slot(pl, slot, moved, m.to);
  }

  const Table& own_;
  uint64_t own_key_;  // the material key of this table's positions (a double push stays here)
  // Every move out of the table asks for a successor's table, found by the position's material key.
  SuccessorTables successors_;
  std::span<const uint8_t> distances_;
};

Wdl Checker::value_stm(const Position& pos) const {
  Wdl v;
  if (pos.material_key() == own_key_) {
    const Wdl white = own_.value(own_.encoding().placement_of_own(pos));
    v = pos.side_to_move() == White ? white : negate(white);
  } else {
    v = successors_.value_stm(pos);
  }
  if (v == Wdl::Illegal) return v;
  if (pos.ep_square() != NoSquare)
    for (const Move& m : legal_moves(pos))
      if (m.en_passant) v = better(v, negate(value_stm(pos.after(m))));
  return v;
}

std::string Checker::check(const Placement& pl, uint64_t slot) const {
  const Position pos = own_.encoding().position(pl);
  const Wdl white = own_.at_slot(slot);
  const Wdl stored = pos.side_to_move() == White ? white : negate(white);
  const bool exact_rule = !distances_.empty();
  const int stored_distance = exact_rule ? distances_[slot] : kNoRuleDistance;

  const MoveList moves = legal_moves(pos);
  Wdl best = Wdl::Illegal;
  bool zeroing_win = false, escape = false, quiet = false;
  int win_in = INT_MAX, loss_in = 0;  // plies to a result the rule keeps, when distances are known
  const Color them = ~pos.side_to_move();
  for (const Move& m : moves) {
    const bool capture = pos.is_capture(m);
    const bool pawn = type_of(pos.at(m.from)) == Pawn;
    const bool zeroing = capture || pawn;
    // A move that keeps the material and gives no en-passant right (Position::after gives one on
    // every double step) stays in this table: its slot, worked out from this position's, serves
    // the value and the distance (most moves; the general path builds the position after the move
    // and finds its table by material key).
    const bool own = !capture && m.promotion == NoPieceType && !(pawn && (m.from ^ m.to) == 16);
    const uint64_t own_at = own ? own_slot(pl, slot, m) : 0;
    const Wdl theirs =
        own ? (them == White ? own_.at_slot(own_at) : negate(own_.at_slot(own_at))) : value_stm(pos.after(m));
    if (theirs == Wdl::Illegal) return "the table of " + Balance::of(pos.after(m)).canonical().name() + " is missing";
    const Wdl mine = negate(theirs);
    best = better(best, mine);
    if (zeroing) {
      if (mine == Wdl::Win) zeroing_win = true, win_in = 1;
      if (mine != Wdl::Loss) escape = true;
      loss_in = std::max(loss_in, 1);
      continue;
    }
    quiet = true;
    // A quiet move never leaves the table (own is true).
    const int d = exact_rule ? distances_[own_at] : 0;
    if (theirs == Wdl::Loss) win_in = std::min(win_in, d + 1);
    if (theirs != Wdl::Win) escape = true;
    loss_in = std::max(loss_in, d + 1);
  }

  Wdl expected;
  int expected_distance = kNoRuleDistance;
  if (moves.empty()) {
    const bool mated = pos.in_check(pos.side_to_move());
    expected = mated ? Wdl::Loss : Wdl::Draw;
    if (mated) expected_distance = 0;
  } else if (exact_rule || !quiet) {
    // Exact: with no quiet move, the rule's values follow from the zeroing moves alone.
    if (!exact_rule) win_in = zeroing_win ? 1 : INT_MAX;
    if (win_in <= kRuleLimitPlies) {
      expected = Wdl::Win, expected_distance = win_in;
    } else if (!escape && loss_in <= kRuleLimitPlies) {
      expected = Wdl::Loss, expected_distance = loss_in;
    } else {
      const Wdl plain = fold(best);
      expected = plain == Wdl::Win ? Wdl::CursedWin : plain == Wdl::Loss ? Wdl::BlessedLoss : Wdl::Draw;
    }
  } else {
    // One ply without distances: exact without the rule, necessary conditions with it.
    if (fold(stored) != fold(best))
      return "stored " + std::string(name_of(stored)) + ", but the best move gives " + std::string(name_of(fold(best)));
    if (zeroing_win && stored != Wdl::Win)
      return "stored " + std::string(name_of(stored)) + ", but a capture or pawn move wins within the rule";
    if (stored == Wdl::Win && best != Wdl::Win) return "stored win, but no move reaches a loss within the rule";
    if (stored == Wdl::Loss && escape) return "stored loss, but a move escapes a loss within the rule";
    return {};
  }
  if (!exact_rule) expected_distance = stored_distance;
  if (stored == expected && stored_distance == expected_distance) return {};
  std::string why = "stored " + std::string(name_of(stored));
  if (exact_rule) why += " in " + std::to_string(stored_distance) + " plies";
  why += ", its moves give " + std::string(name_of(expected));
  if (exact_rule && expected_distance != kNoRuleDistance) why += " in " + std::to_string(expected_distance) + " plies";
  return why;
}

}  // namespace

SelfCheckReport self_check(const Table& table, const TableLookup& lookup, std::span<const uint8_t> distances,
                           const SelfCheckOptions& opts, const Progress& progress) {
  const Encoding& enc = table.encoding();
  const Symmetry& sym = table.symmetry();
  const uint64_t n = sym.domain_size();
  SelfCheckReport total;
  total.balance = table.balance().name();
  if (!distances.empty() && distances.size() != n) {
    total.failures = 1;
    total.examples.push_back("the distances do not belong to this table (" + std::to_string(distances.size()) +
                             " entries for " + std::to_string(n) + " slots)");
    return total;
  }
  total.exact_rule = !distances.empty();
  const uint64_t stride = std::max<uint64_t>(1, opts.stride);
  const Checker checker(table, lookup, distances);
  // Each worker's findings, added up in worker order at the end.
  const int threads = resolve_threads(opts.threads);
  std::vector<SelfCheckReport> found(static_cast<size_t>(threads));
  // Slots a worker takes at a time: large enough that the shared counter is rarely touched, small
  // enough that the threads finish together.
  constexpr uint64_t kChunk = uint64_t{1} << 14;
  parallel_for(n, threads, kChunk, progress, {Stage::SelfCheck, total.balance},
               [&](uint64_t b, uint64_t e, int worker) {
                 SelfCheckReport& r = found[size_t(worker)];
                 for (uint64_t s = (b + stride - 1) / stride * stride; s < e; s += stride) {
                   const Placement p = sym.from_slot(s);
                   if (!enc.is_legal(p) || !sym.is_canonical(p)) continue;
                   ++r.positions;
                   ++r.counts.by_code[size_t(table.at_slot(s))];
                   std::string why = checker.check(p, s);
                   if (why.empty()) continue;
                   ++r.failures;
                   if (int(r.examples.size()) < kMaxExamples) r.examples.push_back(enc.position(p).fen() + ": " + why);
                 }
               });
  for (SelfCheckReport& r : found) {
    total.positions += r.positions;
    total.failures += r.failures;
    total.counts += r.counts;
    for (auto& ex : r.examples)
      if (int(total.examples.size()) < kMaxExamples) total.examples.push_back(ex);
  }
  return total;
}

}  // namespace egtmin
