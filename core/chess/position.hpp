// SPDX-License-Identifier: GPL-3.0-or-later
// A chess position without castling rights (endgame tables never have them): board, side to move
// and en-passant square. Cheap to copy; moves are applied by copy-make.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "chess/move.hpp"
#include "chess/types.hpp"
#include "util/result.hpp"

namespace egtmin {

// Syzygy's largest tables have 7 pieces; positions beyond that cannot be probed by anything here.
constexpr int kMaxPieces = 7;

class Position {
 public:
  Position() { board_.fill(NoPiece); }

  // Parses and validates a FEN; the error names the first problem found. The halfmove and fullmove
  // fields are optional. Castling rights are refused: endgame tables have none. `max_pieces` is
  // raised only by callers that never reach a table (move-generation tests).
  static Result<Position> from_fen(std::string_view fen, int max_pieces = kMaxPieces);
  std::string fen() const;

  Piece at(Square s) const { return board_[s]; }
  Bitboard pieces() const { return by_color_[White] | by_color_[Black]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(Color c, PieceType t) const { return by_piece_[make_piece(c, t)]; }
  Bitboard pieces(Piece p) const { return by_piece_[p]; }
  // The count of every piece kind, 5 bits each (piece p at bit 5p): equal exactly for positions
  // of the same material. Kept up to date by put() and remove(), so that a table probe finds its
  // balance with one load instead of counting twelve bitboards (Stockfish keeps a material key for
  // the same reason). Positions with more than 31 pieces of one kind (never legal) alias.
  uint64_t material_key() const { return material_; }
  static constexpr uint64_t material_unit(Piece p) { return uint64_t{1} << (5 * p); }
  Color side_to_move() const { return stm_; }
  Square ep_square() const { return ep_; }
  int piece_count() const { return popcount(pieces()); }
  Square king(Color c) const {
    Bitboard k = pieces(c, King);
    return k ? lsb(k) : NoSquare;
  }

  // Editing, for the board editor and for building positions from table indices.
  void put(Square s, Piece p);
  void remove(Square s);
  void clear();
  void set_side_to_move(Color c) { stm_ = c; }
  void set_ep_square(Square s) { ep_ = s; }

  bool attacked_by(Square s, Color by) const;
  // The same with the board's occupancy `occ` and the attacker's pieces on `gone` left out (the
  // board as a move would leave it).
  bool attacked_by(Square s, Color by, Bitboard occ, Bitboard gone) const;
  // Whether the pseudo-legal move m leaves the mover's king out of check: after(m).in_check(us)
  // on bitboards alone, without building the position after it.
  bool keeps_king_safe(const Move& m) const;
  bool in_check(Color c) const {
    Square k = king(c);
    return k != NoSquare && attacked_by(k, ~c);
  }

  // Why this position cannot occur in a game (or in a table), or nothing when it is legal:
  // king counts, pawns on the first or last rank, the side not to move in check, an en-passant
  // square that no double push could have left, too many pieces.
  std::optional<std::string> illegal_reason(int max_pieces = kMaxPieces) const;

  // The position after a move from legal_moves(); no validation.
  Position after(const Move& m) const;
  bool is_capture(const Move& m) const { return m.en_passant || board_[m.to] != NoPiece; }

  // The same position with colours swapped and the board mirrored rank-wise (a1 <-> a8); the side
  // to move swaps too, so the value for the side to move is unchanged.
  Position color_flipped() const;

  friend bool operator==(const Position& a, const Position& b) {
    return a.board_ == b.board_ && a.stm_ == b.stm_ && a.ep_ == b.ep_;
  }

 private:
  std::array<Piece, 64> board_;
  std::array<Bitboard, 2> by_color_{};
  std::array<Bitboard, kPieces> by_piece_{};
  uint64_t material_ = 0;
  Color stm_ = White;
  Square ep_ = NoSquare;
};

MoveList legal_moves(const Position& pos);
// The legal moves that leave the balance: captures (en passant included) and promotions.
MoveList capture_and_promotion_moves(const Position& pos);

}  // namespace egtmin
