// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/region_index.hpp"

#include <algorithm>
#include <cstring>

#include "chess/attacks.hpp"
#include "table/symmetry.hpp"

namespace egtmin::probe {

namespace {

// The squares a cube admits for the piece in encoding slot `slot` (inputs 1 + 6 slot .. 6 + 6
// slot: the square's row bits, then its file bits, most significant first).
uint64_t square_mask(logic::CubeWord c, int slot) {
  auto admitted = [&](int first) {
    unsigned set = 0;
    for (unsigned v = 0; v < 8; ++v) {
      bool ok = true;
      for (int b = 0; b < 3 && ok; ++b) {
        const unsigned pair = unsigned(c >> logic::pair_shift(first + b)) & 3;
        ok = pair & ((v >> (2 - b) & 1) ? 1u : 2u);
      }
      if (ok) set |= 1u << v;
    }
    return set;
  };
  const unsigned rows = admitted(1 + 6 * slot), files = admitted(4 + 6 * slot);
  uint64_t mask = 0;
  for (unsigned r = 0; r < 8; ++r)
    if (rows >> r & 1) mask |= uint64_t(files) << (8 * r);
  return mask;
}

unsigned stm_mask(logic::CubeWord c) {
  const unsigned pair = unsigned(c >> logic::pair_shift(0)) & 3;
  return (pair & 2 ? 1u : 0u) | (pair & 1 ? 2u : 0u);  // bit 0: White to move, bit 1: Black
}

// Where the pieces sit in the encoding: Black's king, and the free pieces (the others but White's
// king, which is slot 0), in slot order.
struct Slots {
  int bk = 0, nfree = 0;
  std::array<int, 2> free{};
  explicit Slots(const Encoding& enc) {
    for (int i = 1; i < enc.pieces(); ++i)
      if (enc.piece(i) == make_piece(Black, King)) bk = i;
    for (int i = 1; i < enc.pieces(); ++i)
      if (i != bk && nfree < 2) free[size_t(nfree++)] = i;
  }
};

}  // namespace

bool RegionIndex::applies_to(const Encoding& enc) {
  const int k = enc.pieces();
  if (k < 3 || k > 4 || enc.piece(0) != make_piece(White, King)) return false;
  int black_kings = 0, slot = 0;
  for (int i = 1; i < k; ++i)
    if (enc.piece(i) == make_piece(Black, King)) ++black_kings, slot = i;
  return black_kings == 1 && slot >= 2;
}

namespace {

// The slots a region fixes (besides the side to move) and the free ones, in slot order.
struct Layout {
  int a = 0, b = 0, nfree = 0;
  std::array<int, 2> free{};
  Layout(int k, int fa, int fb) : a(fa), b(fb) {
    for (int i = 0; i < k; ++i)
      if (i != a && i != b) free[size_t(nfree++)] = i;
  }
  uint32_t region(uint32_t stm, const std::array<uint32_t, 4>& sq) const {
    return stm << 12 | sq[size_t(a)] << 6 | sq[size_t(b)];
  }
};

// Per cube: the side-to-move values and the squares it admits for every slot.
struct Shape {
  unsigned stm = 0;
  std::array<uint64_t, 4> sq{};
};

// Clears from a region's bitmap (one word with one free piece, else 64 words: bit f of word w for
// the first on w and the second on f) the positions whose free pieces stand on `first` and `second`.
void clear_held(uint64_t* t, int nfree, uint64_t first, uint64_t second) {
  if (nfree == 1)
    t[0] &= ~first;
  else
    for (uint64_t x = first; x; x &= x - 1) t[__builtin_ctzll(x)] &= ~second;
}

// One layout's regions: each region's cubes in the greedy cover's order.
struct Plan {
  std::vector<uint32_t> ids, first;  // first[r] .. first[r + 1]: region r's cubes in ids
  size_t largest = 0;
};

// Greedy set cover of each region's target (bitmaps over the free pieces' squares, `words` per
// region; consumed) by the cubes admitting the region (lazy: a cube's gain only falls). The order
// picked is also the best first-match order for uniformly drawn positions.
Plan greedy_plan(const std::vector<Shape>& shapes, const Layout& lay, std::vector<uint64_t>& target,
                 const std::vector<char>& live, size_t words) {
  const uint32_t regions = RegionIndex::kRegions;
  std::vector<std::vector<uint32_t>> in_region(regions);
  for (uint32_t c = 0; c < shapes.size(); ++c) {
    const Shape& s = shapes[c];
    for (unsigned stm = 0; stm < 2; ++stm) {
      if (!(s.stm >> stm & 1)) continue;
      for (uint64_t x = s.sq[size_t(lay.a)]; x; x &= x - 1)
        for (uint64_t y = s.sq[size_t(lay.b)]; y; y &= y - 1) {
          const uint32_t r = stm << 12 | uint32_t(__builtin_ctzll(x)) << 6 | uint32_t(__builtin_ctzll(y));
          if (live[r]) in_region[r].push_back(c);
        }
    }
  }
  const int nfree = lay.nfree;
  const size_t f0 = size_t(lay.free[0]), f1 = size_t(lay.free[1]);
  Plan plan;
  plan.first.assign(regions + 1, 0);
  std::vector<std::pair<uint64_t, uint32_t>> heap;  // (gain, cube) max-heap
  for (uint32_t r = 0; r < regions; ++r) {
    plan.first[r] = uint32_t(plan.ids.size());
    if (!live[r]) continue;
    uint64_t* left = target.data() + size_t(r) * words;
    auto gain = [&](uint32_t c) {
      const Shape& s = shapes[c];
      if (nfree == 1) return uint64_t(__builtin_popcountll(left[0] & s.sq[f0]));
      uint64_t g = 0;
      for (uint64_t x = s.sq[f0]; x; x &= x - 1)
        g += uint64_t(__builtin_popcountll(left[__builtin_ctzll(x)] & s.sq[f1]));
      return g;
    };
    heap.clear();
    for (uint32_t c : in_region[r])
      if (const uint64_t g = gain(c)) heap.push_back({g, c});
    in_region[r] = {};
    std::make_heap(heap.begin(), heap.end());
    const size_t before = plan.ids.size();
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end());
      const auto [old_gain, c] = heap.back();
      heap.pop_back();
      const uint64_t g = gain(c);
      if (g == 0) continue;
      if (g < old_gain && !heap.empty() && g < heap.front().first) {
        heap.push_back({g, c});
        std::push_heap(heap.begin(), heap.end());
        continue;
      }
      plan.ids.push_back(c);
      clear_held(left, nfree, shapes[c].sq[f0], shapes[c].sq[f1]);
    }
    plan.largest = std::max(plan.largest, plan.ids.size() - before);
  }
  plan.first[regions] = uint32_t(plan.ids.size());
  return plan;
}

}  // namespace

RegionIndex::RegionIndex(std::span<const logic::CubeWord> cubes, const Encoding& enc, const CoverCanon& canon,
                         std::span<const logic::CubeWord> answered, std::optional<std::pair<int, int>> fixed) {
  if (!applies_to(enc)) return;
  k_ = enc.pieces();
  const Slots kings(enc);
  const Layout king_layout(k_, 0, kings.bk);
  const size_t words = king_layout.nfree == 2 ? 64 : 1;

  auto shape_of = [&](logic::CubeWord c) {
    Shape s{stm_mask(c), {}};
    for (int i = 0; i < k_; ++i) s.sq[size_t(i)] = square_mask(c, i);
    return s;
  };
  std::vector<Shape> shapes(cubes.size());
  for (size_t c = 0; c < cubes.size(); ++c) shapes[c] = shape_of(cubes[c]);

  // The positions to answer, by king region (care() works per pair of kings): bitmaps over the
  // free pieces' squares. What the front line answers never reaches a region.
  std::vector<uint64_t> by_kings(size_t(kRegions) * words, 0);
  for (uint32_t r = 0; r < kRegions; ++r) {
    const std::vector<uint64_t> t = care(enc, canon, r >> 12, int(r >> 6) & 63, int(r & 63));
    std::copy(t.begin(), t.end(), by_kings.begin() + ptrdiff_t(size_t(r) * words));
  }
  for (logic::CubeWord c : answered) {
    const Shape s = shape_of(c);
    for (unsigned stm = 0; stm < 2; ++stm)
      if (s.stm >> stm & 1)
        for (uint64_t w = s.sq[0]; w; w &= w - 1)
          for (uint64_t b = s.sq[size_t(kings.bk)]; b; b &= b - 1) {
            const uint32_t r = stm << 12 | uint32_t(__builtin_ctzll(w)) << 6 | uint32_t(__builtin_ctzll(b));
            clear_held(by_kings.data() + size_t(r) * words, king_layout.nfree, s.sq[size_t(king_layout.free[0])],
                       s.sq[size_t(king_layout.free[1])]);
          }
  }

  // The same positions grouped by another layout's regions.
  auto regroup = [&](const Layout& lay, std::vector<uint64_t>& target, std::vector<char>& live) {
    target.assign(size_t(kRegions) * words, 0);
    live.assign(kRegions, 0);
    for (uint32_t r = 0; r < kRegions; ++r)
      for (size_t w = 0; w < words; ++w)
        for (uint64_t bits = by_kings[size_t(r) * words + w]; bits; bits &= bits - 1) {
          std::array<uint32_t, 4> sq{};
          sq[0] = (r >> 6) & 63;
          sq[size_t(kings.bk)] = r & 63;
          const uint32_t f = uint32_t(__builtin_ctzll(bits));
          if (words == 1)
            sq[size_t(king_layout.free[0])] = f;
          else
            sq[size_t(king_layout.free[0])] = uint32_t(w), sq[size_t(king_layout.free[1])] = f;
          const uint32_t to = lay.region(r >> 12, sq);
          live[to] = 1;
          if (words == 1)
            target[to] |= uint64_t{1} << sq[size_t(lay.free[0])];
          else
            target[size_t(to) * 64 + sq[size_t(lay.free[0])]] |= uint64_t{1} << sq[size_t(lay.free[1])];
        }
  };

  // Which pieces to fix: the cubes of a cover tend to pin some pieces and leave others free, and
  // a cube spans every region whose fixed squares it admits, so the layouts differ severalfold in
  // copies (KNvKP: 12.5 per cube with the kings fixed, 2.7 with knight and pawn). Unless told,
  // every pair is tried on an eighth of its regions (a fixed choice, so the index stays a function
  // of the cover; the full greedy for every pair took 6 to 10 times as long) and the one with the
  // fewest cubes kept.
  std::vector<uint64_t> target;
  std::vector<char> live;
  std::optional<Layout> best_layout;
  if (fixed) {
    const auto [a, b] = *fixed;
    if (a < 0 || b >= k_ || a >= b) return;
    best_layout = Layout(k_, a, b);
  } else {
    double best_cubes = 0;
    for (int a = 0; a < k_; ++a)
      for (int b = a + 1; b < k_; ++b) {
        const Layout lay(k_, a, b);
        regroup(lay, target, live);
        size_t all = 0, sampled = 0;
        for (uint32_t r = 0; r < kRegions; ++r) {
          if (!live[r]) continue;
          ++all;
          if (((r * 0x9E3779B1u) >> 29) == 0)
            ++sampled;
          else
            live[r] = 0;
        }
        if (sampled == 0) live.assign(kRegions, 0);  // nothing to estimate from: every pair alike
        const double cubes_needed =
            sampled ? double(greedy_plan(shapes, lay, target, live, words).ids.size()) * double(all) / double(sampled)
                    : 0;
        if (!best_layout || cubes_needed < best_cubes) best_cubes = cubes_needed, best_layout = lay;
      }
  }
  regroup(*best_layout, target, live);
  Plan best = greedy_plan(shapes, *best_layout, target, live, words);
  const Layout& lay = *best_layout;
  if (best.largest > kCountMask || best.ids.size() >> (32 - kCountBits)) return;  // too diffuse: the tree stays
  fixed_ = {lay.a, lay.b};
  free_ = lay.free;

  // Each region's cubes, restricted to the free pieces' inputs, with their outputs.
  std::vector<uint32_t> region_cubes(best.ids.size() + kScanPad, 0);
  std::vector<uint32_t> dir(kRegions, 0);
  auto field = [](logic::CubeWord c, int slot) { return uint32_t(c >> logic::pair_shift(6 + 6 * slot)) & 0xFFF; };
  for (uint32_t r = 0; r < kRegions; ++r) {
    const uint32_t first = best.first[r], n = best.first[r + 1] - first;
    if (n) dir[r] = first << kCountBits | n;
  }
  for (size_t j = 0; j < best.ids.size(); ++j) {
    const logic::CubeWord c = cubes[best.ids[j]];
    uint32_t w = field(c, lay.free[0]) << 12 | uint32_t(logic::output_of(c)) << kOutputShift;
    if (lay.nfree == 2) w |= field(c, lay.free[1]);
    region_cubes[j] = w;
  }
  // Directory and cubes in one run of 64-bit words, for the prober's arena.
  words_.assign(kRegions / 2 + (region_cubes.size() * sizeof(uint32_t) + 7) / 8, 0);
  std::memcpy(words_.data(), dir.data(), dir.size() * sizeof(uint32_t));
  std::memcpy(words_.data() + kRegions / 2, region_cubes.data(), region_cubes.size() * sizeof(uint32_t));
  ids_ = std::move(best.ids);
  first_id_ = std::move(best.first);
  ids_.shrink_to_fit();
  hot_size_ = words_.size();
  words_.shrink_to_fit();
}

std::vector<uint64_t> RegionIndex::care(const Encoding& enc, const CoverCanon& canon, uint32_t stm, int wk, int bk) {
  if (!applies_to(enc) || wk == bk || (kKingAttacks[size_t(wk)] & bb(Square(bk)))) return {};
  const Slots slots(enc);
  const int bk_slot = slots.bk, nfree = slots.nfree;
  const std::array<int, 2> fs = slots.free;
  std::array<Piece, 2> fp{};
  for (int i = 0; i < nfree; ++i) fp[size_t(i)] = enc.piece(fs[size_t(i)]);

  const bool by_symmetry = canon.scheme() != CanonScheme::None;
  // Black to move is the colour swap's business in symmetric balances under the full scheme.
  if (canon.scheme() == CanonScheme::Full && enc.balance().is_symmetric() && stm == 1) return {};
  // The representative is the smallest index among the symmetric images, and the white king's
  // square comes first in the index: it is the minimum of the king's orbit. Only with the king on
  // a symmetry axis does the rest of the placement decide (checked one by one below).
  const int group = enc.balance().has_pawns() ? 2 : 8;
  int orbit_min = 64, at_min = 0;
  for (int g = 0; g < group; ++g) orbit_min = std::min<int>(orbit_min, kTransforms[size_t(g)][size_t(wk)]);
  for (int g = 0; g < group; ++g) at_min += kTransforms[size_t(g)][size_t(wk)] == orbit_min;
  if (by_symmetry && orbit_min != wk) return {};
  const bool per_position = by_symmetry && at_min > 1;
  const bool ascending = by_symmetry && nfree == 2 && fp[0] == fp[1];  // identical pieces ascend

  // Legal as Encoding::is_legal has it: no shared squares, no pawn on rank 1 or 8, the side not
  // to move not in check.
  const Bitboard kings = bb(Square(wk)) | bb(Square(bk));
  const Color mover = Color(stm);
  const Square their_king = Square(stm == 0 ? bk : wk);
  auto allowed = [&](Piece p, Bitboard occ) { return ~occ & (type_of(p) == Pawn ? ~kPromotionRanks : ~Bitboard{0}); };
  auto checks = [&](Piece p, Square s, Bitboard occ) {
    return color_of(p) == mover && attacks_square(type_of(p), mover, s, their_king, occ);
  };
  std::vector<uint64_t> t(nfree == 2 ? 64 : 1, 0);
  for (Bitboard as = allowed(fp[0], kings); as;) {
    const Square sa = pop_lsb(as);
    if (nfree == 1) {
      if (!checks(fp[0], sa, kings | bb(sa))) t[0] |= bb(sa);
      continue;
    }
    for (Bitboard bs = allowed(fp[1], kings | bb(sa)); bs;) {
      const Square sb = pop_lsb(bs);
      const Bitboard occ = kings | bb(sa) | bb(sb);
      if (checks(fp[0], sa, occ) || checks(fp[1], sb, occ) || (ascending && sa > sb)) continue;
      t[sa] |= bb(sb);
    }
  }
  if (per_position)
    for (size_t w = 0; w < t.size(); ++w)
      for (uint64_t bits = t[w]; bits; bits &= bits - 1) {
        Placement p;
        p.stm = mover;
        p.sq[0] = Square(wk);
        p.sq[size_t(bk_slot)] = Square(bk);
        const unsigned f = unsigned(__builtin_ctzll(bits));
        if (nfree == 1)
          p.sq[size_t(fs[0])] = Square(f);
        else
          p.sq[size_t(fs[0])] = Square(w), p.sq[size_t(fs[1])] = Square(f);
        if (!canon.is_representative(p)) t[w] &= ~(uint64_t{1} << f);
      }
  if (std::all_of(t.begin(), t.end(), [](uint64_t w) { return w == 0; })) return {};
  return t;
}

logic::CubeWord RegionIndex::find(uint64_t index, std::span<const logic::CubeWord> cubes) const {
  if (!built()) return 0;
  const int inputs = 1 + 6 * k_;
  const uint32_t stm = uint32_t(index >> (6 * k_)) & 1;
  auto square = [&](int slot) { return uint32_t(index >> (6 * (k_ - 1 - slot))) & 63; };
  const uint32_t r = stm << 12 | square(fixed_.first) << 6 | square(fixed_.second);
  const logic::CubeWord m = logic::minterm(index, inputs);
  for (uint32_t j = first_id_[r]; j < first_id_[r + 1]; ++j)
    if (logic::contains(cubes[ids_[j]], m)) return cubes[ids_[j]];
  return 0;
}

}  // namespace egtmin::probe
