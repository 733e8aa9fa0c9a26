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

// Fixed capacity, no heap: 218 is the most legal moves any chess position has.
class MoveList {
 public:
  void push(const Move& m) { moves_[size_++] = m; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Move& operator[](std::size_t i) const { return moves_[i]; }
  const Move* begin() const { return moves_.data(); }
  const Move* end() const { return moves_.data() + size_; }

 private:
  std::array<Move, 256> moves_{};
  std::size_t size_ = 0;
};

}  // namespace egtmin
