// SPDX-License-Identifier: GPL-3.0-or-later
// A position's value with best play under the 50-move rule, the five values of Syzygy's WDL
// files: win, cursed win (won, but not within 50 moves of the last capture or pawn move, so a
// draw by rule), draw, blessed loss (lost, but saved by the rule) and loss. Values are seen from
// White in tables and from the side to move where a function says so.
#pragma once

#include <cstdint>
#include <span>

#include "util/enum_names.hpp"

namespace egtmin {

// The codes of win, draw and loss are those of the covers' outputs (logic/cube.hpp), so a folded
// value converts to an output and back by its number.
enum class Wdl : uint8_t { Illegal = 0, Win = 1, Draw = 2, Loss = 3, CursedWin = 4, BlessedLoss = 5 };

constexpr int kWdlValues = 5;  // legal values, Illegal aside
constexpr int kWdlCodes = 6;   // codes 0-5, Illegal included

// The value for the other side.
constexpr Wdl negate(Wdl v) {
  switch (v) {
    case Wdl::Win: return Wdl::Loss;
    case Wdl::Loss: return Wdl::Win;
    case Wdl::CursedWin: return Wdl::BlessedLoss;
    case Wdl::BlessedLoss: return Wdl::CursedWin;
    default: return v;
  }
}

// Without the 50-move rule: a cursed win is a win, a blessed loss a loss.
constexpr Wdl fold(Wdl v) { return v == Wdl::CursedWin ? Wdl::Win : v == Wdl::BlessedLoss ? Wdl::Loss : v; }

// True for the two values the 50-move rule turns into draws.
constexpr bool is_rule_draw(Wdl v) { return v == Wdl::CursedWin || v == Wdl::BlessedLoss; }

// Order for the side to move: loss < blessed loss < draw < cursed win < win; Illegal is 0.
constexpr int wdl_rank(Wdl v) {
  switch (v) {
    case Wdl::Loss: return 1;
    case Wdl::BlessedLoss: return 2;
    case Wdl::Draw: return 3;
    case Wdl::CursedWin: return 4;
    case Wdl::Win: return 5;
    default: return 0;
  }
}
// The better of two values for the side to move (Illegal counts as nothing).
constexpr Wdl better(Wdl a, Wdl b) { return wdl_rank(a) >= wdl_rank(b) ? a : b; }

// Syzygy's numbering: -2 loss, -1 blessed loss, 0 draw, 1 cursed win, 2 win (side to move).
constexpr int wdl_score(Wdl v) { return wdl_rank(v) - 3; }

// As reports, JSON and the GUI spell them (util/enum_names.hpp).
inline constexpr EnumName<Wdl> kWdlNames[] = {{Wdl::Win, "win"},   {Wdl::CursedWin, "cursed win"},
                                              {Wdl::Draw, "draw"}, {Wdl::BlessedLoss, "blessed loss"},
                                              {Wdl::Loss, "loss"}, {Wdl::Illegal, "illegal"}};
constexpr std::span<const EnumName<Wdl>> enum_names(Wdl) { return kWdlNames; }
// One sentence on what the value means, for tooltips and help.
const char* wdl_meaning(Wdl v);

}  // namespace egtmin
