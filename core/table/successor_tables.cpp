// SPDX-License-Identifier: GPL-3.0-or-later
#include "table/successor_tables.hpp"

namespace egtmin {

namespace {

uint64_t material_key_of(const Balance& b) {
  uint64_t key = 0;
  for (int p = 0; p < kPieces; ++p) key += uint64_t(b.count(Piece(p))) * Position::material_unit(Piece(p));
  return key;
}

}  // namespace

SuccessorTables::SuccessorTables(const Balance& b, const TableLookup& lookup) {
  for (const Balance& s : successor_balances(b)) {
    const Table* t = lookup(s);
    entries_.push_back({material_key_of(s), t, false, s});
    // A symmetric balance's colour swap is itself, and canonical as it is.
    if (!s.is_symmetric()) entries_.push_back({material_key_of(s.flipped()), t, true, s});
  }
}

std::optional<Balance> SuccessorTables::missing() const {
  for (const Entry& e : entries_)
    if (!e.table) return e.balance;
  return std::nullopt;
}

}  // namespace egtmin
