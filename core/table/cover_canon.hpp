// SPDX-License-Identifier: GPL-3.0-or-later
// Canonicalization for covers: which member of each symmetry class carries the value, so that
// every other member is a don't-care for the minimizer and is mapped to that member when probing.
//
// Schemes:
//   none   every legal position is a care position (the paper without canonicalization)
//   board  board symmetries + identical-piece order (Symmetry): the white king on files a-d, or in
//          the a8-d8-d5 triangle without pawns; identical pieces in ascending square order
//   full   board, plus the colour swap of balances whose sides have the same material (KQvKQ,
//          KPvKP): the representative has White to move, so the side-to-move bit is free
// The colour swap negates White's value; canonical() says when the caller must negate.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "table/symmetry.hpp"
#include "util/enum_names.hpp"
#include "util/result.hpp"

namespace egtmin {

enum class CanonScheme : uint8_t { None = 0, Board = 1, Full = 2 };
// As --canon, PLA headers and reports spell them (util/enum_names.hpp).
inline constexpr EnumName<CanonScheme> kCanonSchemeNames[] = {
    {CanonScheme::None, "none"}, {CanonScheme::Board, "board"}, {CanonScheme::Full, "full"}};
constexpr std::span<const EnumName<CanonScheme>> enum_names(CanonScheme) { return kCanonSchemeNames; }
// The scheme of that name; the error, shared by --canon and PLA headers, lists the valid ones.
Result<CanonScheme> parse_canon(std::string_view name);

class CoverCanon {
 public:
  CoverCanon() = default;
  CoverCanon(const Encoding& enc, CanonScheme scheme);

  CanonScheme scheme() const { return scheme_; }

  struct Representative {
    Placement placement;
    bool negate;  // White's value of the original = negate(White's value of the representative)
  };
  Representative canonical(const Placement& p) const {
    Representative r{p, false};
    if (scheme_ == CanonScheme::None) return r;
    if (swap_colors_ && p.stm == Black) {
      r.placement = color_swapped(p);
      r.negate = true;
    }
    r.placement = sym_.canonical(r.placement);
    return r;
  }
  // canonical(p) is not p's own board class: the colours are swapped first.
  bool swaps_colors(const Placement& p) const { return swap_colors_ && p.stm == Black; }
  bool is_representative(const Placement& p) const {
    if (scheme_ == CanonScheme::None) return true;
    if (swap_colors_ && p.stm == Black) return false;
    return sym_.is_canonical(p);
  }

 private:
  // Colours swapped and the board mirrored rank-wise; only for balances equal to their flip, where
  // the encoding order of the swapped pieces is the same.
  Placement color_swapped(const Placement& p) const;

  Encoding enc_;
  Symmetry sym_;
  CanonScheme scheme_ = CanonScheme::None;
  bool swap_colors_ = false;
  int half_ = 0;  // pieces per side
};

}  // namespace egtmin
