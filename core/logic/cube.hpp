// SPDX-License-Identifier: GPL-3.0-or-later
// A cube in positional cube notation (PCN), packed into one 64-bit word.
//
// Layout (fixed; cover files and the probe depend on it):
//   bits 63..62  output: 01 = White wins, 10 = draw, 11 = White loses (00 = no output / empty)
//   bits 61..0   inputs: input i (i = 0 is the side-to-move bit, then each piece's 6 square bits,
//                most significant first, exactly the paper's string read left to right) owns the
//                pair at bits (61 - 2i) and (60 - 2i). The higher bit of the pair says "the input
//                may be 0", the lower "the input may be 1": 10 = 0, 01 = 1, 11 = don't care,
//                00 = empty cube.
// Inputs beyond the balance's width (n = 1 + 6k) are kept at 11, so 31 inputs (5 pieces) fit.
// Intersection, containment, distance and merging are a few bitwise operations. Six pieces (37
// inputs) need a wider word: code is written against these helpers, not the raw bits, so the
// word type can grow without rewriting the passes.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <string>

#include "table/wdl.hpp"
#include "util/enum_names.hpp"

namespace egtmin::logic {

using CubeWord = uint64_t;

constexpr int kMaxInputs = 31;
constexpr CubeWord kOutputMask = CubeWord{3} << 62;
constexpr CubeWord kInputMask = ~kOutputMask;
constexpr CubeWord kLowBits = 0x1555555555555555ull;  // the "may be 1" bit of every input pair

enum class Output : uint8_t { None = 0, Win = 1, Draw = 2, Loss = 3 };  // White's point of view
// As reports spell them (util/enum_names.hpp); PLA files have their own spelling (logic/pla.cpp).
inline constexpr EnumName<Output> kOutputNames[] = {
    {Output::None, "none"}, {Output::Win, "white wins"}, {Output::Draw, "draw"}, {Output::Loss, "white loses"}};
constexpr std::span<const EnumName<Output>> enum_names(Output) { return kOutputNames; }

// The value for White of a representative whose cube has output `out` (the same codes: 1 W, 2 D,
// 3 L): a win or loss becomes a cursed win or blessed loss when the representative is one of the
// 50-move rule's draws (kept beside the cubes, see store/cover_file.hpp).
// Is the representative with this index in a cover's list of the rule's draws (ascending)? A
// binary search; the list is empty for most balances.
inline bool in_rule_draws(std::span<const uint32_t> draws, uint64_t index) {
  return !draws.empty() && std::binary_search(draws.begin(), draws.end(), uint32_t(index));
}
constexpr Wdl value_of(Output out, bool rule_draw) {
  const Wdl v = Wdl(uint8_t(out));
  if (!rule_draw) return v;
  return v == Wdl::Win ? Wdl::CursedWin : v == Wdl::Loss ? Wdl::BlessedLoss : v;
}

constexpr int pair_shift(int input) { return 60 - 2 * input; }
constexpr CubeWord pair_mask(int input) { return CubeWord{3} << pair_shift(input); }

constexpr Output output_of(CubeWord c) { return Output(c >> 62); }
constexpr CubeWord with_output(CubeWord c, Output o) { return (c & kInputMask) | (CubeWord(o) << 62); }

// The universal cube (every input don't care) with an output.
constexpr CubeWord universe(Output o) { return with_output(kInputMask, o); }

// The minterm of a table index of width n (bits()): input i is bit (n - 1 - i) of the index.
constexpr CubeWord minterm(uint64_t index, int n, Output o = Output::None) {
  CubeWord c = kInputMask;
  for (int i = 0; i < n; ++i) {
    bool bit = (index >> (n - 1 - i)) & 1;
    c &= ~(CubeWord{bit ? 2u : 1u} << pair_shift(i));
  }
  return with_output(c, o);
}

// Does cube c contain minterm m (inputs only)?
constexpr bool contains(CubeWord c, CubeWord m) { return ((c & m) & kInputMask) == (m & kInputMask); }
// Literal count: inputs that are not don't care.
inline int literals(CubeWord c) {
  CubeWord x = c & kInputMask;
  return std::popcount(~(x & (x >> 1)) & kLowBits);
}

// Paper-style text: inputs as 0/1/X (grouped 1 + 6 + 6 ...), then the output as 100/010/001.
std::string to_text(CubeWord c, int n);

}  // namespace egtmin::logic
