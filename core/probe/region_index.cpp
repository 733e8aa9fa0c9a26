// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/region_index.hpp"

#include <algorithm>

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

// A cube restricted to a region: the squares it admits for each free piece.
struct Restricted {
  std::array<uint64_t, 2> free{};
  uint32_t id = 0;
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

RegionIndex::RegionIndex(std::span<const logic::CubeWord> cubes, const Encoding& enc, const CoverCanon& canon,
                         std::span<const logic::CubeWord> answered) {
  if (!applies_to(enc)) return;
  k_ = enc.pieces();
  const Slots slots(enc);
  bk_slot_ = slots.bk;
  const int nfree = slots.nfree;
  const std::array<int, 2> fs = slots.free;

  // Per cube: the regions it admits (side to move, each king's square) and its free pieces' squares.
  struct Shape {
    unsigned stm;
    uint64_t wk, bk;
    std::array<uint64_t, 2> free;
  };
  auto shape_of = [&](logic::CubeWord c) {
    Shape s{stm_mask(c), square_mask(c, 0), square_mask(c, bk_slot_), {}};
    for (int i = 0; i < nfree; ++i) s.free[size_t(i)] = square_mask(c, fs[size_t(i)]);
    return s;
  };
  std::vector<Shape> shapes(cubes.size());
  for (size_t c = 0; c < cubes.size(); ++c) shapes[c] = shape_of(cubes[c]);
  std::vector<Shape> answered_shapes;
  for (logic::CubeWord c : answered) answered_shapes.push_back(shape_of(c));

  // The regions' positions to answer, as bitmaps over the free pieces' squares.
  const size_t words = nfree == 2 ? 64 : 1;
  std::vector<uint64_t> target(size_t(kRegions) * words, 0);
  std::vector<char> live(kRegions, 0);
  for (uint32_t r = 0; r < kRegions; ++r) {
    const std::vector<uint64_t> t = care(enc, canon, r >> 12, int(r >> 6) & 63, int(r & 63));
    if (t.empty()) continue;
    std::copy(t.begin(), t.end(), target.begin() + ptrdiff_t(size_t(r) * words));
    live[r] = 1;
  }

  // Cubes by region, for the live regions only.
  std::vector<std::vector<uint32_t>> in_region(kRegions);
  auto each_region = [&](const Shape& s, auto&& fn) {
    for (unsigned stm = 0; stm < 2; ++stm) {
      if (!(s.stm >> stm & 1)) continue;
      for (uint64_t w = s.wk; w; w &= w - 1)
        for (uint64_t b = s.bk; b; b &= b - 1) {
          const uint32_t r = stm << 12 | uint32_t(__builtin_ctzll(w)) << 6 | uint32_t(__builtin_ctzll(b));
          if (live[r]) fn(r);
        }
    }
  };
  for (uint32_t c = 0; c < shapes.size(); ++c) each_region(shapes[c], [&](uint32_t r) { in_region[r].push_back(c); });
  // Clears from a region's bitmap the positions a cube (its free pieces' squares) holds.
  auto clear_held = [&](uint64_t* t, const std::array<uint64_t, 2>& free) {
    if (nfree == 1) t[0] &= ~free[0];
    else
      for (uint64_t a = free[0]; a; a &= a - 1) t[__builtin_ctzll(a)] &= ~free[1];
  };
  // What the front line answers never reaches a region.
  for (const Shape& s : answered_shapes)
    each_region(s, [&](uint32_t r) { clear_held(target.data() + size_t(r) * words, s.free); });

  // Each region: greedy set cover of its target by its cubes (lazy: a cube's gain only falls), in
  // the order picked, which is also the best first-match order for uniformly drawn positions.
  const uint32_t rows = kFirstPieceRow + kRowsPerPiece * uint32_t(nfree);
  words_.assign(kRegions / 2, 0);
  first_id_.assign(kRegions, 0);
  std::vector<Restricted> cand;
  std::vector<std::pair<uint64_t, uint32_t>> heap;  // (gain, candidate) max-heap
  std::vector<uint32_t> picked;
  for (uint32_t r = 0; r < kRegions; ++r) {
    first_id_[r] = uint32_t(ids_.size());
    if (!live[r]) continue;
    uint64_t* left = target.data() + size_t(r) * words;
    auto gain = [&](const Restricted& c) {
      if (nfree == 1) return uint64_t(__builtin_popcountll(left[0] & c.free[0]));
      uint64_t g = 0;
      for (uint64_t a = c.free[0]; a; a &= a - 1) g += uint64_t(__builtin_popcountll(left[__builtin_ctzll(a)] & c.free[1]));
      return g;
    };
    cand.clear();
    heap.clear();
    picked.clear();
    for (uint32_t c : in_region[r]) {
      const Restricted rc{shapes[c].free, c};
      if (const uint64_t g = gain(rc)) {
        heap.push_back({g, uint32_t(cand.size())});
        cand.push_back(rc);
      }
    }
    std::make_heap(heap.begin(), heap.end());
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end());
      const auto [old_gain, i] = heap.back();
      heap.pop_back();
      const uint64_t g = gain(cand[i]);
      if (g == 0) continue;
      if (g < old_gain && !heap.empty() && g < heap.front().first) {
        heap.push_back({g, i});
        std::push_heap(heap.begin(), heap.end());
        continue;
      }
      picked.push_back(i);
      clear_held(left, cand[i].free);
    }
    in_region[r] = {};
    if (picked.empty()) continue;
    const size_t blocks = (picked.size() + 63) / 64;
    if (blocks > kBlocksMask) {  // too diffuse for one directory entry: leave it to the tree
      *this = RegionIndex();
      return;
    }
    const size_t base = words_.size();
    if (base >> (32 - kOffsetShift)) {
      *this = RegionIndex();
      return;
    }
    words_.resize(base + rows * blocks, 0);
    reinterpret_cast<uint32_t*>(words_.data())[r] = uint32_t(base - kRegions / 2) << kOffsetShift | uint32_t(blocks);
    uint64_t* slab = words_.data() + base;
    for (size_t j = 0; j < picked.size(); ++j) {
      const Restricted& c = cand[picked[j]];
      const size_t b = j / 64;
      const uint64_t bit = uint64_t{1} << (j % 64);
      ids_.push_back(c.id);
      const unsigned o = unsigned(logic::output_of(cubes[c.id]));
      uint64_t* block = slab + b * rows;
      if (o >> 1 & 1) block[kOutHiRow] |= bit;
      if (o & 1) block[kOutLoRow] |= bit;
      for (int p = 0; p < nfree; ++p) {
        const uint64_t sq = c.free[size_t(p)];
        const uint32_t row = kFirstPieceRow + kRowsPerPiece * uint32_t(p);
        for (unsigned v = 0; v < 8; ++v) {
          if (sq >> (8 * v) & 0xFF) block[row + v] |= bit;                        // some square on row v
          if (sq & (0x0101010101010101ull << v)) block[row + 8 + v] |= bit;  // on file v
        }
      }
    }
  }
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
        if (nfree == 1) p.sq[size_t(fs[0])] = Square(f);
        else p.sq[size_t(fs[0])] = Square(w), p.sq[size_t(fs[1])] = Square(f);
        if (!canon.is_representative(p)) t[w] &= ~(uint64_t{1} << f);
      }
  if (std::all_of(t.begin(), t.end(), [](uint64_t w) { return w == 0; })) return {};
  return t;
}

logic::CubeWord RegionIndex::find(uint64_t index, std::span<const logic::CubeWord> cubes) const {
  if (!built()) return 0;
  const int inputs = 1 + 6 * k_;
  const uint32_t stm = uint32_t(index >> (6 * k_)) & 1;
  const uint32_t wk = uint32_t(index >> (6 * (k_ - 1))) & 63, bk = uint32_t(index >> (6 * (k_ - 1 - bk_slot_))) & 63;
  const uint32_t r = stm << 12 | wk << 6 | bk;
  const size_t n = (r + 1 < kRegions ? first_id_[r + 1] : ids_.size()) - first_id_[r];
  const logic::CubeWord m = logic::minterm(index, inputs);
  for (size_t j = 0; j < n; ++j) {
    const logic::CubeWord c = cubes[ids_[first_id_[r] + j]];
    if (logic::contains(c, m)) return c;
  }
  return 0;
}

}  // namespace egtmin::probe
