// SPDX-License-Identifier: GPL-3.0-or-later
// The tables a balance's captures and promotions reach, found by a position's material key, for
// passes that value every move leaving a table: a few compares a move, where TableLookup goes
// through the store's mutex and map on every call (which kept a pass's threads waiting on each
// other).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "chess/balance.hpp"
#include "chess/position.hpp"
#include "table/generator.hpp"
#include "table/table.hpp"

namespace egtmin {

class SuccessorTables {
 public:
  // Looks up each of successor_balances(b) once.
  SuccessorTables(const Balance& b, const TableLookup& lookup);

  // The first successor balance whose table `lookup` did not give.
  std::optional<Balance> missing() const;

  // The value for the side to move of `after`, a position of a successor balance in either
  // colouring; Illegal when its table is missing or it is of no successor balance.
  Wdl value_stm(const Position& after) const {
    const uint64_t key = after.material_key();
    for (const Entry& e : entries_) {
      if (e.key != key) continue;
      if (!e.table) return Wdl::Illegal;
      // The key matched: the placement needs no material check.
      const Position p = e.flip ? after.color_flipped() : after;
      const Wdl white = e.table->value(e.table->encoding().placement_of_own(p));
      return p.side_to_move() == White ? white : negate(white);
    }
    return Wdl::Illegal;
  }

 private:
  struct Entry {
    uint64_t key = 0;              // Position::material_key() of this colouring
    const Table* table = nullptr;  // the canonical balance's table
    bool flip = false;             // the colouring is the canonical one's colour swap
    Balance balance;               // canonical
  };
  std::vector<Entry> entries_;
};

}  // namespace egtmin
