// SPDX-License-Identifier: GPL-3.0-or-later
// A cover's 50-move-rule draws as rows, a second form of what RuleDrawSet holds: the draws'
// representative indices grouped by every field but one piece's square (a row), the rows' keys
// kept as a RuleDrawSet, and each row's mask of that piece's squares, numbered in a table of the
// distinct masks, the numbers Huffman-coded.
//
// Why: where the draws are many, one piece's squares repeat few patterns among them (KBBvKN's
// 11,540,371 draws lie in 3,115,994 rows of 794 distinct masks with White's king free), which the
// gaps between indices do not see: 0.62x the Rice-coded set there (docs/measured.md). A look-up
// finds the row's rank in the row set (decoding that set's block gives it), then decodes the
// numbers of the row's block of 64 rows up to it.
//
// The words (64-bit, little-endian; in a layout, in place in the mapping):
//   [0]               kTag | the free square's shift in the index << 32 | n, the draws
//   [1]               R, the row set's words
//   [2]               D, the distinct masks
//   [3]               S, the code stream's words
//   [4, 4+R)          the row set (RuleDrawSet words over the row keys: the index without the
//                     free square's 6 bits)
//   D words           the masks, in the code's symbol order (by code length, then mask)
//   kMaxCodeBits / 2  the number of codes of each length 1 to kMaxCodeBits (32 bits each, low first)
//   ceil(B / 2)       each block of 64 rows' first bit in the stream (32 bits each), B the blocks
//   S words           the stream: each row's code, its most significant bit first, rows in order
// A RuleDrawSet's first word is its count, at most 2^32: kTag tells the forms apart. A look-up
// never reads outside the words, whatever they hold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "chess/types.hpp"
#include "probe/rule_draw_set.hpp"
#include "util/result.hpp"

namespace egtmin::probe {

class RuleDrawRows {
 public:
  static constexpr uint64_t kTag = uint64_t{1} << 63;
  static constexpr int kMaxCodeBits = 32;
  static constexpr uint64_t kRowsPerOffset = 64;
  static constexpr size_t kFixedWords = 4;

  RuleDrawRows() = default;
  // From ascending, distinct indices of a balance of `pieces` pieces (a cover's list), the rows
  // freeing the square of `slot`.
  static Result<RuleDrawRows> build(std::span<const uint32_t> ascending, int pieces, int slot);
  // The draws' rows with `slot`'s square free: each row's key (the index without that square's
  // bits), ascending, and its mask of that square's values.
  struct Rows {
    std::vector<uint32_t> keys;
    std::vector<uint64_t> masks;
  };
  static Rows rows_of(std::span<const uint32_t> indices, int pieces, int slot);
  // The smallest over every slot.
  static Result<RuleDrawRows> build_smallest(std::span<const uint32_t> ascending, int pieces);
  // Another form's words where they lie (a mapped layout), which must outlive this one. An error
  // names what does not add up.
  static Result<RuleDrawRows> attach(std::span<const uint64_t> words);

  uint64_t size() const { return words().empty() ? 0 : uint32_t(words()[0]); }
  bool contains(uint64_t index) const { return size() != 0 && contains(words().data(), index); }
  std::span<const uint64_t> words() const { return owned_.empty() ? attached_ : std::span<const uint64_t>(owned_); }
  // The slot whose square a row leaves free is the one at this shift in the index.
  int free_shift() const { return words().empty() ? 0 : int(words()[0] >> 32 & 63); }

  static bool is_rows(const uint64_t* w) { return w[0] & kTag; }
  // Is `index` a draw of the form whose words start at `w` (non-null, tagged)?
  static bool contains(const uint64_t* w, uint64_t index);

 private:
  std::vector<uint64_t> owned_;
  std::span<const uint64_t> attached_;
};

inline bool RuleDrawRows::contains(const uint64_t* w, uint64_t index) {
  const unsigned shift = unsigned(w[0] >> 32 & 63);
  const uint64_t row_words = w[1], distinct = w[2], stream_words = w[3];
  const uint64_t* rows = w + kFixedWords;
  const uint64_t* masks = rows + row_words;
  const uint32_t* counts = reinterpret_cast<const uint32_t*>(masks + distinct);
  const uint64_t blocks = (rows[0] + kRowsPerOffset - 1) / kRowsPerOffset;
  const uint32_t* offsets = counts + kMaxCodeBits;
  const uint64_t* stream = reinterpret_cast<const uint64_t*>(counts + kMaxCodeBits) + (blocks + 1) / 2;
  const uint64_t below = index & ((uint64_t{1} << shift) - 1);
  const uint64_t key = (index >> (shift + kSquareBits)) << shift | below;
  const uint64_t rank = RuleDrawSet::rank(rows, key);
  if (rank == RuleDrawSet::kAbsent) return false;
  rule_draw_detail::BitReader r{stream, offsets[rank / kRowsPerOffset], stream_words * 64};
  uint64_t symbol = 0;
  for (uint64_t i = 0; i <= rank % kRowsPerOffset; ++i) {
    // Canonical Huffman, a bit at a time: the codes of each length follow the shorter ones'.
    uint64_t code = 0, first = 0, index_of_first = 0;
    bool found = false;
    for (int length = 1; length <= kMaxCodeBits && !found; ++length) {
      code |= r.bits(1);
      if (!r.ok) return false;
      const uint64_t count = counts[length - 1];
      if (code < first + count) {
        symbol = index_of_first + (code - first);
        found = true;
      } else {
        index_of_first += count;
        first = (first + count) << 1;
        code <<= 1;
      }
    }
    if (!found || symbol >= distinct) return false;
  }
  return masks[symbol] >> (index >> shift & 63) & 1;
}

}  // namespace egtmin::probe
