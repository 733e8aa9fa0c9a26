// SPDX-License-Identifier: GPL-3.0-or-later
// The indexed probe's miss path for 3- and 4-piece covers: per king region, a short list of the
// cover's own cubes that together hold every position a probe can ask for there.
//
// Why: the cover's cubes are products over the inputs, and the covers that probes miss most
// (KRvKN, the pawn balances with a piece on the other side) have every input a don't-care in
// 20-60 % of their cubes. A decision tree over such a cover cannot split without copying most of
// it, so its leaves held 12,000-28,000 cubes and a probe that missed the front line scanned ~40
// blocks of them behind a chain of dependent loads. Fixing the side to move and both kings instead
// (a region: at most 8,192 per balance, of 4,096 placements of the other two pieces) and keeping
// only the cubes a greedy set cover needs for the region's positions leaves ~200 cubes per region
// (KRvKN: 4.1 copies per cube of the cover): a probe reads one directory word and six words of a
// block, at addresses it computes from the squares, and usually ends in the first block.
//
// What a region must answer: every legal representative placement (CoverCanon), except those the
// front line already answers (probes never get past it). Positions no cube holds are left out, so
// a region answers exactly where the cover does.
//
// Layout: a region's cubes are cut into blocks of 64, bit-sliced like the tree's leaves, block by
// block: each block is the outputs' two words, then for each free piece 8 words for its row and 8
// for its file (bit j of word (piece, row r): cube 64b + j admits row r for that piece). A probe
// that ends in a region's first block reads 6 words of one 272-byte run (block-major measured
// better than row-major in the benchmark: the first blocks, which answer most probes, stay
// together in cache). Everything is flat 64-bit words, the directory two 32-bit entries a word.
//
// Cost: the copies. Per region the greedy cover needs cubes that cover few positions each, so a
// cover's cubes appear 4-15 times over its regions (about 4.25 bytes per copy). The prober builds
// regions only for the covers whose tree misses cost the most (CoverProber, RegionPolicy).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "logic/cube.hpp"
#include "table/cover_canon.hpp"
#include "table/encoding.hpp"

namespace egtmin::probe {

class RegionIndex {
 public:
  // Directory entry: slab offset (in words, from the slabs' start) << kOffsetShift | blocks.
  static constexpr int kOffsetShift = 6;
  static constexpr uint32_t kBlocksMask = 63;  // a region needs at most 63 blocks (4,032 cubes)
  static constexpr uint32_t kRegions = 2 * 64 * 64;
  static constexpr uint32_t kOutHiRow = 0, kOutLoRow = 1, kFirstPieceRow = 2, kRowsPerPiece = 16;

  RegionIndex() = default;
  RegionIndex(const RegionIndex&) = delete;
  RegionIndex& operator=(const RegionIndex&) = delete;
  RegionIndex(RegionIndex&&) noexcept = default;
  RegionIndex& operator=(RegionIndex&&) noexcept = default;

  // Whether `enc` has the shape this index needs: 3 or 4 pieces, White's king first, one black king.
  static bool applies_to(const Encoding& enc);
  // Builds from the cover's cubes; `answered`: cubes whose positions never reach this index (the
  // front line). Empty (built() false) when the encoding does not apply or a region would need
  // more than 63 blocks.
  RegionIndex(std::span<const logic::CubeWord> cubes, const Encoding& enc, const CoverCanon& canon,
              std::span<const logic::CubeWord> answered = {});

  bool built() const { return hot_size_ != 0; }

  // What the hot path reads, by value.
  struct Hot {
    const uint32_t* dir = nullptr;    // kRegions entries; null: no region index
    const uint64_t* slabs = nullptr;  // the regions' slabs
    uint8_t bk_slot = 0;              // encoding slot of Black's king (2 or 3)
  };
  Hot hot() const {
    return {reinterpret_cast<const uint32_t*>(words_data()), words_data() + kRegions / 2, uint8_t(bk_slot_)};
  }
  // Directory and slabs, contiguous; a prober copies them into its huge-page arena and calls
  // use_hot_words with the copy (which must outlive the index or the next call).
  std::span<const uint64_t> hot_words() const { return {words_data(), words_size()}; }
  void use_hot_words(const uint64_t* copy) {
    words_at_ = copy;
    words_.clear();
    words_.shrink_to_fit();
  }

  // The output of a cube of the region holding the placement (Output::None when none). `sq`: the
  // representative's squares in encoding order.
  template <int K>
  static logic::Output find_output(const Hot& h, uint32_t stm, const std::array<uint32_t, K>& sq) {
    static_assert(K == 3 || K == 4);
    uint32_t bk, free[K - 2];
    if constexpr (K == 3) {
      bk = sq[2];
      free[0] = sq[1];
    } else {
      // Black's king in slot 2 (KXvKY) or 3 (KXYvK); the other is the second free piece. Chosen
      // with a mask: the slot is fixed per balance, but balances alternate at random.
      const uint32_t m = 0u - uint32_t(h.bk_slot == 3), d = (sq[2] ^ sq[3]) & m;
      bk = sq[2] ^ d;
      free[0] = sq[1];
      free[1] = sq[3] ^ d;
    }
    const uint32_t entry = h.dir[stm << 12 | sq[0] << 6 | bk];
    const uint32_t blocks = entry & kBlocksMask;
    constexpr uint32_t kRows = kFirstPieceRow + kRowsPerPiece * uint32_t(K - 2);
    const uint64_t* block = h.slabs + (entry >> kOffsetShift);
    std::array<uint32_t, 2 * (K - 2)> at;
    for (int i = 0; i < K - 2; ++i) {
      const uint32_t row = kFirstPieceRow + kRowsPerPiece * uint32_t(i);
      at[size_t(2 * i)] = row + (free[i] >> 3);
      at[size_t(2 * i + 1)] = row + 8 + (free[i] & 7);
    }
    for (uint32_t b = 0; b < blocks; ++b, block += kRows) {
      uint64_t acc = block[at[0]];
      for (size_t g = 1; g < at.size(); ++g) acc &= block[at[g]];
      if (acc) {
        const unsigned bit = unsigned(__builtin_ctzll(acc));
        return logic::Output(((block[kOutHiRow] >> bit) & 1) << 1 | ((block[kOutLoRow] >> bit) & 1));
      }
    }
    return logic::Output::None;
  }

  // The cube (0 when none) the hot path's find_output answers from, for an index of the encoding;
  // `cubes`: the cover the index was built from.
  logic::CubeWord find(uint64_t index, std::span<const logic::CubeWord> cubes) const;

  // The positions a region has to answer before the front line takes its share: the legal
  // representatives with this side to move and kings, as a bitmap over the free pieces' squares
  // (bit f of word w: first free piece on w, second on f; one word, bit = square, with one free
  // piece). Empty when the region holds none. Exposed for tests (the brute force is
  // Encoding::is_legal and CoverCanon::is_representative on every placement).
  static std::vector<uint64_t> care(const Encoding& enc, const CoverCanon& canon, uint32_t stm, int wk, int bk);

  size_t memory_bytes() const {
    return (words_.empty() ? hot_size_ : words_.capacity()) * sizeof(uint64_t) + ids_.capacity() * sizeof(uint32_t) +
           first_id_.capacity() * sizeof(uint32_t) + sizeof(*this);
  }

 private:
  const uint64_t* words_data() const { return words_.empty() ? words_at_ : words_.data(); }
  size_t words_size() const { return hot_size_; }

  int k_ = 0, bk_slot_ = 0;
  std::vector<uint64_t> words_;  // directory (kRegions / 2 words), then the slabs
  const uint64_t* words_at_ = nullptr;
  size_t hot_size_ = 0;  // words in the directory and slabs
  std::vector<uint32_t> ids_;           // each region's cubes, in scan order
  std::vector<uint32_t> first_id_;      // per region: its first position in ids_
};

}  // namespace egtmin::probe
