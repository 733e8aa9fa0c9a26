// SPDX-License-Identifier: GPL-3.0-or-later
#include "table/encoding.hpp"

#include "chess/attacks.hpp"

namespace egtmin {

Encoding::Encoding(const Balance& b) : balance_(b) {
  auto order = b.piece_order();
  k_ = int(order.size());
  for (int i = 0; i < k_ && i < kMaxTablePieces; ++i) order_[i] = order[i];
}

std::optional<Placement> Encoding::placement(const Position& pos) const {
  if (Balance::of(pos) != balance_) return std::nullopt;
  return placement_of_own(pos);
}

Placement Encoding::placement_of_own(const Position& pos) const {
  // Slot by slot in encoding order (the pieces' order, identical ones adjacent): the loop has
  // the same shape for every position of the balance, so its branches predict.
  Placement p;
  p.stm = pos.side_to_move();
  Bitboard b = 0;
  for (int i = 0; i < k_; ++i) {
    if (i == 0 || order_[i] != order_[i - 1]) b = pos.pieces(order_[i]);
    p.sq[i] = pop_lsb(b);
  }
  return p;
}

Position Encoding::position(const Placement& p) const {
  Position pos;
  for (int i = 0; i < k_; ++i) pos.put(p.sq[i], order_[i]);
  pos.set_side_to_move(p.stm);
  return pos;
}

bool Encoding::is_legal(const Placement& p) const {
  Bitboard occ = 0;
  for (int i = 0; i < k_; ++i) {
    if (occ & bb(p.sq[i])) return false;
    occ |= bb(p.sq[i]);
    if (type_of(order_[i]) == Pawn && (bb(p.sq[i]) & kPromotionRanks)) return false;
  }
  // The side not to move must not be in check: does any piece of stm attack that king?
  Color them = ~p.stm;
  Square king = NoSquare;
  for (int i = 0; i < k_; ++i)
    if (order_[i] == make_piece(them, King)) king = p.sq[i];
  for (int i = 0; i < k_; ++i) {
    Piece pc = order_[i];
    if (color_of(pc) != p.stm) continue;
    if (attacks_square(type_of(pc), p.stm, p.sq[i], king, occ)) return false;
  }
  return true;
}

}  // namespace egtmin
