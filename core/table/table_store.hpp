// SPDX-License-Identifier: GPL-3.0-or-later
// The generated tables under a data directory (DATA/tables/NAME.egtt), loaded on demand and
// generated with their dependencies when asked to.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

#include "table/generator.hpp"
#include "table/self_check.hpp"
#include "table/table.hpp"

namespace egtmin {

class TableStore {
 public:
  explicit TableStore(std::filesystem::path data_dir);

  const std::filesystem::path& data_dir() const { return dir_; }
  std::filesystem::path path_for(const Balance& b) const;
  bool on_disk(const Balance& b) const;

  // The table of b's canonical form, loaded once and kept.
  Result<const Table*> get(const Balance& b);
  // get() as the generator and the self-check take it: nullptr for a table that is missing.
  TableLookup lookup();

  // What generating one table took and what its self-check found.
  struct Generated {
    double seconds = 0;             // generation alone
    double self_check_seconds = 0;  // 0 when not self-checked
    std::optional<SelfCheckReport> self_check;
  };
  // Makes sure b's table exists, generating it and every missing dependency first (smallest
  // first); a table of an older format is regenerated. With opts.self_check, each new table is
  // proven against its successors (table/self_check.hpp) before it is written, and one that fails
  // is not written. on_generated is called after each table is written.
  using OnGenerated = std::function<void(const Balance&, const Generated&)>;
  Result<const Table*> ensure(const Balance& b, const GenerateOptions& opts = {},
                              const Progress& progress = no_progress(), const OnGenerated& on_generated = {});

  // Drops loaded tables that are not needed (memory for 5-piece work).
  void unload_all();
  bool is_loaded(const Balance& b);

  // The value of a legal position for the side to move, from the tables: handles colour-flipped
  // balances and resolves an en-passant square by also trying the capture.
  Result<Wdl> probe_stm(const Position& pos);

 private:
  // ensure() below the caller's: `pinned` are the tables loaded when the caller asked, which it
  // may hold; every other table not among c's successors is dropped before c is generated, so a
  // long closure (KPPvKP's is 110 tables) holds one table's successors, not every table made.
  Result<const Table*> ensure_from(const Balance& c, const GenerateOptions& opts, const Progress& progress,
                                   const OnGenerated& on_generated, const std::set<Balance>& pinned);

  std::filesystem::path dir_;
  std::mutex mutex_;
  std::map<Balance, std::unique_ptr<Table>> loaded_;
};

}  // namespace egtmin
