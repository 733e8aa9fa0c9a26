// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/types.hpp"

namespace egtmin {

namespace {
constexpr std::string_view kPieceChars = "KQRBNPkqrbnp";
}

std::string square_name(Square s) {
  if (!is_ok(s)) return "-";
  return {char('a' + file_of(s)), char('1' + rank_of(s))};
}

Square parse_square(std::string_view text) {
  if (text.size() != 2) return NoSquare;
  int f = text[0] - 'a', r = text[1] - '1';
  if (f < 0 || f > 7 || r < 0 || r > 7) return NoSquare;
  return make_square(f, r);
}

char piece_char(Piece p) { return p < kPieces ? kPieceChars[p] : '.'; }

Piece piece_from_char(char c) {
  auto i = kPieceChars.find(c);
  return i == std::string_view::npos ? NoPiece : Piece(i);
}

char type_char(PieceType t) { return t < NoPieceType ? kPieceChars[t] : '?'; }

}  // namespace egtmin
