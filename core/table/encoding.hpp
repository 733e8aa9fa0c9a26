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

// The encoding's numbers, named once. A placement's index holds the side to move above each
// slot's square (kSquareBits bits, slot 0 highest, the last slot lowest); a cube's inputs are
// that string read from its top: input 0 the side to move, then each slot's square, row first.
constexpr int inputs_for(int pieces) { return 1 + kSquareBits * pieces; }
// The first of slot `slot`'s inputs.
constexpr int square_input(int slot) { return 1 + kSquareBits * slot; }
// Where slot `slot`'s square sits in the index of a placement of `pieces` pieces.
constexpr int square_shift(int pieces, int slot) { return kSquareBits * (pieces - 1 - slot); }
// Where the side to move sits in that index.
constexpr int stm_shift(int pieces) { return kSquareBits * pieces; }

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
  int bits() const { return inputs_for(k_); }
  uint64_t size() const { return uint64_t{1} << bits(); }
  Piece piece(int i) const { return order_[i]; }

  uint64_t encode(const Placement& p) const {
    uint64_t idx = p.stm;
    for (int i = 0; i < k_; ++i) idx = (idx << kSquareBits) | p.sq[i];
    return idx;
  }
  Placement decode(uint64_t idx) const {
    Placement p;
    for (int i = k_ - 1; i >= 0; --i, idx >>= kSquareBits) p.sq[i] = Square(idx & kSquareMask);
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
