// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/syzygy.hpp"

#include "chess/position.hpp"

#include <tbprobe.h>

#include <algorithm>
#include <mutex>
#include <shared_mutex>

namespace egtmin {

namespace {
std::mutex g_mutex;  // Fathom's root probes and first probes of a table are not thread-safe
// Fathom's tables: shared by probes, exclusive for open(), which replaces them.
std::shared_mutex g_state;
Syzygy* g_instance = nullptr;  // never freed: callers keep the pointer across re-opens

// Fathom's value of a WDL probe (TB_LOSS .. TB_WIN) as a SyzygyWdl: the same numbers.
static_assert(TB_LOSS == unsigned(SyzygyWdl::Loss) && TB_BLESSED_LOSS == unsigned(SyzygyWdl::BlessedLoss) &&
              TB_DRAW == unsigned(SyzygyWdl::Draw) && TB_CURSED_WIN == unsigned(SyzygyWdl::CursedWin) &&
              TB_WIN == unsigned(SyzygyWdl::Win));
constexpr SyzygyWdl from_fathom(unsigned wdl) { return SyzygyWdl(wdl); }

struct Boards {
  uint64_t white = 0, black = 0, kings = 0, queens = 0, rooks = 0, bishops = 0, knights = 0, pawns = 0;
  void add(Piece p, Square s) {
    uint64_t b = uint64_t{1} << to_a1_index(s);
    (color_of(p) == White ? white : black) |= b;
    switch (type_of(p)) {
      case King: kings |= b; break;
      case Queen: queens |= b; break;
      case Rook: rooks |= b; break;
      case Bishop: bishops |= b; break;
      case Knight: knights |= b; break;
      case Pawn: pawns |= b; break;
      default: break;
    }
  }
};

Boards boards_of(const Position& pos) {
  Boards b;
  for (int s = 0; s < 64; ++s)
    if (pos.at(Square(s)) != NoPiece) b.add(pos.at(Square(s)), Square(s));
  return b;
}
}  // namespace

Result<Syzygy*> Syzygy::open(const std::filesystem::path& dir) {
  std::unique_lock state(g_state);
  std::lock_guard lock(g_mutex);
  if (g_instance && g_instance->dir_ == dir && TB_LARGEST > 0) return g_instance;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return Error{"Syzygy directory " + dir.string() + " does not exist"};
  if (!tb_init(dir.c_str())) return Error{"Fathom could not initialise Syzygy tables from " + dir.string()};
  if (TB_LARGEST == 0) return Error{"no Syzygy tables (*.rtbw) found in " + dir.string()};
  if (!g_instance) g_instance = new Syzygy(dir);
  g_instance->dir_ = dir;
  g_instance->warmed_.clear();
  return g_instance;
}

Syzygy::Hold Syzygy::hold() const { return Hold(g_state); }

std::filesystem::path Syzygy::dir() const {
  Hold h = hold();
  return dir_;
}

int Syzygy::largest() const { return int(TB_LARGEST); }

bool Syzygy::has_file(const Balance& b, const char* extension) const {
  if (b.pieces() == 2) return true;  // KvK is a draw without a file
  return std::filesystem::exists(dir_ / (b.canonical().name() + extension));
}

bool Syzygy::has_wdl(const Balance& b) const {
  Hold h = hold();
  return has_file(b, ".rtbw");
}

bool Syzygy::has_dtz(const Balance& b) const {
  Hold h = hold();
  return has_file(b, ".rtbz");
}

static std::optional<SyzygyWdl> probe(const Boards& b, unsigned ep, bool white_to_move) {
  unsigned r = tb_probe_wdl(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights, b.pawns, 0, 0, ep,
                            white_to_move);
  if (r == TB_RESULT_FAILED) return std::nullopt;
  return from_fathom(r);
}

std::optional<SyzygyWdl> Syzygy::wdl(const Position& pos) const { return wdl(hold(), pos); }

std::optional<SyzygyWdl> Syzygy::wdl(const Encoding& enc, const Placement& p) const { return wdl(hold(), enc, p); }

std::optional<SyzygyWdl> Syzygy::wdl(const Hold&, const Position& pos) const {
  if (pos.piece_count() > largest()) return std::nullopt;
  if (pos.piece_count() == 2) return SyzygyWdl::Draw;
  unsigned ep = pos.ep_square() == NoSquare ? 0 : to_a1_index(pos.ep_square());
  return probe(boards_of(pos), ep, pos.side_to_move() == White);
}

std::optional<SyzygyWdl> Syzygy::wdl(const Hold&, const Encoding& enc, const Placement& p) const {
  if (enc.pieces() == 2) return SyzygyWdl::Draw;
  Boards b;
  for (int i = 0; i < enc.pieces(); ++i) b.add(enc.piece(i), p.sq[i]);
  return probe(b, 0, p.stm == White);
}

void Syzygy::warm_up(const Balance& b) const {
  // Fathom maps and sets up each table on its first probe, and that is not safe while other
  // threads probe. A WDL probe also searches captures (and capture-promotions) into smaller
  // balances, so every balance with at most as many pieces is warmed, not only b: the capture
  // tables would otherwise be set up lazily by whichever thread reaches them first.
  Hold h = hold();
  for (const Balance& small : Balance::all_up_to(b.pieces())) {
    if (small.pieces() < 3 || !has_file(small, ".rtbw")) continue;
    for (const Balance& side : {small, small.flipped()}) {
      Encoding enc(side);
      std::lock_guard lock(g_mutex);
      if (!warmed_.insert(side.name()).second) continue;
      // One probe that reaches the table makes Fathom map it. Fathom answers a position with a
      // winning capture without opening its own table, so the probe must be of a legal placement
      // where the side to move has no capture.
      for (uint64_t idx = 0; idx < enc.size(); ++idx) {
        Placement p = enc.decode(idx);
        if (!enc.is_legal(p)) continue;
        const Position pos = enc.position(p);
        const MoveList moves = legal_moves(pos);
        if (std::any_of(moves.begin(), moves.end(), [&](const Move& m) { return pos.is_capture(m); })) continue;
        (void)wdl(h, enc, p);
        break;
      }
    }
  }
}

std::optional<int> Syzygy::dtz(const Position& pos) const {
  Hold h = hold();
  if (pos.piece_count() > largest() || !has_file(Balance::of(pos), ".rtbz")) return std::nullopt;
  if (pos.piece_count() == 2) return 0;
  Boards b = boards_of(pos);
  unsigned ep = pos.ep_square() == NoSquare ? 0 : to_a1_index(pos.ep_square());
  std::lock_guard lock(g_mutex);
  unsigned r = tb_probe_root(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights, b.pawns, 0, 0, ep,
                             pos.side_to_move() == White, nullptr);
  if (r == TB_RESULT_FAILED) return std::nullopt;
  if (r == TB_RESULT_CHECKMATE || r == TB_RESULT_STALEMATE) return 0;
  int d = int(TB_GET_DTZ(r));
  const SyzygyWdl w = from_fathom(TB_GET_WDL(r));
  return w < SyzygyWdl::Draw ? -d : w > SyzygyWdl::Draw ? d : 0;
}

}  // namespace egtmin
