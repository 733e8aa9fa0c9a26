// SPDX-License-Identifier: GPL-3.0-or-later
// Cubes and Boolean functions for the logic and store tests: a cube from its text, a random
// partial function with structure enough for cubes to grow, random cube lists, sorted copies.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "logic/cube.hpp"

namespace egtmin::test {

// "01-" style, input 0 first.
inline logic::CubeWord cube_of(const std::string& s, logic::Output o) {
  logic::CubeWord c = logic::kInputMask;
  for (size_t i = 0; i < s.size(); ++i) {
    const logic::CubeWord pair = s[i] == '0' ? 2 : s[i] == '1' ? 1 : 3;
    c = (c & ~logic::pair_mask(int(i))) | (pair << logic::pair_shift(int(i)));
  }
  return logic::with_output(c, o);
}

// A function of n inputs: about dc_share of its minterms don't-cares (0), the others W/D/L (1-3),
// which depend mostly on the top two inputs (80 %) so that cubes can grow, else at random.
inline std::vector<uint8_t> random_values(int n, double dc_share, std::mt19937_64& rng) {
  std::vector<uint8_t> v(size_t(1) << n);
  std::uniform_real_distribution<double> u(0, 1);
  for (size_t i = 0; i < v.size(); ++i) {
    if (u(rng) < dc_share) continue;
    const int base = int((i >> (n - 2)) % 3) + 1;
    v[i] = uint8_t(u(rng) < 0.8 ? base : int(rng() % 3) + 1);
  }
  return v;
}

// Random cubes of `inputs` inputs: outputs W/D/L, each input fixed with probability `fixed`.
inline std::vector<logic::CubeWord> random_cubes(int inputs, size_t count, double fixed, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<logic::CubeWord> cubes;
  for (size_t i = 0; i < count; ++i) {
    logic::CubeWord c = logic::universe(logic::Output(1 + rng() % 3));
    for (int k = 0; k < inputs; ++k)
      if (u(rng) < fixed) c &= ~(logic::CubeWord{(rng() & 1) ? 1u : 2u} << logic::pair_shift(k));
    cubes.push_back(c);
  }
  return cubes;
}

inline std::vector<logic::CubeWord> sorted(std::vector<logic::CubeWord> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace egtmin::test
