// SPDX-License-Identifier: GPL-3.0-or-later
// Where a 5-piece probe's bytes go, region by region: a region fixes the side to move and every
// piece but two free ones (4,096 placements, as the probe's region index at five pieces). For
// randomly drawn regions holding care positions, the region's function of the two free pieces'
// twelve square inputs is minimized on its own (the default passes, without canonicalization:
// non-representatives and illegal placements are don't-cares) and its commonest value taken as the
// fallback, which needs no cubes. Prints the mean cubes a region then needs, its care positions and
// those of other values than the fallback, and the distribution of cubes per region.
//
//   egtmin_region_study TABLE_FILE REGIONS FREE_SLOT_A FREE_SLOT_B [SEED]
//
// Slots are the table's encoding order (printed first). Compare the mean with the cube copies per
// region of the cover's region index (docs/measured.md).
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>

#include "logic/pass_sequence.hpp"
#include "logic/pipeline.hpp"
#include "table/table.hpp"

using namespace egtmin;

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s TABLE_FILE REGIONS FREE_SLOT_A FREE_SLOT_B [SEED]\n", argv[0]);
    return 2;
  }
  auto t = Table::load(argv[1]);
  if (!t) {
    std::fprintf(stderr, "%s\n", t.error().message.c_str());
    return 1;
  }
  const int regions = std::atoi(argv[2]), free_a = std::atoi(argv[3]), free_b = std::atoi(argv[4]);
  const Encoding& enc = t->encoding();
  const int k = enc.pieces();
  if (regions <= 0 || free_a < 0 || free_b < 0 || free_a >= k || free_b >= k || free_a == free_b) {
    std::fprintf(stderr, "REGIONS must be positive and the free slots two different slots below %d\n", k);
    return 2;
  }
  std::printf("%s: slots", t->balance().name().c_str());
  for (int i = 0; i < k; ++i) std::printf(" %d=%c", i, piece_char(enc.piece(i)));
  std::printf("; free %d and %d\n", free_a, free_b);
  auto passes = logic::parse_passes("compact,expand,irredundant");
  logic::MinimizeOptions options;
  options.canon = CanonScheme::None;
  std::mt19937_64 rng(argc > 5 ? std::strtoull(argv[5], nullptr, 10) : 7);
  std::map<int, int> histogram;  // cubes / 8 -> regions
  uint64_t cubes = 0, exceptions = 0, care = 0;
  for (int done = 0; done < regions;) {
    Placement base;
    base.stm = Color(rng() & 1);
    for (int i = 0; i < k; ++i) base.sq[size_t(i)] = Square(rng() & 63);
    std::vector<uint8_t> values(4096, 0);
    std::array<uint64_t, 4> count{};
    for (int a = 0; a < 64; ++a)
      for (int b = 0; b < 64; ++b) {
        Placement p = base;
        p.sq[size_t(free_a)] = Square(a);
        p.sq[size_t(free_b)] = Square(b);
        if (!enc.is_legal(p) || !t->symmetry().is_canonical(p)) continue;
        const Wdl v = fold(t->value(p));  // the cubes' outputs: win, draw, loss (as Wdl's codes 1-3)
        if (v == Wdl::Illegal) continue;
        const auto o = logic::Output(uint8_t(v));
        values[size_t(a * 64 + b)] = uint8_t(o);
        ++count[size_t(o)];
      }
    const uint64_t region_care = count[1] + count[2] + count[3];
    if (!region_care) continue;
    int fallback = 1;
    for (int o = 2; o <= 3; ++o)
      if (count[size_t(o)] > count[size_t(fallback)]) fallback = o;
    auto m = logic::minimize_function(logic::CareFunction::from_values(12, values), *passes, options);
    if (!m) {
      std::fprintf(stderr, "%s\n", m.error().message.c_str());
      return 1;
    }
    int needed = 0;
    for (logic::CubeWord c : m->cover) needed += int(logic::output_of(c)) != fallback;
    ++histogram[needed / 8];
    cubes += uint64_t(needed);
    exceptions += region_care - count[size_t(fallback)];
    care += region_care;
    ++done;
  }
  std::printf("%d regions: %.1f cubes a region beside its fallback; %.1f care positions, %.1f of other values\n",
              regions, double(cubes) / regions, double(care) / regions, double(exceptions) / regions);
  int cumulative = 0;
  for (auto [bin, n] : histogram) {
    cumulative += n;
    std::printf("  %3d-%3d cubes: %5d regions (%.2f cumulative)\n", bin * 8, bin * 8 + 7, n,
                double(cumulative) / regions);
  }
}
