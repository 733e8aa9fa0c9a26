// SPDX-License-Identifier: GPL-3.0-or-later
// The real-engine check: one engine searching the same positions at a fixed depth, twice, once
// probing through egtmin's libfathom.so.1 over covers and once through the system's libfathom over
// Syzygy's WDL files of the same balances. A single-threaded search with a fresh hash is
// deterministic, so any WDL answer that differs changes its node count: every position must give
// the same nodes, score, best move and tbhits. Their search times are the benchmark.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "chess/balance.hpp"
#include "engine/uci_engine.hpp"
#include "store/cover_file.hpp"
#include "util/progress.hpp"
#include "util/result.hpp"

namespace egtmin::engine {

// The balances both sides can answer, each side's directory holding just those (symlinks made
// under `work_dir`), and what was left out of each.
struct MatchTables {
  std::vector<Balance> balances;          // canonical, sorted
  std::vector<Balance> capture_resolved;  // of them, those answered by a capture-resolved cover
  std::filesystem::path covers;           // symlinks to the covers (and their probe layouts)
  std::filesystem::path syzygy;           // symlinks to the .rtbw files, and nothing else (no DTZ)
  std::vector<Balance> only_covers;       // a cover but no WDL file: left out
  std::vector<Balance> only_syzygy;       // a WDL file but no cover: left out
  // Only a capture-resolved cover, and a balance its search reaches left out: left out too (its
  // probes would fail where Fathom answers from the file).
  std::vector<Balance> unreachable;
  int largest = 0;  // pieces of the largest balance kept (TB_LARGEST on both sides)
};
// `covers_dir`: a directory of covers, or an egtmin data directory (its covers/). A balance with
// both kinds of cover keeps the `prefer`red one, a capture-resolved one only while every balance
// its capture search reaches is kept too; only the chosen kind is linked, so that the library
// reads it.
Result<MatchTables> prepare_match_tables(const std::filesystem::path& covers_dir,
                                         const std::filesystem::path& syzygy_dir, const std::filesystem::path& work_dir,
                                         store::CoverKind prefer = store::CoverKind::Standalone);

// `count` random legal positions (FEN), each of a balance of `bases` with `extra[k]` more pieces
// (queens, rooks, bishops, knights or pawns of either colour; the extras taken in turn, the bases
// round-robin), the side to move random, and at least one legal move: more pieces than the tables
// have, so that the root is never probed and the captures of the search reach the tables.
std::vector<std::string> sample_positions(const std::vector<Balance>& bases, const std::vector<int>& extra,
                                          size_t count, uint64_t seed);

struct MatchSide {
  std::string label;  // "drop-in", "libfathom"
  EngineCommand command;
  std::string syzygy_path;  // the engine's SyzygyPath option
};

struct MatchRequest {
  MatchSide a, b;
  std::vector<std::string> fens;
  int depth = 10;
  int hash_mb = 16;
  int threads = 1;  // the engine's Threads option: 1 for a deterministic search
};

struct MatchPosition {
  std::string fen;
  SearchResult a, b;
  bool same() const { return a.same_search(b); }
};

struct MatchReport {
  std::vector<MatchPosition> positions;
  size_t mismatches = 0;
  double seconds_a = 0, seconds_b = 0;  // summed search times
  uint64_t nodes_a = 0, nodes_b = 0, tbhits_a = 0, tbhits_b = 0;
  // The files named libfathom that each engine's process mapped (which library it really probed).
  std::vector<std::string> fathom_a, fathom_b;
  // The balances whose table files each engine's process had mapped after the last search, sorted:
  // a cover or a WDL file is mapped on its first probe, so these are the balances the searches
  // reached (the drop-in's 3-piece covers load with tb_init, whether reached or not).
  std::vector<std::string> mapped_a, mapped_b;
};

// Starts both engines (Threads, Hash, SyzygyPath set), then searches each position with both, the
// order alternating from position to position so that a host's drift falls on both alike. An
// engine that fails to start, dies or falls silent is an error; differing searches are not (they
// are counted in the report).
Result<MatchReport> run_match(const MatchRequest& request, const Progress& progress = no_progress());

}  // namespace egtmin::engine
