// SPDX-License-Identifier: GPL-3.0-or-later
// CoverProber::probe_wdl, the probe hot path, defined in a header so that callers probing many
// positions in a loop (engines, the benchmark) compile it into the loop: no call, no saving of
// six registers per probe, and the loop's next probe can be scheduled beside this one. Included
// by cover_prober.hpp only.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "table/symmetry.hpp"
#include "util/bits.hpp"
#include "util/key_hash.hpp"

namespace egtmin::probe {
namespace hot {

// Bit j of a byte moved to bit 2j: builds minterms with four table reads instead of a loop over
// the inputs.
inline constexpr auto kSpread = [] {
  std::array<uint16_t, 256> t{};
  for (int b = 0; b < 256; ++b)
    for (int j = 0; j < 8; ++j)
      if (b >> j & 1) t[size_t(b)] |= uint16_t(1u << (2 * j));
  return t;
}();

inline uint64_t spread(uint64_t x) {
  return uint64_t(kSpread[x & 255]) | uint64_t(kSpread[(x >> 8) & 255]) << 16 |
         uint64_t(kSpread[(x >> 16) & 255]) << 32 | uint64_t(kSpread[(x >> 24) & 255]) << 48;
}

// logic::minterm(index, n) without the loop: index bit j becomes input n-1-j, whose pair sits at
// bits 63-2n+2j ("may be 0") and 62-2n+2j ("may be 1"); inputs beyond n stay 11.
inline logic::CubeWord fast_minterm(uint64_t index, int n) {
  const uint64_t width = (uint64_t{1} << n) - 1;
  return (spread(index) << (62 - 2 * n)) | (spread(~index & width) << (63 - 2 * n)) |
         ((uint64_t{1} << (62 - 2 * n)) - 1);
}

// `v`, kept in a general register. The hot path's per-piece values come from scalar stores, and
// GCC's straight-line vectorizer packs the selects below into vector registers, which load them
// back with one wide load: the load cannot take its bytes from the pending stores, and the stall
// is a large share of a short probe (docs/measured.md). The empty asm emits nothing.
inline uint32_t in_register(uint32_t v) {
  asm("" : "+r"(v));
  return v;
}

inline constexpr uint64_t kNoKey = ~uint64_t{0};
using egtmin::key_hash;

// The board transforms Symmetry::canonical tries for a white king on each square, by symmetry
// mode (0 none, 1 the left-right mirror, 2 all eight): those taking the king to its orbit's
// minimum, one, or two when the king is on a diagonal (then the smaller index decides; the second
// equals the first when there is only one). Shared by all covers, so the 384 bytes stay in L1.
struct CanonTransforms {
  std::array<std::array<uint8_t, 64>, 3> first{}, second{};
};
inline constexpr CanonTransforms kCanonTransforms = [] {
  CanonTransforms t;
  for (int mode = 0; mode < 3; ++mode) {
    const int group = mode == 0 ? 1 : mode == 1 ? 2 : 8;
    for (int s = 0; s < 64; ++s) {
      int best = 64;
      for (int g = 0; g < group; ++g) best = std::min<int>(best, kTransforms[size_t(g)][size_t(s)]);
      int n = 0;
      for (int g = 0; g < group; ++g)
        if (kTransforms[size_t(g)][size_t(s)] == best) {
          if (n++ == 0) t.first[size_t(mode)][size_t(s)] = uint8_t(g);
          t.second[size_t(mode)][size_t(s)] = uint8_t(g);
        }
    }
  }
  return t;
}();

// The representative's squares under board transform g, identical pieces in ascending order
// (fewer than four pieces have none in a canonical balance, four at most the pair of slots 1 and
// 2: a fixed count, so no loop branch to mispredict). The pair is ordered for every balance,
// through a zero mask for the 25 of 30 without one: a branch on the balance would mispredict
// across a mix of balances, where the mask costs two operations. Five pieces: transformed_index5.
template <int K>
inline std::array<uint32_t, K> transformed(const std::array<uint32_t, K>& sq, unsigned g,
                                           const CoverProber::HotEntry& e) {
  static_assert(K <= 4);
  const auto& table = kTransforms[g];
  std::array<uint32_t, K> t;
  for (int i = 0; i < K; ++i) t[size_t(i)] = table[sq[size_t(i)]];
  if constexpr (K == 4) {
    // Mask arithmetic, not a conditional: GCC turns `swap ? b : a` into a branch, and the order
    // of two random squares is a coin flip, so that branch would mispredict half the time.
    const uint32_t a = t[1], b = t[2];
    const uint32_t d = (a ^ b) & (0u - (uint32_t(a > b) & e.sort_pair12));
    t[1] = a ^ d;
    t[2] = b ^ d;
  }
  return t;
}

// Five pieces: the representative's packed index under board transform g, made and sorted in a
// register. Inlined, and packed rather than returned as an array: a called function returning
// squares makes the two candidates a large part of a probe's work (packing, shifts from slot
// numbers, the array's round trip through memory; docs/measured.md). The compare-exchanges (on
// shifts known at run time) are only the balance's own: none for most balances, whose probes then
// predict the loop's exit.
[[gnu::always_inline]] inline uint64_t transformed_index5(const std::array<uint32_t, 5>& sq, unsigned g,
                                                          const CoverProber::HotEntry& e) {
  const auto& table = kTransforms[g];
  uint64_t idx = 0;
  for (size_t i = 0; i < 5; ++i) idx = (idx << kSquareBits) | table[sq[i]];
  for (unsigned x = 0; x < e.exchanges; ++x) idx = exchange_fields(idx, e.exchange_shift[x][0], e.exchange_shift[x][1]);
  return idx;
}

// A probe that block 0 of the front line missed: the rest of the front line, then the tree or,
// when the cover has a region index (which replaces the tree: CubeIndex::drop_tree), the regions.
// The region's cubes are far away (L3 or memory), so they are fetched while the rest of the front
// line is scanned; its query is made once, and a cover with regions walks no empty tree.
// `placement`: the squares `t` packed, as an index has them.
template <int K>
[[gnu::always_inline]] inline logic::Output after_front0(const CoverProber::HotEntry& e, unsigned stm,
                                                         const std::array<uint32_t, K>& t, uint64_t placement) {
  if constexpr (K >= 3) {
    if (e.region.present()) {
      const RegionIndex::Query q = RegionIndex::locate<K>(e.region, stm, uint32_t(placement));
      RegionIndex::prefetch(e.region, q);
      const logic::Output out = CubeIndex::find_output_front_rest<K>(e.index, stm, t);
      return out != logic::Output::None ? out : RegionIndex::find_output(e.region, q);
    }
  }
  return CubeIndex::find_output_after_front0<K>(e.index, stm, t);
}

template <int K>
inline uint64_t packed(const std::array<uint32_t, K>& t) {
  uint64_t idx = 0;
  for (int i = 0; i < K; ++i) idx = (idx << kSquareBits) | t[size_t(i)];
  return idx;
}

// A probe's representative: the position's squares after the colour swap of symmetric balances
// and the canonical board transform, which the cover is asked about, and how its answer turns into
// the value for the side to move.
template <int K>
struct Representative {
  std::array<uint32_t, K> t;
  uint64_t placement;  // 5 pieces: t packed, as the transform makes it (fewer: left 0, packed when needed)
  unsigned stm;        // the representative's side to move
  unsigned negate;     // 1: the value is the representative's negated (the colour swap xor Black to move)
};

// The squares of a placement of at most three pieces in encoding order, colours and ranks as the
// entry reads them. No two pieces alike (KvK and KXvK): each slot's bitboard holds its one piece,
// and the material key matched, so none is empty.
template <int K, class Pos>
[[gnu::always_inline]] inline std::array<uint32_t, K> distinct_squares(const Pos& pos, const CoverProber::HotEntry& e) {
  static_assert(K <= 3);
  std::array<uint32_t, K> sq;
  for (int i = 0; i < K; ++i)
    sq[size_t(i)] = unsigned(lowest_bit(pos.pieces(Piece(e.order[size_t(i)])))) ^ e.square_xor;
  return sq;
}

// Placement in encoding order straight from the bitboards (colours and ranks already swapped in
// the entry when probing the flipped balance), the colour swap of symmetric balances, the
// canonical board transform (both candidates when the white king is on a diagonal, the smaller
// index wins, as in Symmetry::canonical).
// `Pos`: Position, or any board with side_to_move() and pieces(Piece) (the engines' library
// probes a view of the engine's bitboards without building a Position).
template <int K, class Pos>
[[gnu::always_inline]] inline Representative<K> representative(const Pos& pos, const CoverProber::HotEntry& e) {
  const unsigned stm = unsigned(pos.side_to_move()) ^ e.stm_xor;
  // The material key matched, so every slot's bitboard has its piece: no empty-board guard.
  std::array<uint32_t, K> sq;
  if constexpr (K <= 3) {
    sq = distinct_squares<K>(pos, e);
  } else if constexpr (K == 4) {
    // Slots 1 and 2 are the only identical pair: slot 2 then takes the second lowest square.
    std::array<Bitboard, K> b;
    for (int i = 0; i < K; ++i) b[size_t(i)] = pos.pieces(Piece(e.order[size_t(i)]));
    b[2] &= b[2] - e.sort_pair12;
    for (int i = 0; i < K; ++i) sq[size_t(i)] = unsigned(lowest_bit(b[size_t(i)])) ^ e.square_xor;
  } else {
    for (int i = 0; i < K; ++i) {
      // The nth of identical pieces, without a loop: clear the lowest bits by selection.
      const Bitboard b0 = pos.pieces(Piece(e.order[size_t(i)])), b1 = b0 & (b0 - 1), b2 = b1 & (b1 - 1);
      const uint8_t nth = e.nth[size_t(i)];
      const Bitboard b = nth == 0 ? b0 : nth == 1 ? b1 : b2;
      sq[size_t(i)] = unsigned(lowest_bit(b)) ^ e.square_xor;
    }
  }
  // Colour swap of symmetric balances with Black to move: the representative has White to move
  // (halves swapped, ranks mirrored, White's value negated). A symmetric balance has as many
  // pieces on each side, so an odd count (3 or 5 pieces) has none, and 5 of the 30 four-piece
  // balances do: a branch on the balance, which the other 25 predict well, spares them the swap's
  // work (docs/measured.md), then the swap selected without a branch, for it is a coin flip on
  // the side to move.
  bool swapped = false;
  if constexpr (K % 2 == 0) {
    if (e.swap_colors) {
      swapped = stm == 1;
      std::array<uint32_t, K> q;
      for (int i = 0; i < K; ++i) q[size_t(i)] = sq[size_t((i + K / 2) % K)] ^ kFlipRank;
      const uint32_t mask = 0u - uint32_t(swapped);
      for (int i = 0; i < K; ++i) sq[size_t(i)] = in_register(sq[size_t(i)] ^ ((sq[size_t(i)] ^ q[size_t(i)]) & mask));
    }
  }
  Representative<K> r;
  r.stm = stm & ~unsigned(swapped);
  r.negate = unsigned(swapped) ^ (stm & 1);
  r.placement = 0;
  // Both candidate transforms, the smaller index wins: the second differs only with the white
  // king on a diagonal (a quarter of the squares in pawnless balances, none with pawns). It is
  // made only then: the branch mispredicts on a random pawnless probe now and then, and costs less
  // than making it every time, which adds work to every probe (docs/measured.md).
  const unsigned g1 = kCanonTransforms.first[e.mode][sq[0]], g2 = kCanonTransforms.second[e.mode][sq[0]];
  if constexpr (K == 5) {
    uint64_t idx = transformed_index5(sq, g1, e);
    if (g2 != g1) {
      const uint64_t i2 = transformed_index5(sq, g2, e);
      idx = idx ^ ((idx ^ i2) & (0 - uint64_t(i2 < idx)));
    }
    for (int i = 0; i < K; ++i) r.t[size_t(i)] = in_register(uint32_t(idx >> square_shift(K, i)) & kSquareMask);
    r.placement = idx;
  } else {
    r.t = transformed<K>(sq, g1, e);
    if (g2 != g1) {
      const std::array<uint32_t, K> t2 = transformed<K>(sq, g2, e);
      const uint32_t second = 0u - uint32_t(packed<K>(t2) < packed<K>(r.t));
      for (int i = 0; i < K; ++i)
        r.t[size_t(i)] = in_register(r.t[size_t(i)] ^ ((r.t[size_t(i)] ^ t2[size_t(i)]) & second));
    }
  }
  return r;
}

// The value for the side to move from the cover's answer for the representative (None: no cube
// holds it, so the implied output, if the cover has one).
template <int K>
[[gnu::always_inline]] inline Wdl value_of(const CoverProber::HotEntry& e, logic::Output out,
                                           const Representative<K>& r) {
  if (out == logic::Output::None) out = logic::Output(e.implied);  // no cube holds it
  if (out == logic::Output::None) return Wdl::Illegal;
  if (e.rule_draws) [[unlikely]] {
    // The balance has cursed wins or blessed losses: look the representative up in their list.
    const uint32_t rep = uint32_t(uint64_t(r.stm) << stm_shift(K) | packed<K>(r.t));
    const Wdl white = logic::value_of(out, RuleDraws::contains(e.rule_draws, rep));
    return r.negate ? egtmin::negate(white) : white;
  }
  // 1 W, 2 D, 3 L: negating is 4 - v; once for the colour swap, once for Black to move. Without
  // a branch: the side to move is a coin flip.
  const unsigned v = unsigned(out);
  return Wdl(v ^ ((v ^ (4 - v)) & (0u - r.negate)));
}

// The cover's output for a representative: from the index (or the cubes scanned).
template <int K>
[[gnu::always_inline]] inline logic::Output cover_output(const Representative<K>& r, const CoverProber::HotEntry& e,
                                                         const std::vector<std::unique_ptr<LoadedCover>>& covers,
                                                         Method m) {
  logic::Output out = logic::Output::None;
  // A cover opened without an index (CoverProber::kNoIndex) has no front line: it is scanned.
  if (m == Method::Indexed && e.index.front0) [[likely]] {
    out = CubeIndex::find_output_front0<K>(e.index, r.stm, r.t);
    if (out == logic::Output::None) [[unlikely]]
      out = after_front0<K>(e, r.stm, r.t, K == 5 ? r.placement : packed<K>(r.t));
  } else {
    const logic::CubeWord mt = fast_minterm(uint64_t(r.stm) << stm_shift(K) | packed<K>(r.t), inputs_for(K));
    for (logic::CubeWord c : covers[e.cover]->cubes())
      if (logic::contains(c, mt)) {
        out = logic::output_of(c);
        break;
      }
  }
  return out;
}

// The hot path for a K-piece cover: the representative, then the cover's output for it.
template <int K, class Pos>
[[gnu::always_inline]] inline Wdl probe_k(const Pos& pos, const CoverProber::HotEntry& e,
                                          const std::vector<std::unique_ptr<LoadedCover>>& covers, Method m) {
  const Representative<K> r = representative<K>(pos, e);
  return value_of<K>(e, cover_output<K>(r, e, covers, m), r);
}

// Whether the region of `pos` leaves it to the evasion search (RegionIndex::searched).
template <int K, class Pos>
[[gnu::always_inline]] inline bool leaves_to_search(const Pos& pos, const CoverProber::HotEntry& e) {
  const Representative<K> r = representative<K>(pos, e);
  return RegionIndex::searched<K>(e.region, r.stm, uint32_t(K == 5 ? r.placement : packed<K>(r.t)));
}

// Probes whose waits on memory overlap (CoverProber::probe_wdl_many, the engines' library's
// egtmin_probe_wdl_many). A probe that reads a 5-piece region's cubes waits for memory (random
// positions of a cover of tens of megabytes); one waited for after another, those waits are most
// of its time. A batch takes each such probe as far as the region's address and its cubes' fetch,
// and finishes it kDepth such probes later, when its cubes have come.
class RegionBatch {
 public:
  // Whether probes of `e` go through the batch: a 5-piece cover with a region index, probed by
  // its index, and no capture search to follow (every other probe is answered at once by the
  // ordinary path, which the batch would not shorten).
  static bool takes(const CoverProber::HotEntry& e, Method m) {
    return e.k == 5 && e.region.present() && e.kind == store::CoverKind::Standalone && m == Method::Indexed &&
           e.index.front0;
  }

  // The value of `pos` (a position of e's balance, takes(e)) into *out: now when the front line's
  // first block answers, else by a later probe() or drain(). `e` and `out` must stay valid until
  // then; `pos` need not.
  template <class Pos>
  void probe(const Pos& pos, const CoverProber::HotEntry& e, Wdl* out) {
    const Representative<5> r = representative<5>(pos, e);
    if (const logic::Output o = CubeIndex::find_output_front0<5>(e.index, r.stm, r.t); o != logic::Output::None) {
      *out = value_of<5>(e, o, r);
      return;
    }
    const RegionIndex::Query q = RegionIndex::locate<5>(e.region, r.stm, uint32_t(r.placement));
    RegionIndex::prefetch(e.region, q);
    if (head_ - tail_ == kDepth) finish(ring_[tail_++ & kMask]);
    ring_[head_++ & kMask] = {&e, r, q, out};
  }

  // Finishes every probe in flight.
  void drain() {
    while (tail_ != head_) finish(ring_[tail_++ & kMask]);
  }

 private:
  // A probe stopped before its region's cubes, which are being fetched.
  struct Pending {
    const CoverProber::HotEntry* e;
    Representative<5> r;
    RegionIndex::Query q;
    Wdl* out;
  };
  // Probes in flight: each holds its region's cubes on their way from memory (4-5 cache lines).
  // Enough to cover a read from memory with the work of the probes between (docs/measured.md).
  static constexpr size_t kDepth = 8, kMask = kDepth - 1;
  static_assert((kDepth & kMask) == 0);

  static void finish(const Pending& p) {
    logic::Output out = CubeIndex::find_output_front_rest<5>(p.e->index, p.r.stm, p.r.t);
    if (out == logic::Output::None) out = RegionIndex::find_output(p.e->region, p.q);
    *p.out = value_of<5>(*p.e, out, p.r);
  }

  std::array<Pending, kDepth> ring_;
  size_t head_ = 0, tail_ = 0;  // in flight: ring_[tail_ % kDepth .. head_ % kDepth)
};

}  // namespace hot

inline Wdl CoverProber::probe_wdl(const Position& pos, Method m) const {
  // The material key comes with the position; a key no entry has (more than 5 pieces, no cover)
  // and en passant go through probe(), which says why or resolves the capture: for the value
  // alone, since naming the cube that holds a position may read a layout's whole cover file.
  const uint64_t key = pos.material_key();
  size_t h = hot::key_hash(key, hash_mul_, hash_bits_);
  while (hot_[h].key != key) {
    if (hot_[h].key == hot::kNoKey) [[unlikely]] {
      auto v = probe(pos, m, false);
      return v ? v->wdl : Wdl::Illegal;
    }
    h = (h + 1) & (hot_.size() - 1);
  }
  if (pos.ep_square() != NoSquare) [[unlikely]] {
    auto v = probe(pos, m, false);
    return v ? v->wdl : Wdl::Illegal;
  }
  return probe_hot(pos, hot_[h], m);
}

inline void CoverProber::probe_wdl_many(const Position* positions, size_t n, Wdl* values, Method m) const {
  // Every probe the batch does not take (fewer pieces, the front line's answers, no region index,
  // a capture search, en passant, no cover) is answered at once by probe_wdl's path.
  hot::RegionBatch batch;
  for (size_t i = 0; i < n; ++i) {
    const Position& pos = positions[i];
    const HotEntry* e = hot_entry(pos.material_key());
    if (!e || pos.ep_square() != NoSquare) [[unlikely]]
      values[i] = probe_wdl(pos, m);
    else if (!hot::RegionBatch::takes(*e, m))
      values[i] = probe_hot(pos, *e, m);
    else
      batch.probe(pos, *e, &values[i]);
  }
  batch.drain();
}

inline const CoverProber::HotEntry* CoverProber::hot_entry(uint64_t key) const {
  for (size_t h = hot::key_hash(key, hash_mul_, hash_bits_);; h = (h + 1) & (hot_.size() - 1)) {
    if (hot_[h].key == key) return &hot_[h];
    if (hot_[h].key == hot::kNoKey) return nullptr;
  }
}

inline Wdl CoverProber::probe_hot(const Position& pos, const HotEntry& e, Method m) const {
  // Regions that leave the positions in check to the evasion search may say anything there.
  if (e.evasions == CheckEvasions::Searched && pos.in_check(pos.side_to_move()) && evasions_searched(pos, e))
      [[unlikely]]
    if (const Wdl searched = evasion_value_hot(pos, m); searched != Wdl::Illegal) return searched;
  const Wdl stored = probe_standalone(pos, e, m);
  // A capture-resolved cover gives at most the value; the capture search may give more
  // (table/capture_resolve.hpp). A stored win needs no search.
  if (e.kind == store::CoverKind::Standalone || stored == Wdl::Win) [[likely]]
    return stored;
  return better(stored, capture_value_hot(pos, m));
}

template <class Pos>
inline bool CoverProber::evasions_searched(const Pos& pos, const HotEntry& e) {
  switch (e.k) {
    case 3: return hot::leaves_to_search<3>(pos, e);
    case 4: return hot::leaves_to_search<4>(pos, e);
    case 5: return hot::leaves_to_search<5>(pos, e);
    default: return false;
  }
}

template <class Pos>
inline void CoverProber::prefetch_hot(const Pos& pos, const HotEntry& e, Method m) {
  // The other covers are small enough to stay in cache, and the tree has no one line to fetch.
  if (e.k != 5 || !e.region.present() || m != Method::Indexed || !e.index.front0) return;
  const hot::Representative<5> r = hot::representative<5>(pos, e);
  RegionIndex::prefetch(e.region, RegionIndex::locate<5>(e.region, r.stm, uint32_t(r.placement)));
}

template <class Pos>
[[gnu::always_inline]] inline Wdl CoverProber::probe_standalone(const Pos& pos, const HotEntry& e, Method m) const {
  switch (e.k) {
    case 2: return hot::probe_k<2>(pos, e, covers_, m);
    case 3: return hot::probe_k<3>(pos, e, covers_, m);
    case 4: return hot::probe_k<4>(pos, e, covers_, m);
    case 5: return hot::probe_k<5>(pos, e, covers_, m);
    default: return Wdl::Illegal;
  }
}

}  // namespace egtmin::probe
