// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/position.hpp"

#include <charconv>
#include <vector>

#include "chess/attacks.hpp"

namespace egtmin {

std::string uci(const Move& m) {
  std::string s = square_name(m.from) + square_name(m.to);
  if (m.promotion != NoPieceType) s += char(type_char(m.promotion) - 'A' + 'a');
  return s;
}

void Position::put(Square s, Piece p) {
  remove(s);
  board_[s] = p;
  by_color_[color_of(p)] |= bb(s);
  by_piece_[p] |= bb(s);
  material_ += material_unit(p);
}

void Position::remove(Square s) {
  Piece p = board_[s];
  if (p == NoPiece) return;
  by_color_[color_of(p)] &= ~bb(s);
  by_piece_[p] &= ~bb(s);
  material_ -= material_unit(p);
  board_[s] = NoPiece;
}

void Position::clear() { *this = Position(); }

bool Position::attacked_by(Square s, Color by) const { return attacked_by(s, by, pieces(), 0); }

bool Position::attacked_by(Square s, Color by, Bitboard occ, Bitboard gone) const {
  auto theirs = [&](PieceType t) { return pieces(by, t) & ~gone; };
  if ((kKnightAttacks[s] & theirs(Knight)) || (kKingAttacks[s] & theirs(King)) || (pawn_attacks(~by, s) & theirs(Pawn)))
    return true;
  // Only the sliders on a line through s can attack it, each when the squares between are empty.
  for (Bitboard sliders =
           (kRookLines[s] & (theirs(Rook) | theirs(Queen))) | (kBishopLines[s] & (theirs(Bishop) | theirs(Queen)));
       sliders;)
    if (!(kBetween[s][pop_lsb(sliders)] & occ)) return true;
  return false;
}

bool Position::keeps_king_safe(const Move& m) const {
  const Color us = stm_, them = ~stm_;
  const Bitboard from = bb(m.from), to = bb(m.to);
  const Bitboard captured = m.en_passant ? bb(Square(us == White ? m.to + 8 : m.to - 8)) : to & by_color_[them];
  const Bitboard occ = (pieces() & ~from & ~captured) | to;
  Bitboard kings = pieces(us, King);
  if (kings & from) kings = (kings & ~from) | to;
  if (!kings) return true;
  return !attacked_by(lsb(kings), them, occ, captured);
}

namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i <= s.size()) {
    size_t j = s.find(sep, i);
    if (j == std::string_view::npos) j = s.size();
    out.push_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

}  // namespace

Result<Position> Position::from_fen(std::string_view fen, int max_pieces) {
  // Fields are separated by runs of spaces; leading/trailing blanks are ignored.
  std::vector<std::string_view> fields;
  for (size_t i = 0; i < fen.size();) {
    while (i < fen.size() && (fen[i] == ' ' || fen[i] == '\t' || fen[i] == '\n' || fen[i] == '\r')) ++i;
    size_t j = i;
    while (j < fen.size() && !(fen[j] == ' ' || fen[j] == '\t' || fen[j] == '\n' || fen[j] == '\r')) ++j;
    if (j > i) fields.push_back(fen.substr(i, j - i));
    i = j;
  }
  if (fields.size() < 2 || fields.size() > 6)
    return Error{"FEN has " + std::to_string(fields.size()) +
                 " fields; expected 2 to 6 (placement, side to move, castling, en passant, halfmove, fullmove)"};

  Position pos;
  auto ranks = split(fields[0], '/');
  if (ranks.size() != 8) return Error{"FEN placement has " + std::to_string(ranks.size()) + " ranks; expected 8"};
  for (int row = 0; row < 8; ++row) {
    int file = 0;
    for (char c : ranks[row]) {
      if (c >= '1' && c <= '8') {
        file += c - '0';
      } else {
        Piece p = piece_from_char(c);
        if (p == NoPiece)
          return Error{std::string("FEN placement has an unknown piece letter '") + c + "' on rank " +
                       std::to_string(8 - row)};
        if (file < 8) pos.put(Square(row * 8 + file), p);
        ++file;
      }
      if (file > 8) break;
    }
    if (file != 8)
      return Error{"FEN rank " + std::to_string(8 - row) + " (\"" + std::string(ranks[row]) + "\") describes " +
                   (file > 8 ? "more than 8" : std::to_string(file)) + " squares; expected 8"};
  }

  if (fields[1] == "w")
    pos.stm_ = White;
  else if (fields[1] == "b")
    pos.stm_ = Black;
  else
    return Error{"FEN side to move is \"" + std::string(fields[1]) + "\"; expected 'w' or 'b'"};

  if (fields.size() > 2 && fields[2] != "-") {
    for (char c : fields[2])
      if (std::string_view("KQkqABCDEFGHabcdefgh").find(c) == std::string_view::npos)
        return Error{"FEN castling field \"" + std::string(fields[2]) + "\" is malformed"};
    return Error{"FEN has castling rights (\"" + std::string(fields[2]) +
                 "\"): endgame tables cover only positions without castling; use '-'"};
  }

  if (fields.size() > 3 && fields[3] != "-") {
    Square ep = parse_square(fields[3]);
    if (ep == NoSquare) return Error{"FEN en-passant field \"" + std::string(fields[3]) + "\" is not a square"};
    pos.ep_ = ep;
  }
  for (size_t i = 4; i < fields.size(); ++i) {
    int n = 0;
    auto [p, ec] = std::from_chars(fields[i].data(), fields[i].data() + fields[i].size(), n);
    if (ec != std::errc() || p != fields[i].data() + fields[i].size() || n < 0)
      return Error{std::string(i == 4 ? "FEN halfmove clock" : "FEN fullmove number") + " \"" + std::string(fields[i]) +
                   "\" is not a non-negative number"};
  }

  if (auto why = pos.illegal_reason(max_pieces)) return Error{"illegal position: " + *why};
  return pos;
}

std::string Position::fen() const {
  std::string s;
  for (int row = 0; row < 8; ++row) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      Piece p = board_[row * 8 + file];
      if (p == NoPiece) {
        ++empty;
        continue;
      }
      if (empty) s += char('0' + empty);
      empty = 0;
      s += piece_char(p);
    }
    if (empty) s += char('0' + empty);
    if (row < 7) s += '/';
  }
  s += stm_ == White ? " w - " : " b - ";
  s += square_name(ep_);
  s += " 0 1";
  return s;
}

std::optional<std::string> Position::illegal_reason(int max_pieces) const {
  for (Color c : {White, Black}) {
    int n = popcount(pieces(c, King));
    if (n != 1)
      return std::string(c == White ? "White" : "Black") + " has " + std::to_string(n) +
             " kings; each side needs exactly one";
  }
  if (piece_count() > max_pieces)
    return "more pieces than supported (" + std::to_string(piece_count()) + " > " + std::to_string(max_pieces) + ")";
  if ((pieces(White, Pawn) | pieces(Black, Pawn)) & kPromotionRanks)
    return "a pawn stands on " + square_name(lsb((pieces(White, Pawn) | pieces(Black, Pawn)) & kPromotionRanks)) +
           "; pawns cannot be on rank 1 or 8";
  if (in_check(~stm_)) return std::string(stm_ == White ? "Black" : "White") + " (not to move) is in check";
  if (ep_ != NoSquare) {
    // After a double push by the side not to move, the skipped square is empty and the pushed
    // pawn stands just beyond it.
    int want_rank = stm_ == White ? 5 : 2;  // rank 6 or rank 3, 0-based
    Square pawn = Square(stm_ == White ? ep_ + 8 : ep_ - 8);
    Square origin = Square(stm_ == White ? ep_ - 8 : ep_ + 8);
    if (rank_of(ep_) != want_rank)
      return "en-passant square " + square_name(ep_) + " must be on rank " + (stm_ == White ? "6" : "3") + " with " +
             (stm_ == White ? "White" : "Black") + " to move";
    if (board_[pawn] != make_piece(~stm_, Pawn))
      return "en-passant square " + square_name(ep_) + " has no " + (stm_ == White ? "black" : "white") +
             " pawn in front of it on " + square_name(pawn);
    if (board_[ep_] != NoPiece || board_[origin] != NoPiece)
      return "en-passant square " + square_name(ep_) + " is inconsistent: " + square_name(ep_) + " and " +
             square_name(origin) + " must be empty after a double push";
  }
  return std::nullopt;
}

Position Position::after(const Move& m) const {
  Position p = *this;
  Piece moving = board_[m.from];
  p.remove(m.from);
  if (m.en_passant) p.remove(Square(stm_ == White ? m.to + 8 : m.to - 8));
  p.put(m.to, m.promotion != NoPieceType ? make_piece(stm_, m.promotion) : moving);
  p.ep_ = NoSquare;
  if (type_of(moving) == Pawn && (m.from ^ m.to) == 16) p.ep_ = Square((m.from + m.to) / 2);
  p.stm_ = ~stm_;
  return p;
}

Position Position::color_flipped() const {
  Position p;
  for (int s = 0; s < 64; ++s)
    if (board_[s] != NoPiece) p.put(flip_rank(Square(s)), make_piece(~color_of(board_[s]), type_of(board_[s])));
  p.stm_ = ~stm_;
  p.ep_ = ep_ == NoSquare ? NoSquare : flip_rank(ep_);
  return p;
}

namespace {

// The legal moves, or (captures_only) those that leave the balance: captures, en passant and
// promotions, which a capture-resolved probe searches.
MoveList generate_moves(const Position& pos, bool captures_only) {
  MoveList pseudo;
  Color us = pos.side_to_move();
  Bitboard own = pos.pieces(us), occ = pos.pieces(), enemy = pos.pieces(~us);
  for (Bitboard b = own; b;) {
    Square from = pop_lsb(b);
    PieceType t = type_of(pos.at(from));
    if (t == Pawn) {
      int fwd = us == White ? -8 : 8;
      Square one = Square(from + fwd);
      auto add = [&](Square to) {
        if (bb(to) & kPromotionRanks)
          for (PieceType pr : {Queen, Rook, Bishop, Knight}) pseudo.push({from, to, pr, false});
        else
          pseudo.push({from, to});
      };
      if (!(occ & bb(one)) && (!captures_only || (bb(one) & kPromotionRanks))) {
        add(one);
        int start_row = us == White ? 6 : 1;
        Square two = Square(from + 2 * fwd);
        if (!captures_only && row_of(from) == start_row && !(occ & bb(two))) pseudo.push({from, two});
      }
      for (Bitboard a = pawn_attacks(us, from) & enemy; a;) add(pop_lsb(a));
      if (pos.ep_square() != NoSquare && (pawn_attacks(us, from) & bb(pos.ep_square())))
        pseudo.push({from, pos.ep_square(), NoPieceType, true});
    } else {
      for (Bitboard a = attacks(t, us, from, occ) & (captures_only ? enemy : ~own); a;) pseudo.push({from, pop_lsb(a)});
    }
  }
  // Nothing to test: the check test below would be wasted (a capture-resolved probe searches
  // every position it is asked, with a capture or not).
  if (pseudo.empty()) return pseudo;
  // Out of check, a move of a piece on no line through its king cannot expose the king: only king
  // moves, en passant (which also takes a pawn off a line) and moves from those lines are tested.
  const Bitboard king = pos.pieces(us, King);
  Bitboard tested = ~Bitboard{0};
  if (king && !pos.attacked_by(lsb(king), ~us)) tested = king | kRookLines[lsb(king)] | kBishopLines[lsb(king)];
  pseudo.keep_if([&](const Move& m) { return (!m.en_passant && !(bb(m.from) & tested)) || pos.keeps_king_safe(m); });
  return pseudo;
}

}  // namespace

MoveList legal_moves(const Position& pos) { return generate_moves(pos, false); }

MoveList capture_and_promotion_moves(const Position& pos) { return generate_moves(pos, true); }

}  // namespace egtmin
