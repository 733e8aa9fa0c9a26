// SPDX-License-Identifier: GPL-3.0-or-later
// A material balance such as KRPvKR: how many of each of the 12 pieces. Syzygy names each table
// once, stronger side first; the other colouring is probed with colours swapped.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "chess/position.hpp"
#include "chess/types.hpp"
#include "util/result.hpp"

namespace egtmin {

class Balance {
 public:
  Balance() = default;

  // "KRPvKR", "krpvkr", "KRP-KR" style names; each side needs exactly one king.
  static Result<Balance> parse(std::string_view name);
  static Balance of(const Position& pos);

  int count(Piece p) const { return count_[p]; }
  int count(Color c, PieceType t) const { return count_[make_piece(c, t)]; }
  int pieces() const;
  int pieces(Color c) const;
  bool has_pawns() const { return count(White, Pawn) + count(Black, Pawn) > 0; }
  // Position::material_key() of this colouring's positions.
  uint64_t material_key() const;

  // "KRPvKR" for exactly this colouring (White's side first).
  std::string name() const;
  // Syzygy's form: the stronger side as White. Ties (identical sides) are canonical as they are.
  bool is_canonical() const;
  Balance canonical() const { return is_canonical() ? *this : flipped(); }
  Balance flipped() const;
  // Both sides have the same material, so the colour swap maps the table onto itself.
  bool is_symmetric() const { return flipped() == *this; }

  // The pieces in encoding order (White K Q R B N P, then Black K Q R B N P), one entry per piece.
  std::vector<Piece> piece_order() const;

  // Every canonical balance with between 2 and n pieces, smallest first.
  static std::vector<Balance> all_up_to(int n);

  friend bool operator==(const Balance&, const Balance&) = default;
  friend auto operator<=>(const Balance& a, const Balance& b) { return a.count_ <=> b.count_; }

 private:
  std::array<uint8_t, kPieces> count_{};
};

// Whether egtmin generates, minimizes and probes b: kMinSupportedPieces to kMaxSupportedPieces
// pieces (util/defaults.hpp).
bool is_supported(const Balance& b);
// ok, or the error "KQRBNvK has 6 pieces; egtmin handles 2 to 5" for a balance it does not.
Status check_supported(const Balance& b);

}  // namespace egtmin
