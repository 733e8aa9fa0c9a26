// SPDX-License-Identifier: GPL-3.0-or-later
// The lowest and highest set bits of a value known not to be zero. std::countr_zero and
// std::countl_zero define the zero case, and x86-64-v2 (no tzcnt, no lzcnt) pays for it with a
// test and a branch or a conditional move where the compiler cannot see that the value is not
// zero. On the probe's and the generator's hot paths it never is (a piece's bitboard, a square's
// candidate transforms), and saying so drops that code.
#pragma once

#include <bit>
#include <concepts>

namespace egtmin {

template <std::unsigned_integral T>
constexpr int lowest_bit(T x) {
  if (x == 0) __builtin_unreachable();
  return std::countr_zero(x);
}

template <std::unsigned_integral T>
constexpr int highest_bit(T x) {
  if (x == 0) __builtin_unreachable();
  return int(std::bit_width(x)) - 1;
}

}  // namespace egtmin
