// SPDX-License-Identifier: GPL-3.0-or-later
// The indexed probe's miss path for 3- and 4-piece covers: per region (side to move and the
// squares of two chosen pieces), a short list of the cover's own cubes that together hold every
// position a probe can ask for there.
//
// Why: the cover's cubes are products over the inputs, and the covers that probes miss most
// (KRvKN, the pawn balances with a piece on the other side) have every input a don't-care in
// 20-60 % of their cubes. A decision tree over such a cover cannot split without copying most of
// it, so its leaves held 12,000-28,000 cubes and a probe that missed the front line scanned ~40
// blocks of them behind a chain of dependent loads. Fixing the side to move and two pieces' squares
// instead (a region: at most 8,192 per balance, of 4,096 placements of the other two pieces) and
// keeping only the cubes a greedy set cover needs for the region's positions leaves tens of cubes
// per region: a probe reads one directory entry and six masks of a block, at addresses it computes
// from the squares, and usually ends in the first block.
//
// Which two pieces: a cube spans every region whose fixed squares it admits, and the covers' cubes
// pin some pieces and leave others free, so the choice decides the copies (KNvKP: 12.5 per cube of
// the cover with both kings fixed, 2.7 with knight and pawn; KRvKN: 4.1 and 3.3 with White's king
// and the knight). The build tries every pair and keeps the smallest index.
//
// What a region must answer: every legal representative placement (CoverCanon), except those the
// front line already answers (probes never get past it). Positions no cube holds are left out, so
// a region answers exactly where the cover does.
//
// Layout: a region's cubes are cut into blocks of 32, bit-sliced like the tree's leaves, block by
// block: each block is the outputs' two masks, then for each free piece 8 masks for its row and 8
// for its file (bit j of mask (piece, row r): cube 32b + j admits row r for that piece). A probe
// that ends in a region's first block reads 6 masks of one 136-byte run. Block-major measured
// better than row-major, and 32-cube blocks better than 64 (most regions hold fewer than 64 cubes,
// and a probe touches 3 cache lines of a block instead of 5). The directory is one 32-bit entry
// per region; directory and masks are one run of 64-bit words.
//
// Cost: the copies, 2-6 per cube of the cover (about 4.25 bytes each). The prober builds regions
// only for the covers whose tree misses cost the most (CoverProber, RegionPolicy).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "logic/cube.hpp"
#include "table/cover_canon.hpp"
#include "table/encoding.hpp"

namespace egtmin::probe {

class RegionIndex {
 public:
  // A block's masks: bit j for its cube j.
  using Mask = uint32_t;
  static constexpr uint32_t kBlockCubes = 8 * sizeof(Mask);
  // Directory entry: slab offset (in masks, from the slabs' start) << kOffsetShift | blocks.
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
  // front line). `fixed`: the two encoding slots whose squares (with the side to move) make a
  // region; by default every pair is tried and the smallest index kept. Empty (built() false) when
  // the encoding does not apply, `fixed` is not two distinct slots in ascending order, or a region
  // would need more than 63 blocks.
  RegionIndex(std::span<const logic::CubeWord> cubes, const Encoding& enc, const CoverCanon& canon,
              std::span<const logic::CubeWord> answered = {}, std::optional<std::pair<int, int>> fixed = std::nullopt);

  bool built() const { return hot_size_ != 0; }
  // The slots the regions fix.
  std::pair<int, int> fixed_slots() const { return fixed_; }

  // What the hot path reads, by value.
  struct Hot {
    const uint32_t* dir = nullptr;    // kRegions entries; null: no region index
    const Mask* slabs = nullptr;  // the regions' slabs
    // Where the fixed slots' squares, then the free slots', sit in the packed squares (slot i at
    // bit 6 (K - 1 - i)).
    std::array<uint8_t, 4> shift{};
  };
  Hot hot() const {
    auto at = [&](int slot) { return uint8_t(6 * (k_ - 1 - slot)); };
    return {reinterpret_cast<const uint32_t*>(words_data()),
            reinterpret_cast<const Mask*>(words_data() + kRegions / 2),
            {at(fixed_.first), at(fixed_.second), at(free_[0]), at(free_[1])}};
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
    // The slots are fixed per balance, but balances alternate at random: shifts, not branches.
    uint32_t packed = 0;
    for (int i = 0; i < K; ++i) packed = packed << 6 | sq[size_t(i)];
    const uint32_t entry = h.dir[stm << 12 | ((packed >> h.shift[0]) & 63) << 6 | ((packed >> h.shift[1]) & 63)];
    std::array<uint32_t, K - 2> free;
    for (int i = 0; i < K - 2; ++i) free[size_t(i)] = (packed >> h.shift[size_t(2 + i)]) & 63;
    const uint32_t blocks = entry & kBlocksMask;
    constexpr uint32_t kRows = kFirstPieceRow + kRowsPerPiece * uint32_t(K - 2);
    const Mask* block = h.slabs + (entry >> kOffsetShift);
    std::array<uint32_t, 2 * (K - 2)> at;
    for (int i = 0; i < K - 2; ++i) {
      const uint32_t row = kFirstPieceRow + kRowsPerPiece * uint32_t(i);
      at[size_t(2 * i)] = row + (free[i] >> 3);
      at[size_t(2 * i + 1)] = row + 8 + (free[i] & 7);
    }
    for (uint32_t b = 0; b < blocks; ++b, block += kRows) {
      Mask acc = block[at[0]];
      for (size_t g = 1; g < at.size(); ++g) acc &= block[at[g]];
      if (acc) {
        const unsigned bit = unsigned(__builtin_ctzll(acc));
        return logic::Output(((block[kOutHiRow] >> bit) & 1) << 1 | ((block[kOutLoRow] >> bit) & 1));
      }
    }
    return logic::Output::None;
  }

  // Starts fetching the words of the region's first block that find_output will read.
  template <int K>
  static void prefetch(const Hot& h, uint32_t stm, const std::array<uint32_t, K>& sq) {
    uint32_t packed = 0;
    for (int i = 0; i < K; ++i) packed = packed << 6 | sq[size_t(i)];
    const uint32_t entry = h.dir[stm << 12 | ((packed >> h.shift[0]) & 63) << 6 | ((packed >> h.shift[1]) & 63)];
    const Mask* block = h.slabs + (entry >> kOffsetShift);
    __builtin_prefetch(block);
    for (int i = 0; i < K - 2; ++i) {
      const uint32_t f = (packed >> h.shift[size_t(2 + i)]) & 63, row = kFirstPieceRow + kRowsPerPiece * uint32_t(i);
      __builtin_prefetch(block + row + (f >> 3));
      __builtin_prefetch(block + row + 8 + (f & 7));
    }
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

  int k_ = 0;
  std::pair<int, int> fixed_{0, 0};
  std::array<int, 2> free_{};
  std::vector<uint64_t> words_;  // directory (kRegions / 2 words), then the slabs
  const uint64_t* words_at_ = nullptr;
  size_t hot_size_ = 0;  // words in the directory and slabs
  std::vector<uint32_t> ids_;           // each region's cubes, in scan order
  std::vector<uint32_t> first_id_;      // region r's cubes: ids_[first_id_[r] .. first_id_[r + 1]]
};

}  // namespace egtmin::probe
