// SPDX-License-Identifier: GPL-3.0-or-later
// A three-piece cover's outputs laid out by placement: one look-up instead of the index's walk.
//
// A 3-piece cover is small, and its indexed probe spends most of its work on the way to the
// cubes: the canonical board transform (two candidates when White's king is on a diagonal), the
// front line's block, a region's cubes. Three pieces have only 2 x 64^3 placements, so the
// cover's answer for each of them fits in 2 bits: 64 KiB a balance once White's king is kept on
// files a-d by the left-right mirror, which every balance has (no castling in the tables), 32 KiB
// without pawns, whose king is also kept on ranks 1-4. Each mirror is one XOR, where the index
// picks among the eight board transforms and breaks ties on the diagonals. The table is filled at
// open from the cover's own indexed probe, placement by placement, so it answers exactly what the
// index answers (the mirror image's answer, which a legal position shares). It is not stored in
// the layout file: it is cheap to build at open.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace egtmin::probe {

class DirectTable {
 public:
  // White's king's squares kept: a-d x 1-4 without pawns (both mirrors), a-d x 1-8 with.
  static constexpr size_t placements(bool pawns) { return size_t{pawns ? 32u : 16u} * 64 * 64 * 2; }

  // The placement's slot: `stm` the representative's side to move, s0 White's king (slot 0), s1
  // and s2 the other slots' squares, all as the cover's encoding numbers them; `rank_flip` 56
  // without pawns, else 0. A king on files e-h mirrors every square's file (XOR 7), one on ranks
  // 5-8 of a pawnless balance every square's rank (XOR 56). The side to move is the lowest bit, so
  // the 16 kept king squares of a pawnless balance take the first half of a pawned one's slots.
  static uint32_t slot(uint32_t stm, uint32_t s0, uint32_t s1, uint32_t s2, uint32_t rank_flip) {
    const uint32_t m = (s0 >> 2 & 1) * 7 | (s0 >> 5 & 1) * rank_flip;
    s0 ^= m;
    return ((s0 >> 3) << 2 | (s0 & 3)) << 13 | (s1 ^ m) << 7 | (s2 ^ m) << 1 | stm;
  }
  // The squares of slot `i`'s placement (White's king kept as above), for filling the table.
  static void squares(uint32_t i, uint32_t& stm, uint32_t& s0, uint32_t& s1, uint32_t& s2) {
    stm = i & 1;
    s2 = i >> 1 & 63;
    s1 = i >> 7 & 63;
    s0 = (i >> 15) << 3 | (i >> 13 & 3);
  }
  // The cover's output stored for slot `i` (logic::Output: 0 none, 1 win, 2 draw, 3 loss).
  static uint32_t output(const uint8_t* table, uint32_t i) { return uint32_t(table[i >> 2]) >> (2 * (i & 3)) & 3; }

  // `answer(i)` gives slot i's output, for each of the balance's placements.
  template <class Answer>
  void fill(bool pawns, Answer&& answer) {
    const uint32_t n = uint32_t(placements(pawns));
    bytes_.assign(n / 4, 0);
    for (uint32_t i = 0; i < n; ++i) bytes_[i >> 2] |= uint8_t(uint32_t(answer(i)) << (2 * (i & 3)));
  }
  bool built() const { return !bytes_.empty(); }
  const uint8_t* data() const { return bytes_.empty() ? nullptr : bytes_.data(); }
  size_t memory_bytes() const { return bytes_.capacity(); }

 private:
  std::vector<uint8_t> bytes_;
};

}  // namespace egtmin::probe
