// SPDX-License-Identifier: GPL-3.0-or-later
// A UCI chess engine run as a child process: commands on its stdin, lines from its stdout, its
// stderr kept for the message when it dies. What the engine check (engine/engine_match.hpp) needs,
// no more: the handshake, options, and a fixed-depth search's last report.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace egtmin::engine {

// How to start an engine: argv (argv[0] looked up on PATH), and changes to this process's
// environment for it.
struct EngineCommand {
  std::vector<std::string> argv;
  std::vector<std::string> set_env;    // "NAME=value", replacing NAME
  std::vector<std::string> unset_env;  // names left out
};

// This process's environment with `command`'s changes, as "NAME=value" entries.
std::vector<std::string> environment_for(const EngineCommand& command);

// The final report of a fixed-depth search: the last "info" line with a score before "bestmove".
struct SearchResult {
  int depth = 0;
  std::string score;  // "cp 35", "mate -4" (with " lowerbound"/" upperbound" when the engine says so)
  uint64_t nodes = 0;
  uint64_t tbhits = 0;
  std::string bestmove;
  double seconds = 0;  // wall time from "go" to "bestmove"

  // What a deterministic search must reproduce exactly (not the time).
  bool same_search(const SearchResult& o) const {
    return depth == o.depth && score == o.score && nodes == o.nodes && tbhits == o.tbhits && bestmove == o.bestmove;
  }
};

// The fields of a UCI "info" line into `r` (those it has); false when it has no score.
bool parse_info_line(std::string_view line, SearchResult& r);

class UciEngine {
 public:
  // Starts the engine and waits for "uciok". An engine silent for `timeout` is an error.
  static Result<std::unique_ptr<UciEngine>> start(const EngineCommand& command,
                                                  std::chrono::milliseconds timeout = std::chrono::seconds(30));
  // "quit", then waits a moment for the engine to exit, then kills it.
  ~UciEngine();
  UciEngine(const UciEngine&) = delete;
  UciEngine& operator=(const UciEngine&) = delete;

  Status send(std::string_view line);
  // The next line of the engine's output, or an error when it exits or says nothing for `timeout`.
  Result<std::string> read_line(std::chrono::milliseconds timeout);
  // "isready", then waits for "readyok".
  Status sync(std::chrono::milliseconds timeout = std::chrono::seconds(60));
  Status set_option(std::string_view name, std::string_view value);
  // A fresh game (the engine clears its hash), the position, and "go depth N" to the end.
  Result<SearchResult> search(std::string_view fen, int depth,
                              std::chrono::milliseconds timeout = std::chrono::minutes(10));

  pid_t pid() const { return pid_; }
  // The files the engine's process has mapped whose name contains `part` (which libfathom it
  // loaded, say), from /proc.
  std::vector<std::string> mapped_files(std::string_view part) const;
  const std::string& name() const { return name_; }

 private:
  UciEngine() = default;
  Error died(const std::string& what) const;
  // Reads the rest of the engine's stderr into err_tail_ (for died()'s message).
  void drain_errors();

  pid_t pid_ = -1;
  int to_engine_ = -1, from_engine_ = -1, engine_err_ = -1;
  std::string out_buffer_, err_tail_;
  std::string name_;  // argv[0], for messages
};

}  // namespace egtmin::engine
