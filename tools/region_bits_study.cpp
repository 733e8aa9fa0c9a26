// SPDX-License-Identifier: GPL-3.0-or-later
// How many cube copies a region index needs when its regions fix chosen input bits rather than
// whole pieces' squares. The region index (core/probe/region_index.hpp) fixes the side to move and
// the squares of all pieces but two, and copies a cube into every region it reaches: 2 to the
// number of don't-care inputs it has among the fixed ones. Here the same number of fixed inputs
// (1 + 6 * (pieces - 2)) is chosen greedily one input at a time, the side to move first, each time
// the input that leaves the fewest copies, and the copies are compared with the best choice of
// whole pieces. Copies are counted over every cube of the cover: an upper bound on both sides
// (the index leaves out cubes the front line answers and keeps per region only what a greedy set
// cover of the region's positions picks).
//
//   egtmin_region_bits_study COVER_FILE
#include <algorithm>
#include <bit>
#include <cstdio>
#include <vector>

#include "logic/cube.hpp"
#include "store/cover_file.hpp"
#include "table/encoding.hpp"

using namespace egtmin;

namespace {

// Copies of every cube over the regions that fix `inputs`.
double copies(const std::vector<logic::CubeWord>& cubes, const std::vector<int>& inputs) {
  double total = 0;
  for (logic::CubeWord c : cubes) {
    int free = 0;
    for (int i : inputs) free += ((c >> logic::pair_shift(i)) & 3) == 3;
    total += double(uint64_t{1} << free);
  }
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s COVER_FILE\n", argv[0]);
    return 2;
  }
  auto cover = store::load_cover(argv[1]);
  if (!cover) {
    std::fprintf(stderr, "%s\n", cover.error().message.c_str());
    return 1;
  }
  const std::vector<logic::CubeWord>& cubes = cover->cubes;
  const int inputs = cover->inputs;
  const int pieces = (inputs - 1) / kSquareBits;
  if (pieces < 3) {
    std::fprintf(stderr, "a region index needs at least 3 pieces\n");
    return 2;
  }
  const int fixed_pieces = pieces - 2;
  const size_t fixed = size_t(inputs_for(fixed_pieces));
  std::printf("%s: %zu cubes, %d inputs, regions fix %zu inputs\n", argv[1], cubes.size(), inputs, fixed);

  // Whole pieces: every choice of fixed_pieces of them.
  double best_pieces = 0;
  std::vector<int> best_set;
  for (unsigned mask = 0; mask < (1u << pieces); ++mask) {
    if (std::popcount(mask) != fixed_pieces) continue;
    std::vector<int> set{0};
    for (int p = 0; p < pieces; ++p)
      if (mask >> p & 1)
        for (int b = 0; b < kSquareBits; ++b) set.push_back(square_input(p) + b);
    const double c = copies(cubes, set);
    std::printf("  pieces");
    for (int p = 0; p < pieces; ++p)
      if (mask >> p & 1) std::printf(" %d", p);
    std::printf(": %.0f copies (%.2f a cube)\n", c, c / double(cubes.size()));
    if (best_set.empty() || c < best_pieces) best_pieces = c, best_set = set;
  }

  // Chosen inputs, greedily.
  std::vector<int> chosen{0};
  while (chosen.size() < fixed) {
    int best = -1;
    double best_c = 0;
    for (int i = 1; i < inputs; ++i) {
      if (std::find(chosen.begin(), chosen.end(), i) != chosen.end()) continue;
      std::vector<int> trial = chosen;
      trial.push_back(i);
      const double c = copies(cubes, trial);
      if (best < 0 || c < best_c) best = i, best_c = c;
    }
    chosen.push_back(best);
  }
  const double c = copies(cubes, chosen);
  std::printf("  inputs");
  for (int i : chosen) std::printf(" %d", i);
  std::printf(": %.0f copies (%.2f a cube), %.3f of the best pieces'\n", c, c / double(cubes.size()), c / best_pieces);
}
