// SPDX-License-Identifier: GPL-3.0-or-later
//
// How it works. Every canonical legal position gets a state byte and a counter byte, indexed by
// its symmetry slot. A forward pass resolves what needs no in-table information (mates,
// stalemates, winning captures or promotions) and counts, for every other position, the distinct
// canonical classes its quiet moves lead to. Retrograde passes then push resolved positions back
// to their predecessors: a loss for the side to move makes every predecessor a win; a win
// decrements each predecessor's counter, and a predecessor whose counter reaches zero is lost
// (or drawn, when a capture or promotion offers a draw). What never resolves is a draw.
//
// Counting distinct successor classes, not moves, makes symmetric duplicates harmless: a class
// is resolved once, and the set of canonical predecessors of its representative is exactly the
// set of canonical positions with a move into that class.
//
// En passant: a double push next to an enemy pawn lets the opponent choose between the table
// position and the en-passant capture (which leaves the table). Such a move is an exit worth a
// loss when the capture wins for the opponent, and otherwise counts as a quiet move that can only
// ever be worth a draw to the mover when the capture draws.
#include "table/generator.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "chess/attacks.hpp"
#include "util/defaults.hpp"

namespace egtmin {

std::vector<Balance> successor_balances(const Balance& b) {
  std::vector<Balance> out;
  auto add = [&](std::string name) {
    auto nb = Balance::parse(name);
    if (nb && std::find(out.begin(), out.end(), nb->canonical()) == out.end()) out.push_back(nb->canonical());
  };
  // Work on names: remove one piece letter, or replace a pawn with a promotion piece.
  std::string n = b.name();
  for (size_t i = 0; i < n.size(); ++i) {
    if (n[i] == 'v' || n[i] == 'K') continue;
    add(n.substr(0, i) + n.substr(i + 1));  // captured
    if (n[i] != 'P') continue;
    size_t v = n.find('v');
    for (char pr : {'Q', 'R', 'B', 'N'}) {
      std::string promoted = n;
      promoted[i] = pr;
      add(promoted);
      // Promotion with capture of any enemy non-king piece.
      size_t lo = i < v ? v + 1 : 0, hi = i < v ? n.size() : v;
      for (size_t j = lo; j < hi; ++j)
        if (n[j] != 'K') add(promoted.substr(0, j) + promoted.substr(j + 1));
    }
  }
  return out;
}

namespace {

// Values from the side to move's point of view.
enum : uint8_t { kUnknown = 0, kWin = 1, kDraw = 2, kLoss = 3 };
constexpr uint8_t kInvalid = 0x80;  // illegal or not canonical
constexpr int kExitShift = 2;       // bits 2-3: best capture/promotion value, 0 = none
constexpr uint8_t kValueMask = 3;

constexpr uint8_t flip_value(uint8_t v) { return v == kWin ? uint8_t(kLoss) : (v == kLoss ? uint8_t(kWin) : v); }
// Order for the side to move: loss < draw < win. Returns the better of a and b (0 = nothing).
constexpr int rank_of_value(uint8_t v) { return v == kLoss ? 1 : (v == kDraw ? 2 : (v == kWin ? 3 : 0)); }
constexpr uint8_t better(uint8_t a, uint8_t b) { return rank_of_value(a) >= rank_of_value(b) ? a : b; }

// Where a capture and/or promotion leads: the successor table and how to fill its placement.
struct Exit {
  const Table* table = nullptr;
  bool flip = false;                          // colours swapped (and board mirrored rank-wise)
  int n = 0;                                  // pieces in the successor
  std::array<int8_t, kMaxTablePieces> src{};  // which slot of ours each successor slot comes from
};

class Generator {
 public:
  Generator(const Balance& b, const TableLookup& lookup, int threads, const Progress& progress)
      : table_(b),
        enc_(table_.encoding()),
        sym_(table_.symmetry()),
        k_(enc_.pieces()),
        threads_(threads),
        progress_(progress) {
    for (int i = 0; i < k_; ++i) {
      color_[i] = color_of(enc_.piece(i));
      type_[i] = type_of(enc_.piece(i));
      if (type_[i] == King) king_[color_[i]] = i;
    }
    build_exits(lookup);
  }

  Result<Table> run();

 private:
  // Exits indexed by (captured slot or k) * (k + 1) + (promoting slot or k), times 4 promotion types.
  size_t exit_key(int captured, int promoting, int promo) const {
    return (size_t(captured) * size_t(k_ + 1) + size_t(promoting)) * 4 + size_t(promo);
  }
  void build_exits(const TableLookup& lookup);
  uint8_t exit_value(const Placement& after, int captured, int promoting, int promo) const;

  bool attacked(const Placement& p, Color by, Square target, Bitboard occ, int skip) const {
    for (int i = 0; i < k_; ++i) {
      if (i == skip || color_[i] != by) continue;
      if (attacks_square(type_[i], by, p.sq[i], target, occ)) return true;
    }
    return false;
  }
  Bitboard occupancy(const Placement& p) const {
    Bitboard o = 0;
    for (int i = 0; i < k_; ++i) o |= bb(p.sq[i]);
    return o;
  }
  int slot_at(const Placement& p, Square s) const {
    for (int i = 0; i < k_; ++i)
      if (p.sq[i] == s) return i;
    return -1;
  }
  // Best value for the side to move of its en-passant captures of the pawn that just moved to
  // `pushed` (0 when there is none).
  uint8_t ep_value(const Placement& p, Square pushed) const;

  void forward(uint64_t begin, uint64_t end, std::vector<uint32_t>& frontier);
  void retro(const uint32_t* begin, const uint32_t* end, std::vector<uint32_t>& next);
  bool set_if_unknown(uint64_t slot, uint8_t value) {
    std::atomic_ref<uint8_t> s(state_[slot]);
    uint8_t cur = s.load(std::memory_order_relaxed);
    while ((cur & (kInvalid | kValueMask)) == 0)
      if (s.compare_exchange_weak(cur, uint8_t(cur | value), std::memory_order_relaxed)) return true;
    return false;
  }

  template <class F>
  void parallel(uint64_t n, F&& body);

  Table table_;
  const Encoding& enc_;
  const Symmetry& sym_;
  int k_;
  int threads_;
  const Progress& progress_;
  std::array<Color, kMaxTablePieces> color_{};
  std::array<PieceType, kMaxTablePieces> type_{};
  std::array<int, 2> king_{};
  std::vector<Exit> exits_;
  std::vector<uint8_t> state_, counter_;
  std::atomic<uint64_t> done_{0};
};

void Generator::build_exits(const TableLookup& lookup) {
  exits_.assign(exit_key(k_, k_, 3) + 1, Exit{});
  for (int cap = 0; cap <= k_; ++cap)
    for (int pro = 0; pro <= k_; ++pro)
      for (int promo = 0; promo < 4; ++promo) {
        if (cap == k_ && pro == k_) continue;
        if (cap < k_ && (type_[cap] == King)) continue;
        if (pro < k_ && (type_[pro] != Pawn || cap == pro)) continue;
        if (pro == k_ && promo != 0) continue;
        if (cap < k_ && pro < k_ && color_[cap] == color_[pro]) continue;
        // Remaining pieces and where they come from.
        std::vector<std::pair<Piece, int>> rest;
        for (int i = 0; i < k_; ++i) {
          if (i == cap) continue;
          Piece pc = enc_.piece(i);
          if (i == pro) pc = make_piece(color_[i], PieceType(Queen + promo));
          rest.push_back({pc, i});
        }
        Balance sub;
        {
          std::string w, bl;
          for (auto& [pc, i] : rest) (color_of(pc) == White ? w : bl) += type_char(type_of(pc));
          auto parsed = Balance::parse(w + "v" + bl);
          if (!parsed) continue;
          sub = *parsed;
        }
        Exit e;
        e.flip = !sub.is_canonical();
        e.table = lookup(sub.canonical());
        if (!e.table) continue;  // reported by run() through missing_
        if (e.flip)
          for (auto& [pc, i] : rest) pc = make_piece(~color_of(pc), type_of(pc));
        std::stable_sort(rest.begin(), rest.end(), [](auto& a, auto& b) { return a.first < b.first; });
        e.n = int(rest.size());
        for (int j = 0; j < e.n; ++j) e.src[j] = int8_t(rest[j].second);
        exits_[exit_key(cap, pro, promo)] = e;
      }
}

// Value for the side that just moved of the position `after` (squares already updated, the
// captured slot ignored, side to move = the opponent).
uint8_t Generator::exit_value(const Placement& after, int captured, int promoting, int promo) const {
  const Exit& e = exits_[exit_key(captured, promoting, promo)];
  Placement q;
  q.stm = e.flip ? ~after.stm : after.stm;
  for (int j = 0; j < e.n; ++j) q.sq[j] = e.flip ? Square(after.sq[e.src[j]] ^ 56) : after.sq[e.src[j]];
  Wdl w = e.table->value(q);  // White's view in the successor's colouring
  uint8_t for_stm = q.stm == White ? uint8_t(w) : uint8_t(negate(w));
  return flip_value(for_stm);
}

uint8_t Generator::ep_value(const Placement& p, Square pushed) const {
  Color us = p.stm;
  int victim = slot_at(p, pushed);
  Square ep = Square(us == White ? pushed - 8 : pushed + 8);
  uint8_t best = 0;
  Bitboard occ = occupancy(p);
  for (int i = 0; i < k_; ++i) {
    if (color_[i] != us || type_[i] != Pawn) continue;
    if (!(pawn_attacks(us, p.sq[i]) & bb(ep))) continue;
    Placement a = p;
    a.sq[i] = ep;
    Bitboard o = (occ & ~bb(p.sq[i]) & ~bb(pushed)) | bb(ep);
    Square king = a.sq[king_[us]];
    if (attacked(a, ~us, king, o, victim)) continue;
    a.stm = ~us;
    best = better(best, exit_value(a, victim, k_, 0));
  }
  return best;
}

template <class F>
void Generator::parallel(uint64_t n, F&& body) {
  int t = std::max(1, threads_);
  std::vector<std::thread> pool;
  std::atomic<uint64_t> next{0};
  // Slots a worker takes at a time: a multiple of 32, so threads never share a packed table word;
  // large enough that the shared counter is rarely touched, small enough that threads finish together.
  constexpr uint64_t kChunk = uint64_t{1} << 16;
  for (int i = 0; i < t; ++i)
    pool.emplace_back([&, i] {
      for (;;) {
        uint64_t b = next.fetch_add(kChunk);
        if (b >= n || progress_.cancelled()) return;
        body(i, b, std::min(n, b + kChunk));
      }
    });
  for (auto& th : pool) th.join();
}

void Generator::forward(uint64_t begin, uint64_t end, std::vector<uint32_t>& frontier) {
  std::array<uint64_t, 256> succ;
  for (uint64_t slot = begin; slot < end; ++slot) {
    Placement p = sym_.from_slot(slot);
    if (!enc_.is_legal(p) || !sym_.is_canonical(p)) {
      state_[slot] = kInvalid;
      continue;
    }
    const Color us = p.stm;
    const Bitboard occ = occupancy(p);
    Bitboard own = 0;
    for (int i = 0; i < k_; ++i)
      if (color_[i] == us) own |= bb(p.sq[i]);
    int n_succ = 0, legal = 0;
    uint8_t exit_best = 0;
    bool win = false;
    for (int i = 0; i < k_ && !win; ++i) {
      if (color_[i] != us) continue;
      const Square from = p.sq[i];
      Bitboard targets;
      Bitboard double_push = 0;
      if (type_[i] == Pawn) {
        int fwd = us == White ? -8 : 8;
        Square one = Square(from + fwd);
        targets = pawn_attacks(us, from) & (occ & ~own);
        if (!(occ & bb(one))) {
          targets |= bb(one);
          if (row_of(from) == (us == White ? 6 : 1) && !(occ & bb(Square(one + fwd))))
            double_push = bb(Square(one + fwd));
        }
        targets |= double_push;
      } else {
        targets = attacks(type_[i], us, from, occ) & ~own;
      }
      for (Bitboard t = targets; t && !win;) {
        const Square to = pop_lsb(t);
        const int captured = (occ & bb(to)) ? slot_at(p, to) : k_;
        Placement a = p;
        a.sq[i] = to;
        Bitboard o = (occ & ~bb(from)) | bb(to);
        if (attacked(a, ~us, a.sq[king_[us]], o, captured)) continue;
        ++legal;
        a.stm = ~us;
        const bool promotes = type_[i] == Pawn && (bb(to) & kPromotionRanks);
        if (promotes || captured != k_) {
          for (int promo = 0; promo < (promotes ? 4 : 1); ++promo) {
            uint8_t v = exit_value(a, captured, promotes ? i : k_, promo);
            exit_best = better(exit_best, v);
            if (v == kWin) win = true;
          }
          if (promotes) legal += 3;
          continue;
        }
        if (double_push & bb(to)) {
          uint8_t e = ep_value(a, to);  // for the opponent
          if (e == kWin) {              // the push just loses
            exit_best = better(exit_best, kLoss);
            continue;
          }
        }
        succ[n_succ++] = sym_.slot(sym_.canonical(a));
      }
    }
    // Distinct successor classes: duplicates come only from symmetric successors, so they are rare
    // and one sort at the end is cheaper than a search per move.
    std::sort(succ.begin(), succ.begin() + n_succ);
    n_succ = int(std::unique(succ.begin(), succ.begin() + n_succ) - succ.begin());
    uint8_t st = uint8_t(exit_best << kExitShift);
    uint8_t value = kUnknown;
    if (win)
      value = kWin;
    else if (legal == 0)
      value = attacked(p, ~us, p.sq[king_[us]], occ, k_) ? kLoss : kDraw;
    else if (n_succ == 0)
      value = exit_best;
    counter_[slot] = uint8_t(n_succ);
    state_[slot] = uint8_t(st | value);
    if (value == kWin || value == kLoss) frontier.push_back(uint32_t(slot));
  }
}

void Generator::retro(const uint32_t* begin, const uint32_t* end, std::vector<uint32_t>& next) {
  std::array<uint64_t, 256> preds;
  for (const uint32_t* it = begin; it != end; ++it) {
    const uint64_t slot = *it;
    const Placement p = sym_.from_slot(slot);
    const uint8_t v = state_[slot] & kValueMask;  // for p.stm
    const Color mover = ~p.stm;
    const Bitboard occ = occupancy(p);
    int n_pred = 0;
    uint8_t ep = 0xFF;  // computed on first need
    for (int i = 0; i < k_; ++i) {
      if (color_[i] != mover) continue;
      const Square at = p.sq[i];
      Bitboard origins, double_origin = 0;
      if (type_[i] == Pawn) {
        int back = mover == White ? 8 : -8;
        origins = 0;
        Square one = Square(at + back);
        if (!(occ & bb(one)) && !(bb(one) & kPromotionRanks)) {
          origins = bb(one);
          if (row_of(at) == (mover == White ? 4 : 3) && !(occ & bb(Square(one + back))))
            double_origin = bb(Square(one + back));
        }
        origins |= double_origin;
      } else {
        origins = attacks(type_[i], mover, at, occ) & ~occ;
      }
      for (Bitboard o = origins; o;) {
        const Square from = pop_lsb(o);
        Placement q = p;
        q.sq[i] = from;
        q.stm = mover;
        // The side not to move in q must not be in check.
        if (attacked(q, mover, q.sq[king_[p.stm]], (occ & ~bb(at)) | bb(from), k_)) continue;
        if (double_origin & bb(from)) {
          if (ep == 0xFF) ep = ep_value(p, at);
          if (ep == kWin || (ep == kDraw && v == kLoss)) continue;
        }
        const uint64_t qs = sym_.slot(sym_.canonical(q));
        if (v == kLoss) {
          if (set_if_unknown(qs, kWin)) next.push_back(uint32_t(qs));
        } else if (std::find(preds.begin(), preds.begin() + n_pred, qs) == preds.begin() + n_pred) {
          preds[n_pred++] = qs;
        }
      }
    }
    for (int j = 0; j < n_pred; ++j) {
      const uint64_t qs = preds[j];
      if (std::atomic_ref<uint8_t>(state_[qs]).load(std::memory_order_relaxed) & (kInvalid | kValueMask)) continue;
      std::atomic_ref<uint8_t> c(counter_[qs]);
      if (c.fetch_sub(1, std::memory_order_relaxed) != 1) continue;
      uint8_t exit_best =
          uint8_t((std::atomic_ref<uint8_t>(state_[qs]).load(std::memory_order_relaxed) >> kExitShift) & kValueMask);
      uint8_t value = exit_best == kDraw ? kDraw : kLoss;
      if (set_if_unknown(qs, value) && value == kLoss) next.push_back(uint32_t(qs));
    }
  }
}

Result<Table> Generator::run() {
  const std::string name = table_.balance().name();
  for (const Balance& sub : successor_balances(table_.balance()))
    if (!std::any_of(exits_.begin(), exits_.end(), [&](const Exit& e) { return e.table && e.table->balance() == sub; }))
      return Error{"cannot generate " + name + ": the table of " + sub.name() + " is missing"};
  const uint64_t n = sym_.domain_size();
  state_.assign(n, 0);
  counter_.assign(n, 0);
  const int t = std::max(1, threads_);

  std::vector<std::vector<uint32_t>> local(t);
  done_ = 0;
  parallel(n, [&](int id, uint64_t b, uint64_t e) {
    forward(b, e, local[id]);
    uint64_t d = done_.fetch_add(e - b) + (e - b);
    progress_.report(Stage::Generate, double(d) / double(n), name + ": moves");
  });
  if (progress_.cancelled()) return Error{"cancelled"};

  std::vector<uint32_t> frontier;
  for (int pass = 1;; ++pass) {
    frontier.clear();
    for (auto& l : local) {
      frontier.insert(frontier.end(), l.begin(), l.end());
      l.clear();
    }
    if (frontier.empty()) break;
    progress_.report(Stage::Generate, 0.0, name + ": retrograde pass " + std::to_string(pass));
    const uint64_t m = frontier.size();
    parallel(m, [&](int id, uint64_t b, uint64_t e) { retro(frontier.data() + b, frontier.data() + e, local[id]); });
    if (progress_.cancelled()) return Error{"cancelled"};
  }

  parallel(n, [&](int, uint64_t b, uint64_t e) {
    for (uint64_t s = b; s < e; ++s) {
      uint8_t st = state_[s];
      if (st & kInvalid) continue;
      uint8_t v = st & kValueMask;
      if (v == kUnknown) v = kDraw;
      Wdl w = Wdl(v);  // kWin/kDraw/kLoss match Wdl's codes, for the side to move
      Color stm = Color(s / (n / 2));
      table_.set_slot(s, stm == White ? w : negate(w));
    }
  });
  if (progress_.cancelled()) return Error{"cancelled"};
  state_ = {};
  counter_ = {};
  return std::move(table_);
}

}  // namespace

Result<Table> generate(const Balance& b, const TableLookup& lookup, const GenerateOptions& opts,
                       const Progress& progress) {
  if (!b.is_canonical()) return Error{b.name() + " is not in canonical form; generate " + b.canonical().name()};
  if (b.pieces() > 5)
    return Error{b.name() + " has " + std::to_string(b.pieces()) + " pieces; the generator handles up to 5"};
  int threads = resolve_threads(opts.threads);
  Generator g(b, lookup, threads, progress);
  return g.run();
}

}  // namespace egtmin
