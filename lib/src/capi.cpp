// SPDX-License-Identifier: GPL-3.0-or-later
// The C functions of egtmin/probe.h: arguments checked, the engine's position turned into
// egtmin's, values and errors turned into the header's numbers. Nothing escapes: every function
// catches what the core may throw (std::bad_alloc above all) and returns a code.
#include <algorithm>
#include <array>
#include <bit>
#include <exception>
#include <new>
#include <string>

#include "egtmin/probe.h"
#include "options.hpp"
#include "tablebase.hpp"

// The handle is the Tablebase itself, behind the header's incomplete type (one load less on
// every probe than a wrapper holding a pointer to it).
static egtmin::capi::Tablebase* of(egtmin_tb* tb) { return reinterpret_cast<egtmin::capi::Tablebase*>(tb); }
static const egtmin::capi::Tablebase* of(const egtmin_tb* tb) {
  return reinterpret_cast<const egtmin::capi::Tablebase*>(tb);
}

namespace egtmin::capi {

const char* last_error() noexcept;

namespace {

// The checks that keep a malformed position from reaching a cover (where two pieces on one
// square, or a pawn on the last rank, would give a meaningless value): each piece on exactly one
// colour and one type, one king a side, no pawn on rank 1 or 8. A few instructions: the hot path
// runs them on every probe. Legality beyond that (the side not to move in check) is the caller's.
int to_position(const egtmin_position& p, Position& pos) {
  const uint64_t occupied = p.white | p.black;
  const uint64_t types[6] = {p.kings, p.queens, p.rooks, p.bishops, p.knights, p.pawns};
  const uint64_t any = p.kings | p.queens | p.rooks | p.bishops | p.knights | p.pawns;
  int count = 0;
  for (uint64_t t : types) count += popcount(t);
  if ((p.white & p.black) || any != occupied || count != popcount(occupied)) [[unlikely]]
    return fail(EGTMIN_ERR_POSITION, "a square is on two bitboards, or a piece has no type or no colour");
  if (popcount(p.kings & p.white) != 1 || popcount(p.kings & p.black) != 1) [[unlikely]]
    return fail(EGTMIN_ERR_POSITION, "each side needs exactly one king");
  if (p.pawns & 0xFF000000000000FFull) [[unlikely]]
    return fail(EGTMIN_ERR_POSITION, "a pawn on rank 1 or 8");
  if (p.ep >= 64) [[unlikely]]
    return fail(EGTMIN_ERR_POSITION, "en-passant square " + std::to_string(p.ep) + " is not a square");
  if (count > kMaxPieces) [[unlikely]]
    return fail(EGTMIN_ERR_NO_COVER, "more than " + std::to_string(kMaxPieces) + " pieces");
  for (int c = 0; c < 2; ++c)
    for (int t = 0; t < 6; ++t)
      for (uint64_t b = types[t] & (c ? p.black : p.white); b; b &= b - 1)
        pos.put(from_a1_index(unsigned(std::countr_zero(b))), make_piece(Color(c), PieceType(t)));
  pos.set_side_to_move(p.white_to_move ? White : Black);
  pos.set_ep_square(p.ep ? from_a1_index(p.ep) : NoSquare);
  return EGTMIN_OK;
}

// The engine's bitboards as the hot path reads them, when the position passes to_position's
// checks (false sends it there, for the message). The view keeps the engine's square numbers: the
// balance's hot entries mirror the ranks as they read each square (Tablebase::load), one XOR in
// place of eight byte swaps. A square on two types shows as an overlap, not as a count: twelve
// fewer values live at once (GCC spilled them to the stack). At most 7 pieces, so that no piece
// count overflows its 5 bits of the material key into another's.
inline bool make_view(const egtmin_position& p, BoardView& v) {
  const uint64_t w = p.white, b = p.black;
  const uint64_t types[6] = {p.kings, p.queens, p.rooks, p.bishops, p.knights, p.pawns};
  uint64_t seen = 0, overlap = 0, material = 0;
  for (int t = 0; t < 6; ++t) {
    overlap |= seen & types[t];
    seen |= types[t];
    const uint64_t wt = types[t] & w, bt = types[t] & b;
    v.by_piece[size_t(t)] = wt;
    v.by_piece[size_t(6 + t)] = bt;
    material += uint64_t(popcount(wt)) << (5 * t) | uint64_t(popcount(bt)) << (5 * (6 + t));
    // One type at a time: unrolled freely, GCC held every board at once, spilled them to the
    // stack and loaded the position's fields again, adding work.
    asm("" : "+r"(material), "+r"(seen), "+r"(overlap));
  }
  v.material = material;
  v.stm = p.white_to_move ? White : Black;
  // The kings need no check: a material key with other than one king a side matches no cover.
  return !(w & b) && !overlap && seen == (w | b) && popcount(seen) <= kMaxPieces && !(p.pawns & 0xFF000000000000FFull);
}

template <class F>
int guarded(F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return fail(EGTMIN_ERR_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(EGTMIN_ERR_INTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    return fail(EGTMIN_ERR_INTERNAL, "internal error");
  }
}

}  // namespace
}  // namespace egtmin::capi

using namespace egtmin;
using capi::fail;

extern "C" {

const char* egtmin_version(void) { return EGTMIN_VERSION; }

int egtmin_open(const char* directory, const egtmin_options* options, egtmin_tb** tb) {
  if (tb) *tb = nullptr;
  if (!directory || !tb) return fail(EGTMIN_ERR_ARGUMENT, "egtmin_open: null directory or handle pointer");
  return capi::guarded([&] {
    egtmin_options read;
    if (const int rc = capi::read_options(options, read); rc != EGTMIN_OK) return rc;
    std::unique_ptr<capi::Tablebase> handle;
    if (const int rc = capi::Tablebase::open(directory, read.memory_cap, handle); rc != EGTMIN_OK) return rc;
    *tb = reinterpret_cast<egtmin_tb*>(handle.release());
    return EGTMIN_OK;
  });
}

void egtmin_close(egtmin_tb* tb) { delete of(tb); }

int egtmin_largest(const egtmin_tb* tb) { return tb ? of(tb)->largest() : 0; }

// Everything but the common case: checks with messages, en passant, loading on first use.
[[gnu::noinline, gnu::cold]] static int probe_wdl_full(egtmin_tb* tb, const egtmin_position* p) {
  if (!tb || !p) [[unlikely]]
    return fail(EGTMIN_ERR_ARGUMENT, "egtmin_probe_wdl: null handle or position");
  if (p->castling) [[unlikely]]
    return fail(EGTMIN_ERR_CASTLING, "castling rights: endgame tables have none");
  if (p->rule50) [[unlikely]]
    return fail(EGTMIN_ERR_RULE50, "halfmove clock " + std::to_string(p->rule50) + ": WDL probes need 0");
  return capi::guarded([&] {
    Position pos;
    if (const int rc = capi::to_position(*p, pos); rc != EGTMIN_OK) return rc;
    Wdl v;
    if (const int rc = of(tb)->probe(pos, v); rc != EGTMIN_OK) return rc;
    return capi::c_value(v);
  });
}

int egtmin_probe_wdl(egtmin_tb* tb, const egtmin_position* p) {
  // The hot path: no Position, no strings, no exceptions; whatever is not the common case goes
  // to probe_wdl_full.
  if (!tb || !p || (p->castling | p->rule50 | p->ep)) [[unlikely]]
    return probe_wdl_full(tb, p);
  capi::BoardView v;
  if (!capi::make_view(*p, v)) [[unlikely]]
    return probe_wdl_full(tb, p);
  const int value = of(tb)->probe_fast(v);
  return value >= 0 ? value : probe_wdl_full(tb, p);
}

int egtmin_probe_wdl_many(egtmin_tb* tb, const egtmin_position* positions, size_t count, int* values) {
  if (!tb || ((!positions || !values) && count))
    return fail(EGTMIN_ERR_ARGUMENT, "egtmin_probe_wdl_many: null handle, or null arrays with a count");
  capi::Tablebase& t = *of(tb);
  // In chunks: a chunk's probes are started under one read scope and all finished before it
  // ends; what the fast path cannot answer (loading a balance, en passant, errors with their
  // messages) is then probed one by one through egtmin_probe_wdl's full path, outside the scope,
  // for a load may unload what the chunk's probes read.
  constexpr size_t kChunk = 256;
  constexpr int kInBatch = capi::Tablebase::kTakeFullPath - 1;  // its value is in `batched`
  std::array<Wdl, kChunk> batched;
  for (size_t base = 0; base < count; base += kChunk) {
    const size_t n = std::min(kChunk, count - base);
    int* value = values + base;
    const egtmin_position* pos = positions + base;
    {
      const capi::ReadScope reading(t.tracked());
      probe::hot::RegionBatch batch;
      for (size_t i = 0; i < n; ++i) {
        const egtmin_position& p = pos[i];
        value[i] = capi::Tablebase::kTakeFullPath;
        capi::BoardView v;
        if ((p.castling | p.rule50 | p.ep) || !capi::make_view(p, v)) [[unlikely]]
          continue;
        const capi::Tablebase::Fast f = t.fast(v.material);
        // A capture-resolved cover's search probes other balances: the full path.
        if (!f.entry || f.entry->kind == store::CoverKind::CaptureResolved) [[unlikely]]
          continue;
        if (probe::hot::RegionBatch::takes(*f.entry, probe::Method::Indexed)) {
          value[i] = kInBatch;
          batch.probe(v, *f.entry, &batched[i]);
        } else {
          const Wdl w = f.prober->probe_standalone(v, *f.entry, probe::Method::Indexed);
          if (w != Wdl::Illegal) value[i] = capi::c_value(w);
        }
      }
      batch.drain();
    }
    for (size_t i = 0; i < n; ++i) {
      if (value[i] == kInBatch)
        value[i] = batched[i] == Wdl::Illegal ? capi::Tablebase::kTakeFullPath : capi::c_value(batched[i]);
      if (value[i] == capi::Tablebase::kTakeFullPath) value[i] = probe_wdl_full(tb, pos + i);
    }
  }
  return EGTMIN_OK;
}

int egtmin_check_position(const egtmin_position* p) {
  if (!p) return fail(EGTMIN_ERR_ARGUMENT, "egtmin_check_position: null position");
  if (p->castling) return fail(EGTMIN_ERR_CASTLING, "castling rights: endgame tables have none");
  return capi::guarded([&] {
    Position pos;
    if (const int rc = capi::to_position(*p, pos); rc != EGTMIN_OK) return rc;
    if (auto why = pos.illegal_reason()) return fail(EGTMIN_ERR_POSITION, "illegal position: " + *why);
    return EGTMIN_OK;
  });
}

int egtmin_probe_root(egtmin_tb* tb, const egtmin_position* p, egtmin_root_move* moves, size_t capacity) {
  if (!tb || !p || (!moves && capacity)) return fail(EGTMIN_ERR_ARGUMENT, "egtmin_probe_root: null argument");
  if (const int rc = egtmin_check_position(p); rc != EGTMIN_OK) return rc;
  return capi::guarded([&] {
    Position pos;
    (void)capi::to_position(*p, pos);  // checked above
    const MoveList list = legal_moves(pos);
    if (list.size() > capacity)
      return fail(EGTMIN_ERR_BUFFER,
                  std::to_string(list.size()) + " legal moves, room for " + std::to_string(capacity));
    size_t n = 0;
    for (const Move& m : list) {
      Wdl v;
      if (const int rc = of(tb)->probe(pos.after(m), v); rc != EGTMIN_OK) return rc;
      egtmin_root_move& out = moves[n++];
      out.from = to_a1_index(m.from);
      out.to = to_a1_index(m.to);
      // PieceType's Queen .. Knight are 1 .. 4, as EGTMIN_PROMOTES_*.
      out.promotion = m.promotion == NoPieceType ? EGTMIN_PROMOTES_NONE : unsigned(m.promotion);
      out.wdl = capi::c_value(negate(v));
    }
    return int(n);
  });
}

int egtmin_get_stats(egtmin_tb* tb, egtmin_stats* stats) {
  if (!tb || !stats) return fail(EGTMIN_ERR_ARGUMENT, "egtmin_get_stats: null argument");
  of(tb)->stats(*stats);
  return EGTMIN_OK;
}

int egtmin_set_memory_cap(egtmin_tb* tb, uint64_t bytes) {
  if (!tb) return fail(EGTMIN_ERR_ARGUMENT, "egtmin_set_memory_cap: null handle");
  return capi::guarded([&] { return of(tb)->set_memory_cap(bytes); });
}

const char* egtmin_strerror(int code) {
  switch (code) {
    case EGTMIN_OK: return "no error";
    case EGTMIN_ERR_ARGUMENT: return "invalid argument";
    case EGTMIN_ERR_DIRECTORY: return "cannot list the directory";
    case EGTMIN_ERR_POSITION: return "malformed or illegal position";
    case EGTMIN_ERR_CASTLING: return "castling rights are not supported";
    case EGTMIN_ERR_RULE50: return "WDL probes need a halfmove clock of 0";
    case EGTMIN_ERR_NO_COVER: return "no cover for the balance";
    case EGTMIN_ERR_FILE: return "cover file unreadable, damaged or of another version";
    case EGTMIN_ERR_MEMORY: return "out of memory";
    case EGTMIN_ERR_BUFFER: return "moves array too small";
    case EGTMIN_ERR_INTERNAL: return "internal error";
    case EGTMIN_ERR_OPTIONS_SIZE: return "egtmin_options.struct_size not set by EGTMIN_OPTIONS_INIT, or too new";
    default: return "unknown error code";
  }
}

const char* egtmin_last_error(void) { return capi::last_error(); }

}  // extern "C"
