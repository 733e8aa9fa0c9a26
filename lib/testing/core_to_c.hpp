// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin's own Position and Wdl in the C API's terms, for the programs that probe through the
// library and compare with the core (the library's tests and its benchmark).
#pragma once

#include "chess/position.hpp"
#include "egtmin/probe.h"
#include "src/c_value.hpp"
#include "table/wdl.hpp"

namespace egtmin::c_api {

inline egtmin_position to_c(const Position& pos) {
  egtmin_position p{};
  uint64_t* types[6] = {&p.kings, &p.queens, &p.rooks, &p.bishops, &p.knights, &p.pawns};
  for (int s = 0; s < 64; ++s) {
    const Piece pc = pos.at(Square(s));
    if (pc == NoPiece) continue;
    const uint64_t bit = uint64_t{1} << to_a1_index(Square(s));
    (color_of(pc) == White ? p.white : p.black) |= bit;
    *types[type_of(pc)] |= bit;
  }
  p.white_to_move = pos.side_to_move() == White;
  p.ep = pos.ep_square() == NoSquare ? 0 : to_a1_index(pos.ep_square());
  return p;
}

inline int to_c(Wdl v) { return capi::c_value(v); }

}  // namespace egtmin::c_api
