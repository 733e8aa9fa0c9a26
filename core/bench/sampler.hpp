// SPDX-License-Identifier: GPL-3.0-or-later
// The paper's random positions (section 3.4): a white king on any of 64 squares, a black king on
// any of 64, each further piece a random non-king of random colour on any of 64 squares, a random
// side to move; candidates that are not legal are discarded by the caller's loop. Samples are
// 14-byte records so ten million fit in memory and every method probes the very same positions.
#pragma once

#include <cstdint>
#include <random>

#include "chess/position.hpp"

namespace egtmin::bench {

struct Sample {
  uint8_t n = 0;    // pieces
  uint8_t stm = 0;  // Color
  uint8_t piece[6] = {};
  uint8_t sq[6] = {};
};

inline Position to_position(const Sample& s) {
  Position pos;
  for (int i = 0; i < s.n; ++i) pos.put(Square(s.sq[i]), Piece(s.piece[i]));
  pos.set_side_to_move(Color(s.stm));
  return pos;
}

class PaperSampler {
 public:
  PaperSampler(int pieces, uint64_t seed) : pieces_(pieces), rng_(seed) {}

  // One candidate; false when two pieces share a square or the position is illegal.
  bool next(Sample& s) {
    s.n = uint8_t(pieces_);
    uint64_t occupied = 0;
    bool ok = true;
    for (int i = 0; i < pieces_; ++i) {
      Piece p;
      if (i == 0)
        p = make_piece(White, King);
      else if (i == 1)
        p = make_piece(Black, King);
      else
        p = make_piece(Color(rng_() & 1), PieceType(1 + rng_() % 5));  // Q R B N P
      const unsigned sq = unsigned(rng_() & 63);
      if (occupied >> sq & 1) ok = false;
      occupied |= uint64_t{1} << sq;
      s.piece[i] = p;
      s.sq[i] = uint8_t(sq);
    }
    s.stm = uint8_t(rng_() & 1);
    return ok && !to_position(s).illegal_reason();
  }

 private:
  int pieces_;
  std::mt19937_64 rng_;
};

}  // namespace egtmin::bench
