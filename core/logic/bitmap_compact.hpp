// SPDX-License-Identifier: GPL-3.0-or-later
// Compaction straight from the care bitmaps, for functions whose minterm list is too big to hold
// (5 pieces: ~270 million minterms, over 2 GB before any sort buffer).
//
// compact() (passes.hpp) starts from one minterm per care position and merges distance-one pairs
// by walking the whole list once per input and round. Here the first levels never exist as a
// list:
//   1. Word level. Bit b of bitmap word w is index w*64 + b, so a word is the sub-function of the
//      lowest 6 inputs (the last piece's square) with every other input fixed. MINI's iterated
//      distance-one merging over those 6 inputs runs bit-parallel on the word: the cubes of a
//      6-input function are kept as 64 sets (one per set of free inputs) of 64-bit "base value"
//      masks, and one merge step on an input is a shift, an AND and an OR per set. With
//      `use_dont_cares`, the merging runs on ON + DC of the word (DC: no output cares) and the
//      cubes holding no ON minterm are dropped, so the holes that other pieces' squares punch
//      into a word (illegal positions) no longer split it.
//   2. Chunk level. Words that share the inputs above the next `chunk_inputs` are consecutive;
//      their cubes are compacted together (as compact(), in cache) to a fixed point.
//   3. Global level. The same merging over the whole cover, to a fixed point.
// Every merge is a union of two cubes that each hold only ON (and DC) minterms of the output, so
// the result is exact on the care set: every ON minterm stays covered, no OFF minterm is added.
// Compaction is purely syntactic after step 1; the steps only decide the order of the merges.
#pragma once

#include <cstdint>

#include "logic/care_function.hpp"
#include "logic/cover.hpp"
#include "util/progress.hpp"

namespace egtmin::logic {

struct BitmapCompactOptions {
  bool use_dont_cares = true;  // word level merges ON + DC (see above), else ON only
  // Inputs above the word level compacted per chunk (0: no chunk level). 12: chunks of 4096 words
  // (2^18 minterms), small enough that each chunk's fixed point is cheap, large enough that the
  // global fixed point starts from merged cubes rather than from the words' own.
  int chunk_inputs = 12;
};

// The ON-cover of output o of f, compacted. Stops early when progress is cancelled (the cover is
// then incomplete: the caller discards it).
Cover bitmap_compact(const CareFunction& f, Output o, const BitmapCompactOptions& options = {},
                     const Progress& progress = no_progress());

// The cubes (6-input, PCN pairs packed as in a cube word, input 0 of the 6 the highest pair) of
// MINI's fixed point on a 6-input function: `set` is the minterm set (bit v = value v, the last
// input the lowest bit), `keep` the minterms a cube must touch to be listed (use keep == set for
// plain compaction). Inputs >= width are absent (width < 6: bits at or above 2^width must be 0).
// Exposed for tests.
int word_cubes(uint64_t set, uint64_t keep, int width, uint16_t* out /* up to 64 */);

}  // namespace egtmin::logic
