// SPDX-License-Identifier: GPL-3.0-or-later
// What the probe panel shows for one position: our value and Syzygy's for the position and for
// every legal move. Plain data, computed off the GUI thread by ProbeEngine.
#pragma once

#include <QString>
#include <optional>
#include <vector>

#include "chess/balance.hpp"
#include "chess/move.hpp"
#include "chess/position.hpp"
#include "probe/probe.hpp"
#include "probe/value_source.hpp"
#include "table/table.hpp"

namespace egtmin::ui {

// The five groups of the move list, best first for the side to move.
enum class MoveGroup : int { Win = 0, CursedWin, Draw, BlessedLoss, Loss, Unknown };
QString moveGroupName(MoveGroup g);

// Agreement of our value with Syzygy's, on all five values of the 50-move rule.
enum class Agreement { Unknown, Agree, Disagree };
Agreement agreement(std::optional<Wdl> ours, std::optional<SyzygyWdl> syzygy);

struct ProbeMove {
  Move move;
  QString text;                     // long algebraic, e.g. "Qh1-h8+", "e7-e8=Q", "Kd4xe5"
  std::optional<Wdl> ours;          // for the side that plays the move
  QString oursMessage;              // why ours is missing
  std::optional<SyzygyWdl> syzygy;  // for the side that plays the move
  std::optional<int> dtz;           // the mover's DTZ in plies when playing this move (Syzygy sign)
  MoveGroup group = MoveGroup::Unknown;
  Agreement agree = Agreement::Unknown;
};

struct ProbeResult {
  Position position;
  quint64 serial = 0;  // which request this answers; stale answers are dropped
  QString illegal;     // non-empty: illegal setup, nothing else is filled
  Balance balance;
  QString sourceName;
  bool ourAvailable = false;  // the source has data for this balance
  std::optional<Wdl> ours;    // side to move
  QString oursMessage;
  QString oursDetail;                        // what answered (the cube, for covers)
  logic::CubeWord oursCube = 0;              // that cube, in its cover's frame (0: none)
  std::optional<SourceMemory> sourceMemory;  // what our source holds in memory, when it tells
  bool syzygyOpen = false;
  bool syzygyHasBalance = false;
  std::optional<SyzygyWdl> syzygy;  // side to move
  std::optional<int> dtz;           // side to move, plies
  QString syzygyMessage;
  Agreement agree = Agreement::Unknown;
  std::vector<ProbeMove> moves;  // sorted: group, then best DTZ first
};

}  // namespace egtmin::ui
