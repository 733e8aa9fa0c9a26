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
inline uint32_t material_sig(const Position& pos) {
  uint32_t sig = 0;
  for (int pc = 1, j = 0; pc < kPieces; ++pc, ++j) {
    if (pc == kPieceTypes) ++pc;  // the black king
    sig |= uint32_t(popcount(pos.pieces(Piece(pc)))) << (3 * j);
  }
  return sig;
}
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

Status CoverProber::add(store::CoverFile cover, int max_copies) {
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
    }
    const CanonScheme scheme = lc->canon.scheme();
    f.swap_colors = scheme == CanonScheme::Full && b.is_symmetric();
    f.half = f.k / 2;
    // The transform Symmetry::canonical applies when only one takes the white king to its orbit's
    // minimum; squares with several candidates (symmetry axes) go through CoverCanon.
    const int group = scheme == CanonScheme::None ? 1 : b.has_pawns() ? 2 : 8;
    for (int s = 0; s < 64; ++s) {
      int best = 64, n = 0, g_best = 0;
      for (int g = 0; g < group; ++g) best = std::min<int>(best, kTransforms[size_t(g)][size_t(s)]);
      for (int g = 0; g < group; ++g)
        if (kTransforms[size_t(g)][size_t(s)] == best) ++n, g_best = g;
      f.xf[size_t(s)] = n == 1 ? uint8_t(g_best) : uint8_t(0xFF);
    }
    f.runs = 0;
    for (int i = 0; i < f.k;) {
      int j = i;
      while (j < f.k && enc.piece(j) == enc.piece(i)) ++j;
      if (j - i >= 2) {
        if (f.runs == 2) return Error{"cover of " + b.name() + ": too many runs of identical pieces"};
        f.run_start[size_t(f.runs)] = uint8_t(i), f.run_len[size_t(f.runs)] = uint8_t(j - i), ++f.runs;
      }
      i = j;
    }
    f.filler = (uint64_t{1} << (62 - 2 * cover.inputs)) - 1;
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

Wdl CoverProber::probe_wdl(const Position& pos, Method m) const {
  if (pos.ep_square() != NoSquare || pos.piece_count() > 5) [[unlikely]] {
    auto v = probe(pos, m);
    return v ? v->wdl : Wdl::Illegal;
  }
  const uint32_t sig = material_sig(pos);
  size_t h = sig_hash(sig, kHashBits);
  while (hash_sig_[h] != sig) {
    if (hash_sig_[h] == kNoSig) return Wdl::Illegal;
    h = (h + 1) & ((1u << kHashBits) - 1);
  }
  const LoadedCover& lc = *covers_[hash_val_[h] & 0x7fff];
  const auto& f = lc.fast;
  const bool flip = hash_val_[h] >> 15;

  // The placement in the canonical balance's encoding order (identical pieces in any order: every
  // path below sorts them), colours swapped and the board mirrored rank-wise when flipping.
  Placement p;
  p.stm = flip ? ~pos.side_to_move() : pos.side_to_move();
  {
    std::array<Bitboard, kPieces> bb;
    for (int pc = 0; pc < kPieces; ++pc) bb[size_t(pc)] = pos.pieces(Piece(pc));
    const auto& order = flip ? f.order_flip : f.order;
    const unsigned mirror = flip ? 56u : 0u;
    for (int i = 0; i < f.k; ++i) p.sq[size_t(i)] = Square(pop_lsb(bb[order[size_t(i)]]) ^ mirror);
  }
  // Colour swap of symmetric balances (scheme full): the representative has White to move.
  bool negate_white = false;
  Placement q = p;
  if (f.swap_colors && p.stm == Black) {
    negate_white = true;
    q.stm = White;
    for (int i = 0; i < f.half; ++i) {
      q.sq[size_t(i)] = Square(p.sq[size_t(f.half + i)] ^ 56);
      q.sq[size_t(f.half + i)] = Square(p.sq[size_t(i)] ^ 56);
    }
  }
  const uint8_t g = f.xf[q.sq[0]];
  if (g == 0xFF) [[unlikely]] {
    const auto rep = lc.canon.canonical(p);
    q = rep.placement;
    negate_white = rep.negate;
  } else {
    const auto& t = kTransforms[g];
    for (int i = 0; i < f.k; ++i) q.sq[size_t(i)] = t[q.sq[size_t(i)]];
    for (int r = 0; r < f.runs; ++r) {
      Square* a = q.sq.data() + f.run_start[size_t(r)];
      const int len = f.run_len[size_t(r)];
      for (int x = 1; x < len; ++x)
        for (int y = x; y > 0 && a[y - 1] > a[y]; --y) std::swap(a[y - 1], a[y]);
    }
  }
  // Index and minterm together: each square's 12-bit PCN pattern goes to its piece's place.
  uint64_t idx = q.stm;
  logic::CubeWord mt = (q.stm == White ? logic::CubeWord{2} : logic::CubeWord{1}) << 60 | f.filler;
  for (int i = 0; i < f.k; ++i) {
    idx = (idx << 6) | q.sq[size_t(i)];
    mt |= logic::CubeWord(kSquarePcn[q.sq[size_t(i)]]) << (48 - 12 * i);
  }
  logic::CubeWord cube = 0;
  if (m == Method::Indexed) {
    cube = lc.index.find(idx, mt);
  } else {
    for (logic::CubeWord c : lc.file.cubes)
      if (logic::contains(c, mt)) {
        cube = c;
        break;
      }
  }
  if (cube == 0) return Wdl::Illegal;
  // 1 W, 2 D, 3 L: negating is 4 - v; once for the colour swap, once for Black to move.
  const unsigned v = unsigned(logic::output_of(cube));
  return Wdl((negate_white != (p.stm == Black)) ? 4 - v : v);
}

Result<std::unique_ptr<CoverProber>> CoverProber::open(const fs::path& data_dir, int max_copies) {
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
