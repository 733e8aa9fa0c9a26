// SPDX-License-Identifier: GPL-3.0-or-later
// Small strong types for the board. Squares follow the paper's numbering: 0 = a8, 1 = b8, ...,
// 63 = h1, so a square's 6 bits are exactly its sextet in the position encoding.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "util/bits.hpp"

namespace egtmin {

enum Color : uint8_t { White = 0, Black = 1 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

// The paper's (and Syzygy's) piece order within a side: K Q R B N P.
enum PieceType : uint8_t { King = 0, Queen, Rook, Bishop, Knight, Pawn, NoPieceType };
constexpr int kPieceTypes = 6;

// Piece = colour * 6 + type, so the 12 pieces enumerate in the encoding's order
// (White K Q R B N P, then Black K Q R B N P).
enum Piece : uint8_t { NoPiece = 12 };
constexpr Piece make_piece(Color c, PieceType t) { return Piece(c * kPieceTypes + t); }
constexpr Color color_of(Piece p) { return Color(p / kPieceTypes); }
constexpr PieceType type_of(Piece p) { return PieceType(p % kPieceTypes); }
constexpr int kPieces = 12;

enum Square : uint8_t { NoSquare = 64 };
constexpr int kSquareBits = 6;  // a square's number: 3 bits of row, then 3 of file
constexpr unsigned kSquareMask = (1u << kSquareBits) - 1;
constexpr int file_of(Square s) { return s & 7; }         // 0 = file a
constexpr int row_of(Square s) { return s >> 3; }         // 0 = rank 8
constexpr int rank_of(Square s) { return 7 - (s >> 3); }  // 0 = rank 1
constexpr Square make_square(int file, int rank) { return Square((7 - rank) * 8 + file); }
constexpr bool is_ok(int s) { return s >= 0 && s < 64; }

// The board's mirrors as XOR masks on a square's number, for code that holds squares as plain
// integers: rows reversed (a8 <-> a1, the board of the colour swap) and files reversed (a8 <-> h8).
constexpr unsigned kFlipRank = 56;
constexpr unsigned kFlipFile = 7;
constexpr Square flip_rank(Square s) { return Square(s ^ kFlipRank); }
constexpr Square flip_file(Square s) { return Square(s ^ kFlipFile); }

// Engines, Fathom and the C API number squares from a1 = 0 (7 = h1, 63 = h8; bit s of their
// bitboards is square s), egtmin from a8 = 0. Files agree and ranks are mirrored, so one XOR
// converts either way; every crossing of that boundary goes through these two.
constexpr unsigned to_a1_index(Square s) { return unsigned(s) ^ kFlipRank; }
constexpr Square from_a1_index(unsigned s) { return Square(s ^ kFlipRank); }

using Bitboard = uint64_t;
constexpr Bitboard bb(Square s) { return Bitboard{1} << s; }

inline int popcount(Bitboard b) { return std::popcount(b); }
// The lowest and highest squares of a nonzero b.
inline Square lsb(Bitboard b) { return Square(lowest_bit(b)); }
inline Square msb(Bitboard b) { return Square(highest_bit(b)); }
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}

constexpr Bitboard kRank8 = 0xFFull;  // row 0
constexpr Bitboard kRank1 = 0xFFull << 56;
constexpr Bitboard kPromotionRanks = kRank1 | kRank8;

std::string square_name(Square s);
// "e4" -> square; NoSquare on anything else.
Square parse_square(std::string_view text);
char piece_char(Piece p);       // 'K' .. 'p'
Piece piece_from_char(char c);  // NoPiece when not a piece letter
char type_char(PieceType t);    // 'K','Q','R','B','N','P'

}  // namespace egtmin
