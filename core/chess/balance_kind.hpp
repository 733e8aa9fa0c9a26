// SPDX-License-Identifier: GPL-3.0-or-later
// The kind of a balance that the time to make it goes by: with pawns or without, and against a lone
// king or with material on each side.
//
// Why both: per table slot, a balance against a lone king is made in a fraction of the time of one
// with material on each side (its cover is far smaller), and at five pieces each pawnful kind holds
// 15 or 35 balances, so one rate for every pawnful balance misjudges either kind (KBPPvK, made
// alone, took 0.43x the per-slot time of KRPvKR and KRRvKP together).
#pragma once

#include <algorithm>
#include <compare>

#include "chess/balance.hpp"

namespace egtmin {

struct BalanceKind {
  bool pawns = false;
  bool lone_king = false;  // the side with fewer pieces has its king only
  static BalanceKind of(const Balance& b) { return {b.has_pawns(), std::min(b.pieces(White), b.pieces(Black)) == 1}; }
  friend bool operator==(const BalanceKind&, const BalanceKind&) = default;
  friend auto operator<=>(const BalanceKind&, const BalanceKind&) = default;
};

}  // namespace egtmin
