// SPDX-License-Identifier: GPL-3.0-or-later
// Scanning a bit-sliced slab (CubeIndex's front line and leaves) for its first block with a cube
// that admits every group's value, in three builds chosen once from the CPU: portable (a block at
// a time), AVX2 (4 blocks per step) and AVX-512F (8 blocks per step).
//
// A slab of B blocks stores row r of block b at word r * B + b, so the blocks of one row are
// consecutive words and a vector load takes several blocks of a row at once. The probes that get
// here (front misses in block 0, all leaf scans) scan tens of blocks; one loop branch per 8 blocks
// instead of one per block is most of what the vector builds save. A vector load may run up to 7
// words past the end of a row: into the next row (lanes past the slab's blocks are masked out),
// or, for the last row, into the kSlabPadding zero words every slab array must end with.
//
// The hot path of a front hit in block 0 does not come here (it is portable code inlined in the
// prober); only this function is built per instruction set, so no code compiled for AVX can be
// picked by the linker for a CPU without it.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace egtmin::probe {

// Words that must follow the last row of every slab array (read, never used).
inline constexpr uint64_t kSlabPadding = 8;

struct SlabHit {
  uint64_t block = 0;
  uint64_t hits = 0;  // the block's cubes admitting every row, as bits; 0: no block has one
};

// The first block b in [first, blocks) whose AND over the rows `at[0 .. groups-1]` (offsets of the
// rows' first words) is not zero. `groups` is at least 1.
using SlabScanFn = SlabHit (*)(const uint64_t* slab, uint64_t blocks, const uint32_t* at, int groups, uint64_t first);

struct SlabScanner {
  std::string_view name;  // "portable", "avx2", "avx512"
  SlabScanFn scan;
  // Whether the hot path should call `scan`: the portable build is better inlined there (a
  // block at a time, with the group count known at compile time) than called through a pointer.
  bool vector = false;
};

// The fastest build this CPU runs (set once, at first use; EGTMIN_SLAB_SCAN=portable|avx2|avx512
// picks one by name where the CPU has it, for comparisons).
const SlabScanner& slab_scanner();
// Every build this CPU can run, portable first (tests compare them).
std::vector<SlabScanner> available_slab_scanners();

}  // namespace egtmin::probe
