// SPDX-License-Identifier: GPL-3.0-or-later
// An exact table for one balance: the five values of the 50-move rule (table/wdl.hpp) in four
// bits per canonical position (see Symmetry), from White's point of view as in the paper, with
// illegal positions marked. Any index
// of the paper's encoding is answered by canonicalizing it first, so the table is the ground
// truth for every one of the 2^(1+6k) rows.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "table/encoding.hpp"
#include "table/symmetry.hpp"
#include "table/wdl.hpp"
#include "util/result.hpp"

namespace egtmin {

class Table {
 public:
  Table() = default;
  explicit Table(const Balance& b);

  const Balance& balance() const { return enc_.balance(); }
  const Encoding& encoding() const { return enc_; }
  const Symmetry& symmetry() const { return sym_; }

  uint64_t slots() const { return sym_.domain_size(); }
  Wdl at_slot(uint64_t slot) const { return Wdl((cells_[slot / kSlotsPerWord] >> shift_of(slot)) & kCellMask); }
  // Not thread-safe for slots sharing a 64-bit word (kSlotsPerWord consecutive slots).
  void set_slot(uint64_t slot, Wdl v) {
    uint64_t& w = cells_[slot / kSlotsPerWord];
    w = (w & ~(kCellMask << shift_of(slot))) | (uint64_t(v) << shift_of(slot));
  }
  static constexpr uint64_t kSlotsPerWord = 16;

  // Calls visit(slot, placement, White's value) for each representative among slots [begin, end),
  // in slot order: the legal canonical slots (the table marks which are legal), each standing for
  // symmetry().class_size(placement) positions. What the checks that visit classes walk.
  template <class Visit>
  void for_each_representative(uint64_t begin, uint64_t end, Visit&& visit) const {
    for (uint64_t s = begin; s < end; ++s) {
      const Wdl white = at_slot(s);
      if (white == Wdl::Illegal) continue;
      const Placement p = sym_.from_slot(s);
      if (sym_.is_canonical(p)) visit(s, p, white);
    }
  }

  Wdl value(const Placement& p) const { return at_slot(sym_.canonical_slot(p)); }
  Wdl value(uint64_t index) const { return value(enc_.decode(index)); }
  // The position's value for White; the position must be of exactly this balance.
  Wdl value(const Position& pos) const;

  // Counts over canonical legal positions.
  struct Counts {
    std::array<uint64_t, kWdlCodes> by_code{};  // indexed by Wdl's code; Illegal's entry unused
    uint64_t of(Wdl v) const { return by_code[size_t(v)]; }
    uint64_t legal() const;
    Counts& operator+=(const Counts& o) {
      for (size_t i = 0; i < by_code.size(); ++i) by_code[i] += o.by_code[i];
      return *this;
    }
  };
  Counts counts() const;

  std::vector<uint8_t> serialize() const;
  static Result<Table> deserialize(std::span<const uint8_t> bytes, const std::string& origin);
  Status save(const std::filesystem::path& path) const;
  static Result<Table> load(const std::filesystem::path& path);
  // True when path is an egtmin table of an earlier format version, which ensure() regenerates
  // (and load() refuses with a message saying so).
  static bool is_older_format(const std::filesystem::path& path);

 private:
  static constexpr uint64_t kCellMask = 15;  // four bits per slot
  static constexpr int shift_of(uint64_t slot) { return int(slot % kSlotsPerWord) * 4; }

  Encoding enc_;
  Symmetry sym_;
  std::vector<uint64_t> cells_;
};

// "221236999 win, 0 cursed win, 211955522 draw, 0 blessed loss, 50159947 loss": the five values
// from best to worst, as commands and the GUI's logs print counts.
std::string value_counts_text(const Table::Counts& c);

}  // namespace egtmin
