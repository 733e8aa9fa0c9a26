// SPDX-License-Identifier: GPL-3.0-or-later
// Fathom's C API and ABI (lib/fathom/include/tbprobe.h) over libegtmin-probe: tb_init opens one
// handle over the path's cover directories (capi::Tablebase, the library's handle), and every probe
// goes through the egtmin C functions compiled into this library beside it (capi.cpp), so that a
// Fathom probe and an egtmin_probe_wdl are one code path. Only Fathom's names leave the library
// (fathom.map).
#include <array>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "chess/attacks.hpp"
#include "chess/position.hpp"
#include "egtmin/probe.h"
#include "tablebase.hpp"
#include "tbprobe.h"

#define FATHOM_API __attribute__((visibility("default")))

extern "C" {
FATHOM_API unsigned TB_LARGEST = 0;
FATHOM_API int TB_MaxCardinality = 0;
FATHOM_API int TB_MaxCardinalityDTM = 0;
}

namespace egtmin::fathom {
namespace {

namespace fs = std::filesystem;

// The handle tb_init opened (null before, after tb_free, or when tb_init failed). Probes load it
// without a lock; tb_init and tb_free are not called while another thread probes (Fathom's rule),
// and take a mutex only against each other.
std::atomic<egtmin_tb*> g_tb{nullptr};
std::mutex g_init_mutex;

egtmin_tb* handle() { return g_tb.load(std::memory_order_acquire); }

void close_handle() {
  egtmin_close(g_tb.exchange(nullptr, std::memory_order_acq_rel));
  TB_LARGEST = 0;
  TB_MaxCardinality = 0;
}

// "a:b::c" -> a, b, c (Fathom's separator on Unix; empty entries are nothing).
void split_path(std::string_view path, std::vector<fs::path>& dirs) {
  while (!path.empty()) {
    const size_t colon = path.find(':');
    const std::string_view dir = path.substr(0, colon);
    if (!dir.empty()) dirs.emplace_back(std::string(dir));
    if (colon == std::string_view::npos) break;
    path.remove_prefix(colon + 1);
  }
}

egtmin_position position(uint64_t white, uint64_t black, uint64_t kings, uint64_t queens, uint64_t rooks,
                         uint64_t bishops, uint64_t knights, uint64_t pawns, unsigned rule50, unsigned ep, bool turn) {
  return {white, black, kings, queens, rooks, bishops, knights, pawns, ep, rule50, 0, turn ? 1 : 0};
}

// Fathom's squares and bitboards count from a1, egtmin's from a8 (from_a1_index): a rank mirror,
// which on a bitboard is a byte swap.
inline Bitboard mirrored(Bitboard b) { return __builtin_bswap64(b); }

// A position of a balance without a cover fails, unless a capture wins it (Tablebase::no_cover):
// one without any capture fails at once, from its bitboards, as cheaply as Fathom's. Engines probe
// such positions often. Pseudo-legal captures are enough to go the full way, which checks them.
bool fails_at_once(const capi::Tablebase& tb, const egtmin_position& p) {
  const uint64_t types[6] = {p.kings, p.queens, p.rooks, p.bishops, p.knights, p.pawns};
  uint64_t key = 0;
  for (int t = 0; t < 6; ++t)
    key += uint64_t(popcount(types[t] & p.white)) * Position::material_unit(make_piece(White, PieceType(t))) +
           uint64_t(popcount(types[t] & p.black)) * Position::material_unit(make_piece(Black, PieceType(t)));
  if (tb.has_cover(key) || popcount(p.white | p.black) <= 2) return false;
  const Color side = p.white_to_move ? White : Black;
  const Bitboard us = mirrored(p.white_to_move ? p.white : p.black);
  const Bitboard them = mirrored(p.white_to_move ? p.black : p.white) & ~mirrored(p.kings);
  const Bitboard occ = mirrored(p.white | p.black);
  Bitboard targets = them;
  if (p.ep && p.ep < 64) targets |= bb(from_a1_index(p.ep));
  for (Bitboard b = us; b;) {
    const Square s = pop_lsb(b);
    const Bitboard bit = bb(s);
    Bitboard a = 0;
    if (mirrored(p.kings) & bit)
      a = kKingAttacks[s];
    else if (mirrored(p.knights) & bit)
      a = kKnightAttacks[s];
    else if (mirrored(p.pawns) & bit)
      a = pawn_attacks(side, s);
    else {
      if (mirrored(p.rooks | p.queens) & bit) a |= rook_attacks(s, occ);
      if (mirrored(p.bishops | p.queens) & bit) a |= bishop_attacks(s, occ);
    }
    if (a & (mirrored(p.pawns) & bit ? targets : them)) return false;
  }
  return true;
}

// Whether the side to move is in check (the position passed egtmin_probe_root's checks).
bool in_check(const egtmin_position& p) {
  const Bitboard us = p.white_to_move ? p.white : p.black, them = p.white_to_move ? p.black : p.white;
  const Square king = from_a1_index(unsigned(lsb(p.kings & us)));
  const Bitboard occ = mirrored(p.white | p.black), t = mirrored(them);
  const Color side = p.white_to_move ? White : Black;
  return (kKnightAttacks[king] & mirrored(p.knights) & t) || (kKingAttacks[king] & mirrored(p.kings) & t) ||
         (pawn_attacks(side, king) & mirrored(p.pawns) & t) ||
         (rook_attacks(king, occ) & mirrored(p.rooks | p.queens) & t) ||
         (bishop_attacks(king, occ) & mirrored(p.bishops | p.queens) & t);
}

}  // namespace
}  // namespace egtmin::fathom

using namespace egtmin;
using namespace egtmin::fathom;

extern "C" {

FATHOM_API bool tb_init(const char* path) {
  try {
    std::lock_guard lock(g_init_mutex);
    close_handle();  // as Fathom, a second call starts over
    if (!path) return false;
    std::vector<fs::path> dirs;
    if (std::string_view(path) != "<empty>") split_path(path, dirs);
    if (const char* extra = std::getenv("EGTMIN_COVERS")) split_path(extra, dirs);
    if (dirs.empty()) return true;
    std::unique_ptr<capi::Tablebase> tb;
    if (capi::Tablebase::open(dirs, capi::Tablebase::Missing::Skip, 0, tb) != EGTMIN_OK) return false;
    // A balance without a cover answers as Fathom's missing table does: a winning capture, or a failure.
    tb->set_missing_cover(capi::Tablebase::MissingCover::WinningCapture);
    // The 3-piece covers fill a table of every placement's answer when they load, slow beside a
    // probe: here, not in the first search that reaches them. The others load on their first
    // probe (a mapping and a checksum).
    tb->preload(3);
    TB_LARGEST = unsigned(tb->largest());
    TB_MaxCardinality = tb->largest();
    // The handle is the Tablebase itself (capi.cpp), which egtmin_close deletes.
    g_tb.store(reinterpret_cast<egtmin_tb*>(tb.release()), std::memory_order_release);
    return true;
  } catch (...) {  // out of memory, or a lock that cannot be taken: nothing escapes into the engine
    return false;
  }
}

// The older header's tb_init is an inline function calling this one (Debian's Ethereal imports it).
FATHOM_API bool tb_init_impl(const char* path) { return tb_init(path); }

FATHOM_API void tb_free(void) {
  try {
    std::lock_guard lock(g_init_mutex);
    close_handle();
  } catch (...) {
  }
}

FATHOM_API unsigned tb_probe_wdl_impl(uint64_t white, uint64_t black, uint64_t kings, uint64_t queens, uint64_t rooks,
                                      uint64_t bishops, uint64_t knights, uint64_t pawns, unsigned ep, bool turn) {
  const egtmin_position p = position(white, black, kings, queens, rooks, bishops, knights, pawns, 0, ep, turn);
  egtmin_tb* tb = handle();
  if (tb && fails_at_once(*reinterpret_cast<const capi::Tablebase*>(tb), p)) [[unlikely]]
    return TB_RESULT_FAILED;
  // EGTMIN_LOSS .. EGTMIN_WIN are TB_LOSS .. TB_WIN; a null handle and every refusal are < 0.
  const int v = egtmin_probe_wdl(tb, &p);
  return v >= 0 ? unsigned(v) : TB_RESULT_FAILED;
}

FATHOM_API unsigned tb_probe_root_impl(uint64_t white, uint64_t black, uint64_t kings, uint64_t queens, uint64_t rooks,
                                       uint64_t bishops, uint64_t knights, uint64_t pawns, unsigned rule50, unsigned ep,
                                       bool turn, unsigned* results) {
  egtmin_tb* tb = handle();
  if (!tb) return TB_RESULT_FAILED;
  const egtmin_position p = position(white, black, kings, queens, rooks, bishops, knights, pawns, rule50, ep, turn);
  std::array<egtmin_root_move, EGTMIN_MAX_MOVES> moves;
  const int n = egtmin_probe_root(tb, &p, moves.data(), moves.size());
  // Without DTZ a move that keeps a win may make no progress towards it: only the positions
  // without moves are answered, and the engine searches the others.
  if (n != 0) return TB_RESULT_FAILED;
  if (results) results[0] = TB_RESULT_FAILED;  // the list's end: no moves
  return in_check(p) ? TB_RESULT_CHECKMATE : TB_RESULT_STALEMATE;
}

FATHOM_API int tb_probe_root_dtz(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                                 unsigned, unsigned, unsigned, bool, bool, bool, struct TbRootMoves*) {
  return 0;  // no DTZ: the engine falls back to tb_probe_root_wdl
}

FATHOM_API int tb_probe_root_wdl(uint64_t white, uint64_t black, uint64_t kings, uint64_t queens, uint64_t rooks,
                                 uint64_t bishops, uint64_t knights, uint64_t pawns, unsigned rule50, unsigned castling,
                                 unsigned ep, bool turn, bool use_rule50, struct TbRootMoves* out) {
  // Fathom's ranks and scores by the value a move leads to (loss .. win).
  static constexpr int32_t kRank[5] = {-1000, -899, 0, 899, 1000};
  static constexpr int32_t kScore[5] = {-TB_VALUE_MATE + TB_MAX_MATE_PLY + 1, TB_VALUE_DRAW - 2, TB_VALUE_DRAW,
                                        TB_VALUE_DRAW + 2, TB_VALUE_MATE - TB_MAX_MATE_PLY - 1};
  egtmin_tb* tb = handle();
  if (!tb || !out || castling) return 0;
  const egtmin_position p = position(white, black, kings, queens, rooks, bishops, knights, pawns, rule50, ep, turn);
  std::array<egtmin_root_move, EGTMIN_MAX_MOVES> moves;
  const int n = egtmin_probe_root(tb, &p, moves.data(), moves.size());
  if (n < 0 || n > TB_MAX_MOVES) return 0;
  out->size = unsigned(n);
  for (int i = 0; i < n; ++i) {
    const egtmin_root_move& m = moves[size_t(i)];
    int v = m.wdl;
    if (!use_rule50) v = v > TB_DRAW ? TB_WIN : v < TB_DRAW ? TB_LOSS : TB_DRAW;
    TbRootMove& r = out->moves[i];
    r.move = TbMove(m.promotion << 12 | m.from << 6 | m.to);
    r.pv[0] = r.move;
    r.pvSize = 1;
    r.tbRank = kRank[v];
    r.tbScore = kScore[v];
  }
  return 1;
}

FATHOM_API unsigned tb_pop_count(uint64_t bb) { return unsigned(popcount(bb)); }
FATHOM_API unsigned tb_lsb(uint64_t bb) { return unsigned(__builtin_ffsll(int64_t(bb)) - 1); }
FATHOM_API uint64_t tb_pop_lsb(uint64_t bb) { return bb & (bb - 1); }

FATHOM_API uint64_t tb_king_attacks(unsigned sq) { return sq < 64 ? mirrored(kKingAttacks[from_a1_index(sq)]) : 0; }
FATHOM_API uint64_t tb_knight_attacks(unsigned sq) { return sq < 64 ? mirrored(kKnightAttacks[from_a1_index(sq)]) : 0; }
FATHOM_API uint64_t tb_rook_attacks(unsigned sq, uint64_t occ) {
  return sq < 64 ? mirrored(rook_attacks(from_a1_index(sq), mirrored(occ))) : 0;
}
FATHOM_API uint64_t tb_bishop_attacks(unsigned sq, uint64_t occ) {
  return sq < 64 ? mirrored(bishop_attacks(from_a1_index(sq), mirrored(occ))) : 0;
}
FATHOM_API uint64_t tb_queen_attacks(unsigned sq, uint64_t occ) {
  return tb_rook_attacks(sq, occ) | tb_bishop_attacks(sq, occ);
}
FATHOM_API uint64_t tb_pawn_attacks(unsigned sq, bool color) {
  return sq < 64 ? mirrored(pawn_attacks(color ? White : Black, from_a1_index(sq))) : 0;
}

}  // extern "C"
