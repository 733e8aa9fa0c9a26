// SPDX-License-Identifier: GPL-3.0-or-later
// A region index's directory and cubes in zstd frames (RegionCubes::Framed): what a probe layout
// stores in place of the plain directory and cubes where those would take more bytes than the layout
// may (make_layout's bound).
//
// Why: the plain cubes are what makes the probe fast (a region's first cubes are one or two cache
// lines at an address the directory gives), but a few balances' regions hold more cube words than
// their Syzygy file has bytes (KBNvKB's take 1.11x it), and no directory, Huffman code or LZMA
// stream brought them under that at a probe's cost (docs/measured.md). zstd frames of a few hundred
// regions, compressed with a dictionary trained on the layout's own frames, take them to about
// 0.9x, and a probe decodes one frame (a kilobyte or two) in microseconds, as Syzygy's probe
// decodes one of its blocks. The fast form stays wherever it fits.
//
// A frame holds a power of two of directory blocks (RegionIndex::kBlockRegions regions each;
// blocks_a_frame()) and then those regions' cubes: a region's frame is its directory block's number
// over that. The directory goes inside the frames because a probe decodes its region's frame anyway,
// and coded there its 1.3 bytes a region take a fraction of that (KBNvKQ's 109 KB directory was a
// tenth of its layout: docs/measured.md). A block's first cube stays the index's own, so a region's
// cubes are the frame's decoded cubes from the region's first cube minus the frame's. Each thread
// keeps the last frames it decoded (a few, of any layouts), so a search probing the same regions
// again decodes nothing.
//
// Stored as one run of 64-bit words (put_aligned in the layout): the frame count F, the directory
// blocks a frame, the directory's blocks B, the dictionary's bytes D, the frames' bytes Z; F + 1
// first cubes (32 bits each: frame f's cubes are first[f] to first[f + 1]) and F + 1 byte offsets
// into the frames (32 bits each), zero-padded to a word; the dictionary (D bytes, none: 0), padded;
// the frames, one after another (Z bytes), padded. Frame f decodes to its blocks' bytes
// (RegionIndex::kBlockBytes each), then its cubes. Format: docs/file-format.md.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "util/result.hpp"

namespace egtmin::probe {

// How a probe layout stores its region index's cubes: as the words the probe reads in place
// (the fast form), or in zstd frames a probe decodes (RegionFrames).
enum class RegionCubes : uint8_t { Plain, Framed };

// How a frame's literals (the bytes no match reaches) are coded: stored raw, which a frame decodes
// without building a Huffman table first (in about 0.6x the time), or Huffman-coded where that
// pays, for a few per cent fewer bytes (docs/measured.md).
enum class FrameLiterals : uint8_t { Raw, Huffman };

// A way to frame a layout's regions: directory blocks a frame, and the literals' coding.
struct Framing {
  uint32_t blocks_a_frame = 1;
  FrameLiterals literals = FrameLiterals::Raw;
  friend bool operator==(const Framing&, const Framing&) = default;
};

class RegionFrames {
 public:
  // The framings make_layout tries, fastest to decode first, each taking fewer bytes than the one
  // before on the layouts measured: a frame of more blocks codes a little better and takes longer to
  // decode (KBNvKB's frames of 48 regions take about a third of the time of those of 192, and 4 %
  // more bytes; KBNvKQ's of 3,072 regions 0.95x the bytes of those of 192: docs/measured.md).
  static constexpr Framing kFramings[] = {{1, FrameLiterals::Raw},      {2, FrameLiterals::Raw},
                                          {4, FrameLiterals::Raw},      {4, FrameLiterals::Huffman},
                                          {16, FrameLiterals::Huffman}, {64, FrameLiterals::Huffman}};
  // The most blocks a frame a layout may have (a frame's decode takes longer the more it holds).
  static constexpr uint32_t kMostBlocksAFrame = 64;
  // The zstd level frames are compressed with (the smallest frames; their decode takes about as
  // long as a lower level's).
  static constexpr int kLevel = 19;
  // Dictionary sizes tried, each on at least 4 times its bytes of cubes (the smallest layout is
  // kept; 0: no dictionary). KBNvKB's frames take the fewest bytes with 128 KiB (docs/measured.md).
  static constexpr size_t kDictionaryBytes[] = {512 * 1024, 128 * 1024, 32 * 1024, 0};
  // Zero cubes after each decoded frame: a region's scan reads up to 64 cubes past its start
  // (RegionIndex::kScanPad).
  static constexpr size_t kDecodedPad = 64;
  // A directory block's bytes (RegionIndex::kBlockBytes, which checks that they agree).
  static constexpr size_t kBlockBytes = 64;

  // The words of frames holding `directory` (whole blocks of kBlockBytes) and `cubes`, each frame
  // `framing.blocks_a_frame` blocks (a power of two up to kMostBlocksAFrame) and their cubes;
  // `first`: each frame's first cube, then the end (at most cubes.size()), ascending, one more
  // than the frames the directory's blocks make.
  static std::vector<uint64_t> encode(std::span<const uint8_t> directory, std::span<const uint32_t> cubes,
                                      std::span<const uint32_t> first, Framing framing);

  // The frames in `words` (encode's), used in place: they must outlive the result. Every frame is
  // decoded once to check that it decodes to exactly its blocks' and cubes' bytes, so a frame a
  // probe decodes never fails (what the bytes say is the layout's checksum's to vouch for: frames
  // carry none). The error names what is wrong.
  static Result<std::unique_ptr<RegionFrames>> attach(std::span<const uint64_t> words);

  ~RegionFrames();
  RegionFrames(const RegionFrames&) = delete;
  RegionFrames& operator=(const RegionFrames&) = delete;

  uint32_t frames() const { return frames_; }
  // Directory blocks a frame holds: a block's frame is its number shifted right by block_shift().
  uint32_t blocks_a_frame() const { return uint32_t{1} << block_shift_; }
  uint8_t block_shift() const { return block_shift_; }
  // The directory's blocks, over all frames.
  uint32_t blocks() const { return blocks_; }
  // Frame f's first cube (f = frames(): where the last ends).
  uint32_t first(uint32_t f) const { return first_[f]; }
  // The stored bytes (what a probe may read of the mapping).
  size_t bytes() const { return words_bytes_; }

  // Directory block b (b < blocks()), decoded with its frame: valid until this thread asks any
  // RegionFrames for another frame.
  const uint8_t* block(uint32_t b) const {
    return reinterpret_cast<const uint8_t*>(decoded(b >> block_shift_)) +
           size_t(b & ((uint32_t{1} << block_shift_) - 1)) * kBlockBytes;
  }
  // Frame f's cubes from cube `at` on (first(f) <= at < first(f + 1)), followed by at least
  // kDecodedPad zero cubes: valid as block()'s.
  const uint32_t* cubes(uint32_t f, uint32_t at) const {
    return decoded(f) + blocks_in(f) * (kBlockBytes / sizeof(uint32_t)) + (at - first_[f]);
  }

 private:
  RegionFrames() = default;
  // The directory blocks frame f holds (the last frame may hold fewer).
  uint32_t blocks_in(uint32_t f) const { return std::min(blocks_a_frame(), blocks_ - (f << block_shift_)); }
  // Frame f decoded (its blocks, its cubes, the pad), from this thread's last frames or now.
  const uint32_t* decoded(uint32_t f) const;
  // Decodes frame f into `out`; false when the frame does not hold exactly its blocks and cubes.
  bool decode(uint32_t f, std::vector<uint32_t>& out) const;

  uint64_t id_ = 0;  // this object among all a process made (the threads' decoded frames name it)
  uint32_t frames_ = 0;
  uint32_t blocks_ = 0;
  uint8_t block_shift_ = 0;
  const uint32_t* first_ = nullptr;
  const uint32_t* offset_ = nullptr;
  const uint8_t* data_ = nullptr;
  size_t words_bytes_ = 0;
  struct Dictionary;
  std::unique_ptr<Dictionary> dict_;
};

}  // namespace egtmin::probe
