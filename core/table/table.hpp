// SPDX-License-Identifier: GPL-3.0-or-later
// An exact win/draw/loss table for one balance: two bits per canonical position (see Symmetry),
// values from White's point of view as in the paper, with illegal positions marked. Any index
// of the paper's encoding is answered by canonicalizing it first, so the table is the ground
// truth for every one of the 2^(1+6k) rows.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "table/encoding.hpp"
#include "table/symmetry.hpp"
#include "util/result.hpp"

namespace egtmin {

// From White's point of view in tables; from the side to move's where a function says so.
enum class Wdl : uint8_t { Illegal = 0, Win = 1, Draw = 2, Loss = 3 };
constexpr Wdl negate(Wdl v) { return v == Wdl::Win ? Wdl::Loss : v == Wdl::Loss ? Wdl::Win : v; }
const char* wdl_name(Wdl v);  // "win", "draw", "loss", "illegal"

class Table {
 public:
  Table() = default;
  explicit Table(const Balance& b);

  const Balance& balance() const { return enc_.balance(); }
  const Encoding& encoding() const { return enc_; }
  const Symmetry& symmetry() const { return sym_; }

  uint64_t slots() const { return sym_.domain_size(); }
  Wdl at_slot(uint64_t slot) const { return Wdl((cells_[slot >> 5] >> ((slot & 31) * 2)) & 3); }
  // Not thread-safe for slots sharing a 64-bit word (32 consecutive slots).
  void set_slot(uint64_t slot, Wdl v) {
    uint64_t& w = cells_[slot >> 5];
    int shift = int(slot & 31) * 2;
    w = (w & ~(uint64_t{3} << shift)) | (uint64_t(v) << shift);
  }

  Wdl value(const Placement& p) const { return at_slot(sym_.slot(sym_.canonical(p))); }
  Wdl value(uint64_t index) const { return value(enc_.decode(index)); }
  // The position's value for White; the position must be of exactly this balance.
  Wdl value(const Position& pos) const;

  // Counts over canonical legal positions.
  struct Counts {
    uint64_t win = 0, draw = 0, loss = 0;
  };
  Counts counts() const;

  std::vector<uint8_t> serialize() const;
  static Result<Table> deserialize(std::span<const uint8_t> bytes, const std::string& origin);
  Status save(const std::filesystem::path& path) const;
  static Result<Table> load(const std::filesystem::path& path);

 private:
  Encoding enc_;
  Symmetry sym_;
  std::vector<uint64_t> cells_;
};

}  // namespace egtmin
