// SPDX-License-Identifier: GPL-3.0-or-later
// Small strong types for the board. Squares follow the paper's numbering: 0 = a8, 1 = b8, ...,
// 63 = h1, so a square's 6 bits are exactly its sextet in the position encoding.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

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
constexpr int file_of(Square s) { return s & 7; }         // 0 = file a
constexpr int row_of(Square s) { return s >> 3; }         // 0 = rank 8
constexpr int rank_of(Square s) { return 7 - (s >> 3); }  // 0 = rank 1
constexpr Square make_square(int file, int rank) { return Square((7 - rank) * 8 + file); }
constexpr bool is_ok(int s) { return s >= 0 && s < 64; }

using Bitboard = uint64_t;
constexpr Bitboard bb(Square s) { return Bitboard{1} << s; }

inline int popcount(Bitboard b) { return __builtin_popcountll(b); }
inline Square lsb(Bitboard b) { return Square(__builtin_ctzll(b)); }
inline Square msb(Bitboard b) { return Square(63 - __builtin_clzll(b)); }
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
