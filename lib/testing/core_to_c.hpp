// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin's own Position and Wdl in the C API's terms, for the programs that probe through the
// library and compare with the core (the library's tests and its benchmark).
#pragma once

#include "chess/position.hpp"
#include "egtmin/probe.h"
#include "table/wdl.hpp"

namespace egtmin::c_api {

inline egtmin_position to_c(const Position& pos) {
  egtmin_position p{};
  uint64_t* types[6] = {&p.kings, &p.queens, &p.rooks, &p.bishops, &p.knights, &p.pawns};
  for (int s = 0; s < 64; ++s) {
    const Piece pc = pos.at(Square(s));
    if (pc == NoPiece) continue;
    const uint64_t bit = uint64_t{1} << (s ^ 56);  // a8 = 0 here, a1 = 0 there
    (color_of(pc) == White ? p.white : p.black) |= bit;
    *types[type_of(pc)] |= bit;
  }
  p.white_to_move = pos.side_to_move() == White;
  p.ep = pos.ep_square() == NoSquare ? 0 : unsigned(pos.ep_square() ^ 56);
  return p;
}

inline int to_c(Wdl v) {
  switch (v) {
    case Wdl::Win: return EGTMIN_WIN;
    case Wdl::CursedWin: return EGTMIN_CURSED_WIN;
    case Wdl::Draw: return EGTMIN_DRAW;
    case Wdl::BlessedLoss: return EGTMIN_BLESSED_LOSS;
    case Wdl::Loss: return EGTMIN_LOSS;
    default: return EGTMIN_ERR_POSITION;
  }
}

}  // namespace egtmin::c_api
