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
  lc->file = std::move(cover);
  lc->file.cubes.shrink_to_fit();
  if (slot_of_key_[size_t(key)] >= 0) {
    covers_[size_t(slot_of_key_[size_t(key)])] = std::move(lc);
  } else {
    slot_of_key_[size_t(key)] = int16_t(covers_.size());
    covers_.push_back(std::move(lc));
  }
  return ok_status();
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
