// SPDX-License-Identifier: GPL-3.0-or-later
// Whether a five-piece layout's regions would take fewer bytes as lists of their exceptions than
// as cubes. A region (the side to move and three fixed pieces' squares) answers its positions
// with a fallback value and cubes for the positions of other values; the same region could list
// those positions themselves (their places among the region's 4,096 placements of the two free
// pieces, Elias-Fano coded, and a bit of value each where two values need one), which costs
// nothing for the don't-cares a cube must grow over. Where values follow rows and files a cube
// holds many positions; where they follow diagonals and colours (the bishops' balances) a cube
// holds few, and a list of positions may be shorter.
//
// For every region of the layout's choice of fixed pieces, from the capture-resolved table (the
// positions the capture search decides are don't-cares, and those it caps at a draw count
// against a fallback of the side to move's win only): the care positions, the fallback (their
// commonest value), the exceptions, and the layout's own cubes for the region. Prints the bytes of
// the regions' cubes (4 a cube), of their exceptions listed, and of each region's smaller form
// (a bit a region saying which).
//
//   egtmin_region_exceptions_study DATA_DIR NAME
//
// Reads DATA_DIR/tables (the balance's table and those its captures reach) and the
// capture-resolved cover's layout DATA_DIR/covers/NAME.egtlr.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "probe/probe_layout.hpp"
#include "store/cover_file.hpp"
#include "table/capture_resolve.hpp"
#include "table/table_store.hpp"

using namespace egtmin;

namespace {

constexpr uint64_t kPlacements = 4096;  // the two free pieces' squares

// Bits of an Elias-Fano list of k places among u: k (2 + floor(log2(u / k))) and the count.
double elias_fano_bits(uint64_t k, uint64_t u) {
  if (k == 0) return 0;
  const double low = k >= u ? 0 : std::floor(std::log2(double(u) / double(k)));
  return double(k) * (2 + low) + 12;
}

struct Totals {
  uint64_t regions = 0, care = 0, exceptions = 0, cubes = 0, list_regions = 0, unheld = 0;
  double cube_bits = 0, list_bits = 0, smaller_bits = 0, hybrid_bits = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: egtmin_region_exceptions_study DATA_DIR NAME\n");
    return 2;
  }
  const std::filesystem::path data = argv[1];
  const auto balance = Balance::parse(argv[2]);
  if (!balance) {
    std::fprintf(stderr, "%s: %s\n", argv[2], balance.error().message.c_str());
    return 2;
  }
  const auto cover_file = store::cover_path(data, *balance, store::CoverKind::CaptureResolved);
  auto id = probe::cover_identity(cover_file);
  if (!id) {
    std::fprintf(stderr, "%s\n", id.error().message.c_str());
    return 1;
  }
  auto lc = probe::open_layout(probe::layout_path(cover_file), *id, cover_file);
  if (!lc) {
    std::fprintf(stderr, "%s\n", lc.error().message.c_str());
    return 1;
  }
  const probe::RegionIndex& ri = (*lc)->region;
  if (!ri.built() || ri.pieces() != 5) {
    std::fprintf(stderr, "%s: the layout has no five-piece region index\n", argv[2]);
    return 1;
  }
  TableStore store(data);
  auto table = store.get(*balance);
  if (!table) {
    std::fprintf(stderr, "%s\n", table.error().message.c_str());
    return 1;
  }
  auto resolved = resolve_captures(**table, store.lookup(), 2);
  if (!resolved) {
    std::fprintf(stderr, "%s\n", resolved.error().message.c_str());
    return 1;
  }
  const Table& t = resolved->table;
  const Encoding& enc = t.encoding();
  const CoverCanon& canon = (*lc)->canon;
  const std::vector<int> fixed = ri.fixed_slots();
  const probe::RegionIndex::Hot hot = ri.hot();
  std::vector<int> free;
  for (int s = 0; s < 5; ++s)
    if (std::find(fixed.begin(), fixed.end(), s) == fixed.end()) free.push_back(s);

  // Regions numbered stm, then the fixed squares; split between two threads.
  const uint64_t regions = uint64_t{2} << (3 * kSquareBits);
  std::array<Totals, 2> part;
  std::atomic<uint64_t> next{0};
  auto work = [&](Totals& tot) {
    for (uint64_t r; (r = next.fetch_add(1)) < regions;) {
      Placement p;
      p.stm = Color(r >> (3 * kSquareBits));
      for (int i = 0; i < 3; ++i) p.sq[size_t(fixed[size_t(i)])] = Square((r >> (kSquareBits * (2 - i))) & kSquareMask);
      // The region's exceptions: care positions (the capped ones too) a region cube answers, by
      // the place of the first cube holding them; the rest the fallback answers.
      std::vector<uint32_t> first_cube;
      std::array<bool, 4> value_seen{};
      uint64_t care = 0, any_index = 0;
      bool any = false;
      for (uint64_t f = 0; f < kPlacements; ++f) {
        p.sq[size_t(free[0])] = Square(f >> kSquareBits);
        p.sq[size_t(free[1])] = Square(f & kSquareMask);
        if (!enc.is_legal(p) || !canon.is_representative(p)) continue;
        const uint64_t index = enc.encode(p);
        if (!any) any = true, any_index = index;
        const uint64_t slot = t.symmetry().canonical_slot(p);
        const bool capped = resolved->at_most_draw_slot(slot);
        const Wdl v = fold(t.at_slot(slot));
        if (v == Wdl::Illegal && !capped) continue;
        ++care;
        // An exception: a value other than the region's fallback, or a capped position where the
        // fallback is the side to move's win (White's win with White to move, else White's loss).
        const uint32_t fallback =
            probe::RegionIndex::locate<5>(hot, uint32_t(p.stm), uint32_t(index & ((uint64_t{1} << 30) - 1))).fallback;
        const uint32_t stm_win = p.stm == White ? uint32_t(Wdl::Win) : uint32_t(Wdl::Loss);
        if (capped ? fallback != stm_win : uint32_t(v) == fallback) continue;
        const probe::RegionIndex::Answer a = ri.answer(index);
        if (a.cube < 0) {
          ++tot.unheld;
          continue;
        }
        first_cube.push_back(uint32_t(a.cube));
        value_seen[size_t(ri.output(index))] = true;
      }
      if (!any) continue;
      ++tot.regions;
      tot.care += care;
      const uint64_t cubes = ri.answer(any_index).region_cubes;
      const int values = int(value_seen[1]) + int(value_seen[2]) + int(value_seen[3]);
      const double value_bits = values > 1 ? (values > 2 ? 2 : 1) : 0;
      const uint64_t k = first_cube.size();
      const double list = elias_fano_bits(k, kPlacements) + value_bits * double(k);
      // The first c cubes kept, the exceptions they do not hold listed: the cheapest c.
      std::sort(first_cube.begin(), first_cube.end());
      double hybrid = 32.0 * double(cubes);
      for (uint64_t c = 0, left = k, at = 0; c < cubes; ++c) {
        while (at < k && first_cube[at] < c) ++at, --left;
        hybrid = std::min(hybrid, 32.0 * double(c) + elias_fano_bits(left, kPlacements) + value_bits * double(left));
      }
      tot.exceptions += k;
      tot.cubes += cubes;
      tot.cube_bits += 32.0 * double(cubes);
      tot.list_bits += list;
      tot.smaller_bits += std::min(list, 32.0 * double(cubes)) + 1;
      tot.hybrid_bits += hybrid + 1;
      tot.list_regions += list < 32.0 * double(cubes);
    }
  };
  std::thread helper(work, std::ref(part[1]));
  work(part[0]);
  helper.join();
  Totals s = part[0];
  s.regions += part[1].regions, s.care += part[1].care, s.exceptions += part[1].exceptions;
  s.cubes += part[1].cubes, s.list_regions += part[1].list_regions, s.unheld += part[1].unheld;
  s.cube_bits += part[1].cube_bits, s.list_bits += part[1].list_bits, s.smaller_bits += part[1].smaller_bits;
  s.hybrid_bits += part[1].hybrid_bits;
  std::printf(
      "%s: fixed slots %d %d %d; %llu regions with positions, %llu care positions, %llu exceptions, "
      "%llu region cubes (%llu exceptions no cube holds)\n",
      balance->name().c_str(), fixed[0], fixed[1], fixed[2], (unsigned long long)s.regions, (unsigned long long)s.care,
      (unsigned long long)s.exceptions, (unsigned long long)s.cubes, (unsigned long long)s.unheld);
  std::printf(
      "  cubes %.0f bytes; exceptions listed %.0f bytes; each region's smaller %.0f bytes (%llu regions "
      "listed), %.3fx the cubes\n",
      s.cube_bits / 8, s.list_bits / 8, s.smaller_bits / 8, (unsigned long long)s.list_regions,
      s.smaller_bits / s.cube_bits);
  std::printf(
      "  the first cubes kept and the exceptions they leave listed, each region's best cut: %.0f bytes, %.3fx "
      "the cubes\n",
      s.hybrid_bits / 8, s.hybrid_bits / s.cube_bits);
  return 0;
}
