// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "chess/types.hpp"

namespace egtmin {

struct Move {
  Square from = NoSquare;
  Square to = NoSquare;
  PieceType promotion = NoPieceType;  // Queen, Rook, Bishop or Knight when promoting
  bool en_passant = false;

  friend bool operator==(const Move&, const Move&) = default;
};

// "e7e8q" style.
std::string uci(const Move& m);

// Fixed capacity, no heap: 218 is the most legal moves any chess position has. The storage is
// left unconstructed (only push() writes a move): a capture-resolved probe makes a list for every
// position it searches, and constructing 256 moves each time cost more than finding the captures.
class MoveList {
 public:
  MoveList() {}
  void push(const Move& m) { moves_[size_++] = m; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Move& operator[](std::size_t i) const { return moves_[i]; }
  const Move* begin() const { return moves_.data(); }
  const Move* end() const { return moves_.data() + size_; }
  // Keeps the moves for which keep(move) holds, in order.
  template <class Pred>
  void keep_if(Pred keep) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < size_; ++i)
      if (keep(moves_[i])) moves_[n++] = moves_[i];
    size_ = n;
  }

 private:
  union {
    std::array<Move, 256> moves_;
  };
  std::size_t size_ = 0;
};

}  // namespace egtmin
