// SPDX-License-Identifier: GPL-3.0-or-later
// The paper's position encoding: one side-to-move bit (1 = Black to move), then one 6-bit square
// per piece in the order White K Q R B N P, then Black K Q R B N P. Read as a binary number with
// the side-to-move bit first, that string is a position's index in its balance's table.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "chess/balance.hpp"
#include "chess/position.hpp"

namespace egtmin {

constexpr int kMaxTablePieces = 6;  // the encoding fits 37 bits; the generator goes to 5

// A position as the tables see it: side to move and one square per piece, in encoding order.
struct Placement {
  Color stm = White;
  std::array<Square, kMaxTablePieces> sq{};
  // Eight bytes in all: returned and copied as one register. At seven, GCC assembles the return
  // value through the stack byte by byte, and the loads that follow stall on store forwarding.
  uint8_t unused = 0;
};
static_assert(sizeof(Placement) == 8);

class Encoding {
 public:
  Encoding() = default;
  explicit Encoding(const Balance& b);

  const Balance& balance() const { return balance_; }
  int pieces() const { return k_; }
  int bits() const { return 1 + 6 * k_; }
  uint64_t size() const { return uint64_t{1} << bits(); }
  Piece piece(int i) const { return order_[i]; }

  uint64_t encode(const Placement& p) const {
    uint64_t idx = p.stm;
    for (int i = 0; i < k_; ++i) idx = (idx << 6) | p.sq[i];
    return idx;
  }
  Placement decode(uint64_t idx) const {
    Placement p;
    for (int i = k_ - 1; i >= 0; --i, idx >>= 6) p.sq[i] = Square(idx & 63);
    p.stm = Color(idx & 1);
    return p;
  }

  // The placement of a position of exactly this balance (identical pieces in ascending square
  // order); nothing when the material differs. The en-passant square is not part of the encoding.
  std::optional<Placement> placement(const Position& pos) const;
  // The same without the material check, for a position known to be of this balance (a quiet
  // move's successor): the check counts every piece, which hot loops over moves cannot afford.
  Placement placement_of_own(const Position& pos) const;
  Position position(const Placement& p) const;

  // Legal in the tables' sense: no two pieces on a square, no pawn on rank 1 or 8, the side not
  // to move not in check. Everything else is a don't-care.
  bool is_legal(const Placement& p) const;

 private:
  Balance balance_;
  int k_ = 0;
  std::array<Piece, kMaxTablePieces> order_{};
};

}  // namespace egtmin
