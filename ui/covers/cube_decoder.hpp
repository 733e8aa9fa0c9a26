// SPDX-License-Identifier: GPL-3.0-or-later
// Reads a PCN cube (logic/cube.hpp) of a balance back as chess: the side to move it allows and,
// per piece, the set of squares it may occupy, with a short description such as
// "files a-d, ranks 5-8". Only presentation; the layout itself comes from core's helpers.
#pragma once

#include <QString>
#include <vector>

#include "chess/balance.hpp"
#include "logic/cube.hpp"
#include "table/encoding.hpp"

namespace egtmin::ui {

class CubeDecoder {
 public:
  CubeDecoder() = default;
  explicit CubeDecoder(const Balance& b);

  const Balance& balance() const { return balance_; }
  const std::vector<Piece>& pieces() const { return pieces_; }
  int inputs() const { return inputs_for(int(pieces_.size())); }

  // -1: input may be 0 only, 1: may be 1 only, 2: don't care, 0: empty.
  static int inputValue(logic::CubeWord c, int input);

  // 'w', 'b' or '-' (either side).
  QChar sideToMove(logic::CubeWord c) const;
  // Squares piece j (index into pieces()) may occupy; bit s = Square s (0 = a8).
  Bitboard squares(logic::CubeWord c, int j) const;
  // "e4", "anywhere", "files a-d, ranks 5-8", "file e, ranks 1,3,5,7" ...
  QString describe(logic::CubeWord c, int j) const;
  // "wK", "bR" ... the column label of piece j; identical pieces get a number ("wP1", "wP2").
  QString pieceLabel(int j) const { return pieceLabel(pieces_, j); }
  // The same for piece j of any list of pieces.
  static QString pieceLabel(const std::vector<Piece>& pieces, int j);
  static QString outputName(logic::Output o);

 private:
  Balance balance_;
  std::vector<Piece> pieces_;
};

}  // namespace egtmin::ui
