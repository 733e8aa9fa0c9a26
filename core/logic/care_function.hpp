// SPDX-License-Identifier: GPL-3.0-or-later
// The incompletely specified function a cover must implement: for each of the three outputs
// (White wins / draw / White loses, without the 50-move rule: a cursed win is a win and a blessed
// loss a loss) the set of care minterms that have it, as BitTrees over the
// 2^n index space. Everything else is a don't-care (illegal positions, and under a CanonScheme
// the non-representatives). The OFF-set of an output is the ON-set of the other two, so neither
// R nor D is ever listed minterm by minterm: expand's blocking test and irredundant's coverage
// counts read these bitmaps directly (4 MB each at 4 pieces, 256 MB at 5).
//
// A capture-resolved function (table/capture_resolve.hpp) also has "at most a draw" positions:
// no care minterm of any output, but the side to move's win output must not hold them (White
// wins when White is to move, White loses when Black is). They are one more bitmap; the other
// outputs and the implied one treat them as don't-cares.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "logic/bit_tree.hpp"
#include "logic/cube.hpp"
#include "table/cover_canon.hpp"
#include "table/table.hpp"
#include "util/progress.hpp"

namespace egtmin::logic {

constexpr int kOutputs = 3;
constexpr int output_slot(Output o) { return int(o) - 1; }
constexpr Output slot_output(int s) { return Output(s + 1); }

class CareFunction {
 public:
  CareFunction() = default;

  // From a table: care minterms are the legal positions that are representatives under scheme.
  // Splits the index space over `threads` workers (0: default_threads()); honours
  // progress.cancelled() (the result is then incomplete and the caller must discard it).
  // `at_most_draw`: one bit per slot of t (CaptureResolution::at_most_draw), slots that are
  // Illegal in t and "at most a draw" positions of the function; null or empty for none.
  static CareFunction from_table(const Table& t, CanonScheme scheme, int threads = 1,
                                 const Progress& progress = no_progress(),
                                 const std::vector<uint64_t>* at_most_draw = nullptr);
  // From explicit values (tests, PLA import): values[i] is 0 for don't-care, else an Output.
  static CareFunction from_values(int n, std::span<const uint8_t> values);

  int inputs() const { return n_; }
  CanonScheme scheme() const { return scheme_; }
  const BitTree& on(Output o) const { return on_[output_slot(o)]; }
  const BitTree& on_slot(int s) const { return on_[s]; }
  uint64_t care_count() const { return care_total_; }
  // From per-output bitmaps of 2^n bits each (word w = minterms w*64 .. w*64+63), and the "at
  // most a draw" bitmap in the same layout (empty: none). `fixed_side`: -1 when input 0 is the
  // side to move; 0 (White) or 1 (Black) for a part split on it (every minterm has that side).
  static CareFunction from_words(int n, CanonScheme scheme, std::array<std::vector<uint64_t>, kOutputs> words,
                                 std::vector<uint64_t> at_most_draw = {}, int fixed_side = -1);
  int fixed_side() const { return fixed_side_; }

  // The "at most a draw" positions (none when has_at_most_draw() is false).
  bool has_at_most_draw() const { return at_most_draw_count_ > 0; }
  uint64_t at_most_draw_count() const { return at_most_draw_count_; }
  const BitTree& at_most_draw() const { return at_most_draw_; }
  // The part of cube c (of output o) where o is the side to move's win, for the test against
  // at_most_draw(); 0 when there is none (the draw output, or c fixes the other side to move).
  CubeWord side_to_move_win_part(CubeWord c, Output o) const;
  // Word w of the positions output o must not hold: the other outputs' care minterms and the
  // "at most a draw" positions where o is the side to move's win.
  uint64_t forbidden_word(Output o, uint64_t w) const;
  // May o be the cover's implied output? Not when some "at most a draw" position forbids it.
  bool may_imply(Output o) const;

  // Bitmap of the care minterms of all outputs (word w = indices w*64 .. w*64+63); the
  // don't-cares are its complement.
  const std::vector<uint64_t>& care_words() const { return care_words_; }

  // Does cube c (any output) contain a care minterm whose output differs from c's?
  bool blocked(CubeWord c) const;
  // Does cube c contain a care minterm of its own output?
  bool useful(CubeWord c) const { return intersects(on(output_of(c)), c); }

 private:
  void finish();
  int side_of_word(uint64_t w) const;  // the side to move (0 White, 1 Black) of word w's minterms

  int n_ = 0;
  CanonScheme scheme_ = CanonScheme::None;
  std::array<BitTree, kOutputs> on_;
  std::vector<uint64_t> care_words_;
  uint64_t care_total_ = 0;
  int fixed_side_ = -1;  // see from_words
  BitTree at_most_draw_;
  uint64_t at_most_draw_count_ = 0;
  // Does the White-to-move (index 0) or Black-to-move (index 1) half hold "at most a draw" ones?
  std::array<bool, 2> at_most_draw_half_{};
};

// The indices, ascending, of the care representatives under `scheme` whose value is a cursed win
// or blessed loss: what a cover keeps beside its cubes to give all five values.
std::vector<uint32_t> rule_draw_indices(const Table& t, CanonScheme scheme);

}  // namespace egtmin::logic
