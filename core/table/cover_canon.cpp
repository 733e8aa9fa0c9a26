// SPDX-License-Identifier: GPL-3.0-or-later
#include "table/cover_canon.hpp"

namespace egtmin {

Result<CanonScheme> parse_canon(std::string_view name) {
  if (const auto s = parse_enum<CanonScheme>(name)) return *s;
  return Error{"unknown canonicalization \"" + std::string(name) + "\" (use " + enum_names_text<CanonScheme>() + ")"};
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
