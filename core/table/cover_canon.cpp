// SPDX-License-Identifier: GPL-3.0-or-later
#include "table/cover_canon.hpp"

namespace egtmin {

std::string_view canon_name(CanonScheme s) {
  switch (s) {
    case CanonScheme::None: return "none";
    case CanonScheme::Board: return "board";
    case CanonScheme::Full: return "full";
  }
  return "?";
}

Result<CanonScheme> parse_canon(std::string_view name) {
  if (name == "none") return CanonScheme::None;
  if (name == "board") return CanonScheme::Board;
  if (name == "full") return CanonScheme::Full;
  return Error{"unknown canonicalization \"" + std::string(name) + "\" (use none, board or full)"};
}

CoverCanon::CoverCanon(const Encoding& enc, CanonScheme scheme)
    : enc_(enc),
      sym_(enc),
      scheme_(scheme),
      swap_colors_(scheme == CanonScheme::Full && enc.balance().is_symmetric()),
      half_(enc.pieces() / 2) {}

Placement CoverCanon::color_swapped(const Placement& p) const {
  // For a symmetric balance the encoding is [white pieces][black pieces] with the same piece
  // types in the same order on both halves, so swapping colours swaps the halves.
  Placement q;
  q.stm = ~p.stm;
  for (int i = 0; i < half_; ++i) {
    q.sq[i] = flip_rank(p.sq[half_ + i]);
    q.sq[half_ + i] = flip_rank(p.sq[i]);
  }
  return q;
}

}  // namespace egtmin
