// SPDX-License-Identifier: GPL-3.0-or-later
#include "table/successor_tables.hpp"

namespace egtmin {

SuccessorTables::SuccessorTables(const Balance& b, const TableLookup& lookup) {
  for (const Balance& s : successor_balances(b)) {
    const Table* t = lookup(s);
    entries_.push_back({s.material_key(), t, false, s});
    // A symmetric balance's colour swap is itself, and canonical as it is.
    if (!s.is_symmetric()) entries_.push_back({s.flipped().material_key(), t, true, s});
  }
}

std::optional<Balance> SuccessorTables::missing() const {
  for (const Entry& e : entries_)
    if (!e.table) return e.balance;
  return std::nullopt;
}

}  // namespace egtmin
