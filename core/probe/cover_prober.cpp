// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/cover_prober.hpp"

#include <algorithm>
#include <chrono>
#include <random>

namespace egtmin::probe {

namespace fs = std::filesystem;

namespace {

// Bit j of a byte moved to bit 2j: builds minterms with four table reads instead of a loop over
// the inputs.
constexpr auto kSpread = [] {
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

// Sampled queries per balance that steer the index's copy budget (about 2 ms of canonicalization).
constexpr size_t kIndexSample = 50000;

constexpr Wdl to_wdl(logic::Output o) { return Wdl(uint8_t(o)); }  // same numbering: 1 W, 2 D, 3 L

// A square's six inputs (most significant bit first) as their 12-bit PCN pattern: 10 for 0, 01 for 1.
constexpr auto kSquarePcn = [] {
  std::array<uint16_t, 64> t{};
  for (int s = 0; s < 64; ++s)
    for (int j = 0; j < 6; ++j) t[size_t(s)] |= uint16_t((s >> (5 - j) & 1 ? 1u : 2u) << (10 - 2 * j));
  return t;
}();

// The material hash key: non-king piece counts, 3 bits each.
inline uint32_t material_sig(const std::array<uint8_t, kPieces>& counts) {
  uint32_t sig = 0;
  for (int pc = 0, j = 0; pc < kPieces; ++pc)
    if (type_of(Piece(pc)) != King) sig |= uint32_t(counts[size_t(pc)] & 7) << (3 * j++);
  return sig;
}
// What one piece adds to the material key (0 for kings and empty squares). The hot path counts
// by walking the occupied squares: a handful of table reads, where ten popcounts would be calls
// on the baseline x86-64 target.
constexpr auto kSigAdd = [] {
  std::array<uint32_t, kPieces + 1> t{};
  for (int pc = 0, j = 0; pc < kPieces; ++pc)
    if (type_of(Piece(pc)) != King) t[size_t(pc)] = uint32_t{1} << (3 * j++);
  return t;
}();
constexpr uint32_t kNoSig = ~uint32_t{0};
inline size_t sig_hash(uint32_t sig, int bits) { return size_t((sig * 0x9E3779B1u) >> (32 - bits)); }

}  // namespace

const char* method_name(Method m) { return m == Method::Linear ? "linear" : "indexed"; }

Result<Method> parse_method(std::string_view name) {
  if (name == "linear") return Method::Linear;
  if (name == "indexed") return Method::Indexed;
  return Error{"unknown probe method '" + std::string(name) + "' (linear or indexed)"};
}

logic::CubeWord LoadedCover::find(const Placement& p, Method m, bool& negate) const {
  const auto rep = canon.canonical(p);
  negate = rep.negate;
  const uint64_t idx = encoding.encode(rep.placement);
  const logic::CubeWord mt = fast_minterm(idx, file.inputs);
  if (m == Method::Indexed) return index.find(idx, mt);
  for (logic::CubeWord c : file.cubes)
    if (logic::contains(c, mt)) return c;
  return 0;
}

int CoverProber::material_key(const std::array<uint8_t, kPieces>& counts) {
  int key = 0, n = 0;
  for (int pc = 0; pc < kPieces; ++pc) {
    if (type_of(Piece(pc)) == King) continue;
    for (int i = 0; i < counts[size_t(pc)]; ++i) {
      if (++n > 3) return -1;
      key = (key << 4) | pc;  // pc >= 1 for non-kings, so lengths are told apart
    }
  }
  return key;
}

const LoadedCover* CoverProber::lookup(const Balance& b) const {
  std::array<uint8_t, kPieces> counts{};
  for (int pc = 0; pc < kPieces; ++pc) counts[size_t(pc)] = uint8_t(b.count(Piece(pc)));
  int key = material_key(counts);
  if (key < 0 || slot_of_key_[size_t(key)] < 0) return nullptr;
  return covers_[size_t(slot_of_key_[size_t(key)])].get();
}

Status CoverProber::add(store::CoverFile cover, double max_copies) {
  auto lc = std::make_unique<LoadedCover>();
  const Balance b = cover.balance;
  std::array<uint8_t, kPieces> counts{};
  for (int pc = 0; pc < kPieces; ++pc) counts[size_t(pc)] = uint8_t(b.count(Piece(pc)));
  const int key = material_key(counts);
  if (key < 0 || b.pieces() > 5) return Error{"cover of " + b.name() + ": the prober handles up to 5 pieces"};
  lc->encoding = Encoding(b);
  lc->canon = CoverCanon(lc->encoding, cover.canon);
  auto t0 = std::chrono::steady_clock::now();
  // Where probes will land: representatives of random legal placements (fixed seed, so an index
  // is a function of its cover).
  std::vector<uint64_t> queries;
  std::mt19937_64 rng(0x5eed);
  const uint64_t mask = lc->encoding.size() - 1;
  for (int tries = 0; queries.size() < kIndexSample && tries < 50 * int(kIndexSample); ++tries) {
    const Placement p = lc->encoding.decode(rng() & mask);
    if (lc->encoding.is_legal(p)) queries.push_back(lc->encoding.encode(lc->canon.canonical(p).placement));
  }
  lc->index = CubeIndex(cover.cubes, cover.inputs, max_copies, 2.0, queries);
  lc->index_build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  {
    auto& f = lc->fast;
    const Encoding& enc = lc->encoding;
    f.k = enc.pieces();
    for (int i = 0; i < f.k; ++i) {
      const Piece pc = enc.piece(i);
      f.order[size_t(i)] = uint8_t(pc);
      f.order_flip[size_t(i)] = uint8_t((pc + kPieceTypes) % kPieces);
      f.nth[size_t(i)] = uint8_t(i > 0 && enc.piece(i - 1) == pc ? f.nth[size_t(i - 1)] + 1 : 0);
    }
    const CanonScheme scheme = lc->canon.scheme();
    f.swap_colors = scheme == CanonScheme::Full && b.is_symmetric();
    // The transforms Symmetry::canonical tries: those taking the white king to its orbit's minimum.
    const int group = scheme == CanonScheme::None ? 1 : b.has_pawns() ? 2 : 8;
    for (int s = 0; s < 64; ++s) {
      int best = 64;
      for (int g = 0; g < group; ++g) best = std::min<int>(best, kTransforms[size_t(g)][size_t(s)]);
      std::vector<uint8_t> cand;
      for (int g = 0; g < group; ++g)
        if (kTransforms[size_t(g)][size_t(s)] == best) cand.push_back(uint8_t(g));
      if (cand.size() > 2) return Error{"cover of " + b.name() + ": more than two canonical transforms"};
      f.xf[size_t(s)] = cand.front();
      f.xf2[size_t(s)] = cand.back();
    }
    // Bubble sort of each run of identical pieces: for a run of length L, L-1 passes over its
    // adjacent pairs. Five pieces need at most three exchanges (KRRRvK; KRRvKR needs one).
    size_t e = 0;
    for (int i = 0; i < f.k;) {
      int j = i;
      while (j < f.k && enc.piece(j) == enc.piece(i)) ++j;
      for (int pass = 0; pass < j - i - 1; ++pass)
        for (int a = i; a < j - 1 - pass; ++a) {
          if (e == f.exchange.size()) return Error{"cover of " + b.name() + ": too many identical pieces"};
          f.exchange[e++] = {uint8_t(a), uint8_t(a + 1)};
        }
      i = j;
    }
    if (e > size_t(f.k <= 3 ? 0 : f.k == 4 ? 1 : 3))
      return Error{"cover of " + b.name() + ": identical pieces the hot path does not sort"};
  }
  lc->file = std::move(cover);
  lc->file.cubes.shrink_to_fit();
  if (slot_of_key_[size_t(key)] >= 0) {
    covers_[size_t(slot_of_key_[size_t(key)])] = std::move(lc);
  } else {
    slot_of_key_[size_t(key)] = int16_t(covers_.size());
    covers_.push_back(std::move(lc));
  }
  rebuild_material_hash();
  return ok_status();
}

void CoverProber::rebuild_material_hash() {
  hash_sig_.fill(kNoSig);
  hash_val_.fill(0);
  auto insert = [&](uint32_t sig, uint16_t val) {
    for (size_t h = sig_hash(sig, kHashBits);; h = (h + 1) & ((1u << kHashBits) - 1)) {
      if (hash_sig_[h] == sig) return;  // the unflipped colouring wins, as in probe()
      if (hash_sig_[h] == kNoSig) {
        hash_sig_[h] = sig, hash_val_[h] = val;
        return;
      }
    }
  };
  // Every key probe() finds directly first, then the colour-swapped ones.
  for (int flip = 0; flip < 2; ++flip)
    for (size_t slot = 0; slot < covers_.size(); ++slot) {
      const Balance& b = covers_[slot]->file.balance;
      std::array<uint8_t, kPieces> counts{};
      for (int pc = 0; pc < kPieces; ++pc) counts[size_t(flip ? (pc + kPieceTypes) % kPieces : pc)] = uint8_t(b.count(Piece(pc)));
      insert(material_sig(counts), uint16_t(slot | size_t(flip) << 15));
    }
}

namespace {

// The representative of a placement under one board transform: squares moved, identical pieces
// sorted (runs are short: compare-exchange, no call).
template <int K>
inline uint64_t transformed_index(const std::array<Square, K>& sq, Color stm, unsigned g, const LoadedCover::Fast& f) {
  std::array<uint8_t, K> t;
  const auto& table = kTransforms[g];
  for (int i = 0; i < K; ++i) t[size_t(i)] = uint8_t(table[sq[size_t(i)]]);
  // Fewer than four pieces have no identical pieces in a canonical balance, four at most one
  // pair (KXXvK), five at most three exchanges: a fixed count, so no loop branch to mispredict.
  constexpr int kExchanges = K <= 3 ? 0 : K == 4 ? 1 : 3;
  for (int e = 0; e < kExchanges; ++e) {
    const auto [x, y] = f.exchange[size_t(e)];
    const uint8_t lo = std::min(t[x], t[y]), hi = std::max(t[x], t[y]);
    t[x] = lo, t[y] = hi;
  }
  uint64_t idx = uint64_t(stm);
  for (int i = 0; i < K; ++i) idx = (idx << 6) | t[size_t(i)];
  return idx;
}

// The hot path for a K-piece cover: placement in encoding order straight from the bitboards
// (colours swapped and ranks mirrored when probing the flipped balance), the colour swap of
// symmetric balances, the canonical transform (both candidates when the white king is on a
// symmetry axis, the smaller index wins, as in Symmetry::canonical), then the index.
template <int K>
inline Wdl probe_k(const Position& pos, const LoadedCover& lc, bool flip, Method m) {
  const auto& f = lc.fast;
  const Color stm = flip ? ~pos.side_to_move() : pos.side_to_move();
  const auto& order = flip ? f.order_flip : f.order;
  const unsigned mirror = flip ? 56u : 0u;
  std::array<Square, K> sq;
  for (int i = 0; i < K; ++i) {
    // The nth of identical pieces, without a loop: clear the lowest bits by selection.
    const Bitboard b0 = pos.pieces(Piece(order[size_t(i)])), b1 = b0 & (b0 - 1), b2 = b1 & (b1 - 1);
    const uint8_t nth = f.nth[size_t(i)];
    const Bitboard b = nth == 0 ? b0 : nth == 1 ? b1 : b2;
    sq[size_t(i)] = Square(unsigned(__builtin_ctzll(b | (Bitboard{1} << 63))) ^ mirror);
  }
  bool negate_white = false;
  Color rep_stm = stm;
  if (f.swap_colors && stm == Black) {
    // The representative has White to move: swap the halves, mirror ranks, negate.
    negate_white = true;
    rep_stm = White;
    std::array<Square, K> sw;
    for (int i = 0; i < K / 2; ++i) {
      sw[size_t(i)] = Square(sq[size_t(K / 2 + i)] ^ 56);
      sw[size_t(K / 2 + i)] = Square(sq[size_t(i)] ^ 56);
    }
    sq = sw;
  }
  const uint64_t a = transformed_index<K>(sq, rep_stm, f.xf[sq[0]], f);
  const uint64_t b = transformed_index<K>(sq, rep_stm, f.xf2[sq[0]], f);
  const uint64_t idx = std::min(a, b);
  logic::Output out = logic::Output::None;
  if (m == Method::Indexed) {
    out = lc.index.find_output_fixed<K>(idx);
  } else {
    const logic::CubeWord mt = fast_minterm(idx, 1 + 6 * K);
    for (logic::CubeWord c : lc.file.cubes)
      if (logic::contains(c, mt)) {
        out = logic::output_of(c);
        break;
      }
  }
  if (out == logic::Output::None) return Wdl::Illegal;
  // 1 W, 2 D, 3 L: negating is 4 - v; once for the colour swap, once for Black to move.
  const unsigned v = unsigned(out);
  return Wdl((negate_white != (stm == Black)) ? 4 - v : v);
}

}  // namespace

Wdl CoverProber::probe_wdl(const Position& pos, Method m) const {
  uint32_t sig = 0;
  int pieces = 0;
  for (Bitboard b = pos.pieces(); b; b &= b - 1, ++pieces) sig += kSigAdd[size_t(pos.at(lsb(b)))];
  if (pos.ep_square() != NoSquare || pieces > 5) [[unlikely]] {
    auto v = probe(pos, m);
    return v ? v->wdl : Wdl::Illegal;
  }
  size_t h = sig_hash(sig, kHashBits);
  while (hash_sig_[h] != sig) {
    if (hash_sig_[h] == kNoSig) return Wdl::Illegal;
    h = (h + 1) & ((1u << kHashBits) - 1);
  }
  const LoadedCover& lc = *covers_[hash_val_[h] & 0x7fff];
  const bool flip = hash_val_[h] >> 15;
  switch (lc.fast.k) {
    case 2: return probe_k<2>(pos, lc, flip, m);
    case 3: return probe_k<3>(pos, lc, flip, m);
    case 4: return probe_k<4>(pos, lc, flip, m);
    case 5: return probe_k<5>(pos, lc, flip, m);
    default: return Wdl::Illegal;
  }
}

Result<std::unique_ptr<CoverProber>> CoverProber::open(const fs::path& data_dir, double max_copies) {
  auto prober = std::make_unique<CoverProber>();
  const fs::path dir = data_dir / "covers";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return prober;  // no covers yet: every probe says so
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".egtc") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    auto b = Balance::parse(f.stem().string());
    auto c = store::load_cover(f, b ? &*b : nullptr);
    if (!c) return c.error();
    auto s = prober->add(std::move(*c), max_copies);
    if (!s) return Error{f.string() + ": " + s.error().message};
  }
  return prober;
}

std::vector<Balance> CoverProber::balances() const {
  std::vector<Balance> out;
  for (const auto& c : covers_) out.push_back(c->file.balance);
  std::sort(out.begin(), out.end());
  return out;
}

size_t CoverProber::memory_bytes(Method m) const {
  size_t total = sizeof(*this);
  for (const auto& c : covers_)
    total += m == Method::Linear ? c->file.cubes.capacity() * sizeof(logic::CubeWord) : c->index.memory_bytes();
  return total;
}

Result<CoverProbe> CoverProber::probe(const Position& pos, Method m) const {
  std::array<uint8_t, kPieces> counts{};
  for (int pc = 0; pc < kPieces; ++pc) counts[size_t(pc)] = uint8_t(popcount(pos.pieces(Piece(pc))));
  // Covers exist for canonical balances only, so the colouring whose key is found is the one to
  // probe; symmetric balances are canonical as they stand and never swapped.
  int key = material_key(counts);
  bool flip = false;
  if (key < 0 || slot_of_key_[size_t(key)] < 0) {
    std::array<uint8_t, kPieces> swapped{};
    for (int pc = 0; pc < kPieces; ++pc) swapped[size_t((pc + kPieceTypes) % kPieces)] = counts[size_t(pc)];
    key = material_key(swapped);
    flip = true;
    if (key < 0 || slot_of_key_[size_t(key)] < 0)
      return Error{"no cover for " + Balance::of(pos).canonical().name() + " yet (run egtmin-cli minimize " +
                   Balance::of(pos).canonical().name() + ")"};
  }
  const LoadedCover& lc = *covers_[size_t(slot_of_key_[size_t(key)])];

  // The placement in the canonical balance's encoding order, colours swapped and the board
  // mirrored rank-wise when flipping.
  Placement p;
  p.stm = flip ? ~pos.side_to_move() : pos.side_to_move();
  int i = 0;
  for (int pc = 0; pc < kPieces; ++pc) {
    const Piece src = flip ? Piece((pc + kPieceTypes) % kPieces) : Piece(pc);
    const int start = i;
    for (Bitboard b = pos.pieces(src); b;) p.sq[size_t(i++)] = Square(flip ? pop_lsb(b) ^ 56 : pop_lsb(b));
    // Mirroring reverses rank order: keep identical pieces ascending, as the encoding wants
    // (runs are at most 4 long: an insertion sort, no call).
    if (flip)
      for (int a = start + 1; a < i; ++a)
        for (int b = a; b > start && p.sq[size_t(b - 1)] > p.sq[size_t(b)]; --b) std::swap(p.sq[size_t(b - 1)], p.sq[size_t(b)]);
  }

  bool negate_white = false;
  const logic::CubeWord cube = lc.find(p, m, negate_white);
  if (cube == 0)
    return Error{"no cube of the " + lc.file.balance.name() + " cover contains this position (is it legal?)"};
  Wdl white = to_wdl(logic::output_of(cube));
  if (negate_white) white = negate(white);
  CoverProbe out;
  out.wdl = p.stm == White ? white : negate(white);
  out.cube = cube;
  out.balance = lc.file.balance;
  out.inputs = lc.file.inputs;

  if (pos.ep_square() != NoSquare) {
    // Covers have no en-passant rights: the capture is one more option for the side to move.
    for (const Move& mv : legal_moves(pos)) {
      if (!mv.en_passant) continue;
      auto v = probe(pos.after(mv), m);
      if (!v) return v.error();
      const Wdl mine = negate(v->wdl);
      if (mine == Wdl::Win || (mine == Wdl::Draw && out.wdl == Wdl::Loss)) out.wdl = mine;
    }
  }
  return out;
}

Result<CoverProbe> CoverProber::probe_checked(const Position& pos, Method m) const {
  if (auto why = pos.illegal_reason()) return Error{"illegal position: " + *why};
  if (pos.piece_count() > 5) return Error{"more than 5 pieces; covers go up to 5"};
  return probe(pos, m);
}

}  // namespace egtmin::probe
