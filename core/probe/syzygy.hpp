// SPDX-License-Identifier: GPL-3.0-or-later
// The one wrapper over Fathom, the Syzygy prober. Fathom keeps global state, so there is one
// Syzygy directory per process, and this class guards it: open() (which replaces that state)
// waits until no probe is running, WDL probes run concurrently, root (DTZ) probes are serialized.
// Callers hold no lock of their own; a loop of many probes takes one Hold and probes under it.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <shared_mutex>
#include <span>
#include <string>

#include "chess/balance.hpp"
#include "chess/position.hpp"
#include "table/encoding.hpp"
#include "table/wdl.hpp"
#include "util/enum_names.hpp"
#include "util/result.hpp"

namespace egtmin {

// Syzygy's five values, from the side to move's point of view, numbered as Fathom's TB_LOSS ..
// TB_WIN (syzygy.cpp checks).
enum class SyzygyWdl : uint8_t { Loss = 0, BlessedLoss = 1, Draw = 2, CursedWin = 3, Win = 4 };
// As `probe --json` spells them (util/enum_names.hpp).
inline constexpr EnumName<SyzygyWdl> kSyzygyWdlNames[] = {{SyzygyWdl::Loss, "loss"},
                                                          {SyzygyWdl::BlessedLoss, "blessed loss"},
                                                          {SyzygyWdl::Draw, "draw"},
                                                          {SyzygyWdl::CursedWin, "cursed win"},
                                                          {SyzygyWdl::Win, "win"}};
constexpr std::span<const EnumName<SyzygyWdl>> enum_names(SyzygyWdl) { return kSyzygyWdlNames; }
// The value for the other side.
constexpr SyzygyWdl negate(SyzygyWdl v) { return SyzygyWdl(uint8_t(SyzygyWdl::Win) - uint8_t(v)); }
// The same value in egtmin's terms (both for the side to move).
constexpr Wdl to_wdl(SyzygyWdl v) {
  switch (v) {
    case SyzygyWdl::Loss: return Wdl::Loss;
    case SyzygyWdl::BlessedLoss: return Wdl::BlessedLoss;
    case SyzygyWdl::Draw: return Wdl::Draw;
    case SyzygyWdl::CursedWin: return Wdl::CursedWin;
    case SyzygyWdl::Win: return Wdl::Win;
  }
  return Wdl::Illegal;
}

class Syzygy {
 public:
  // Opens the directory. There is one Syzygy per process: opening another directory re-points it
  // (the pointer stays valid), after every probe in progress has finished. Fails when the
  // directory does not exist or holds no Syzygy tables.
  static Result<Syzygy*> open(const std::filesystem::path& dir);

  // While a Hold exists the directory cannot change; the probes that take one run without locking.
  class Hold {
   public:
    explicit Hold(std::shared_mutex& m) : lock_(m) {}

   private:
    std::shared_lock<std::shared_mutex> lock_;
  };
  Hold hold() const;

  std::filesystem::path dir() const;
  const std::filesystem::path& dir(const Hold&) const { return dir_; }
  int largest() const;  // pieces of the largest table found
  bool has_wdl(const Balance& b) const;
  bool has_dtz(const Balance& b) const;

  // Fathom maps a table on its first probe, and that first probe races when two threads make it at
  // once (seen as crashes with pawn tables). Call this once per balance before probing from
  // threads: it warms b and every smaller balance a probe's capture search can reach.
  void warm_up(const Balance& b) const;

  // WDL for the side to move; nothing when Fathom cannot answer (missing table, too many pieces).
  std::optional<SyzygyWdl> wdl(const Position& pos) const;
  std::optional<SyzygyWdl> wdl(const Hold&, const Position& pos) const;  // under the caller's hold
  // The same for a table placement (no en-passant square); the fast path for whole-table sweeps.
  std::optional<SyzygyWdl> wdl(const Encoding& enc, const Placement& p) const;
  std::optional<SyzygyWdl> wdl(const Hold&, const Encoding& enc, const Placement& p) const;
  // Distance to zeroing move, in plies, signed for the side to move (positive: winning);
  // nothing when no DTZ table answers. Not for hot loops: Fathom's root probe is serialized.
  std::optional<int> dtz(const Position& pos) const;

 private:
  explicit Syzygy(std::filesystem::path dir) : dir_(std::move(dir)) {}
  bool has_file(const Balance& b, const char* extension) const;  // under a hold
  std::filesystem::path dir_;                                    // changed by open() only, under the exclusive lock
  mutable std::set<std::string> warmed_;  // balances warm_up has already touched (under its lock)
};

}  // namespace egtmin
