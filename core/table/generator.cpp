// SPDX-License-Identifier: GPL-3.0-or-later
//
// How it works. Every canonical legal position gets a state byte and two counter bytes, indexed
// by its symmetry slot. Positions are solved in layers of pawn advancement, most advanced first:
// a pawn move always advances, so the positions it leads to are already final, like those of
// captures and promotions (which leave the table). Pawn moves, captures and promotions are the
// zeroing moves of the 50-move rule; every other move is quiet and stays in its layer.
//
// Per layer, a forward pass looks at every position's moves: zeroing moves are valued at once
// from the final values they reach, quiet moves are counted as distinct canonical successor
// classes. Then two retrograde analyses run over the layer's quiet moves:
//  - without the rule: a loss for the side to move makes every predecessor a win; a win
//    decrements each predecessor's counter, and a predecessor whose counter reaches zero is lost
//    (or drawn, when a zeroing move offers a draw). What never resolves is a draw.
//  - with the rule, in rounds of one ply: round d holds the positions won or lost in exactly d
//    plies to a zeroing move that keeps the result (or to mate). A win within the rule needs a
//    zeroing move into a loss within the rule; a defender escapes through any zeroing move that
//    does not lose within the rule. Rounds stop at 100 plies, the rule's limit.
// A position won without the rule but not within it is a cursed win; lost without it but not
// within it, a blessed loss. When no position of a layer has a zeroing move into a cursed win or
// a blessed loss, the two analyses differ only in the rule's limit, so one analysis does both:
// the rule's rounds run on past 100 plies, and what they decide there is cursed or blessed (the
// retrograde passes are most of a table's time; this halves them for most layers). The round of
// each rule decision is the position's distance to zeroing, which the self-check
// (table/self_check.hpp) can verify ply by ply.
//
// Counting distinct successor classes, not moves, makes symmetric duplicates harmless: a class
// is resolved once, and the set of canonical predecessors of its representative is exactly the
// set of canonical positions with a quiet move into that class.
//
// En passant: after a double push next to an enemy pawn the opponent may also capture en
// passant, so the push is worth the better, for the opponent, of the pushed position and the
// capture.
#include "table/generator.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>

#include "chess/attacks.hpp"
#include "util/parallel.hpp"

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

int pawn_advancement(Color c, Square s) { return c == White ? 6 - row_of(s) : row_of(s) - 1; }

namespace {

// State byte of a slot. Values without the rule are for the side to move.
enum : uint8_t { kUnknown = 0, kWin = 1, kDraw = 2, kLoss = 3 };
constexpr uint8_t kValueMask = 3;      // bits 0-1: the value without the rule
constexpr int kExitShift = 2;          // bits 2-3: the best zeroing move's value without the rule
constexpr uint8_t kRuleWin = 1 << 4;   // won within the rule
constexpr uint8_t kRuleLoss = 1 << 5;  // lost within the rule
constexpr uint8_t kEscape = 1 << 6;    // a zeroing move that does not lose within the rule
constexpr uint8_t kInvalid = 0x80;     // illegal, not canonical, or not in the current layer
constexpr uint8_t kRuleDecided = kRuleWin | kRuleLoss;

constexpr uint8_t plain(Wdl v) { return uint8_t(fold(v)); }  // kWin/kDraw/kLoss share Wdl's codes

// Where a capture and/or promotion leads: the successor table and how to fill its placement.
struct Exit {
  const Table* table = nullptr;
  bool flip = false;                          // colours swapped (and board mirrored rank-wise)
  int n = 0;                                  // pieces in the successor
  std::array<int8_t, kMaxTablePieces> src{};  // which slot of ours each successor slot comes from
};

class Generator {
 public:
  Generator(const Balance& b, const TableLookup& lookup, const GenerateOptions& opts, const Progress& progress)
      : table_(b),
        enc_(table_.encoding()),
        sym_(table_.symmetry()),
        k_(enc_.pieces()),
        threads_(resolve_threads(opts.threads)),
        distances_(opts.distances),
        two_analyses_(opts.two_analyses),
        progress_(progress) {
    // The last piece's field is the lowest of a slot: listed first, so layer_of_high_fields can skip it.
    for (int i = k_ - 1; i >= 0; --i) {
      color_[i] = color_of(enc_.piece(i));
      type_[i] = type_of(enc_.piece(i));
      if (type_[i] == King) king_[color_[i]] = i;
      if (type_[i] == Pawn) {
        if (i == k_ - 1 && k_ > 1) low_pawn_ = true, low_pawn_color_ = color_[i];
        max_layer_ += 5;
        PawnField& f = pawn_fields_[size_t(n_pawns_++)];
        f.shift = square_shift(k_, i);  // a slot packs slots 1..k-1 as an index does
        for (int sq = 0; sq < 64; ++sq) f.advancement[size_t(sq)] = uint8_t(pawn_advancement(color_[i], Square(sq)));
      }
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
  Wdl exit_value(const Placement& after, int captured, int promoting, int promo) const;
  Wdl push_value(const Placement& after, bool double_push, Square to) const;

  // A slot's pawn layer (the sum of its pawns' advancement) from the pawns' fields alone, leaving
  // out the lowest field (the last piece's square) when that piece is a pawn.
  int layer_of_high_fields(uint64_t slot) const {
    int l = 0;
    for (int j = low_pawn_ ? 1 : 0; j < n_pawns_; ++j) {
      const PawnField& f = pawn_fields_[size_t(j)];
      l += f.advancement[(slot >> f.shift) & kSquareMask];
    }
    return l;
  }
  // The slots of a block of 64 (the values of the lowest field, every other field fixed) that lie
  // in pawn layer `current`, as a range of the lowest field. The passes over a layer look at the
  // table once per layer (16 layers with three pawns): taking it a block at a time, they skip
  // the slots of other layers without looking at them. Where the last piece is a pawn, its
  // advancement is its rank, and one rank is 8 consecutive squares.
  std::pair<uint64_t, uint64_t> layer_range(uint64_t block, int current) const {
    if (max_layer_ == 0) return {0, kBlock};
    const int rest = layer_of_high_fields(block);
    if (!low_pawn_) return {0, rest == current ? kBlock : 0};
    const int need = current - rest;
    if (need < 0 || need > 5) return {0, 0};
    const uint64_t row = uint64_t(low_pawn_color_ == White ? 6 - need : need + 1);
    return {row * 8, row * 8 + 8};
  }
  // Runs body(slot) over the slots of [begin, end) in pawn layer `current`, in order.
  template <class F>
  void for_each_slot_in_layer(uint64_t begin, uint64_t end, int current, F&& body) const {
    for (uint64_t block = begin & ~(kBlock - 1); block < end; block += kBlock) {
      const auto [lo, hi] = layer_range(block, current);
      for (uint64_t s = std::max(block + lo, begin), last = std::min(block + hi, end); s < last; ++s) body(s);
    }
  }
  static constexpr uint64_t kBlock = uint64_t{1} << kSquareBits;
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
  // `pushed` (Illegal when there is none).
  Wdl ep_value(const Placement& p, Square pushed) const;

  void forward(uint64_t begin, uint64_t end, int layer, std::vector<uint32_t>& plain_front,
               std::vector<uint32_t>& mated, std::vector<uint32_t>& zeroed);
  void retro_plain(const uint32_t* begin, const uint32_t* end, std::vector<uint32_t>& next);
  // One round of the rule's analysis: the entries were decided at `distance` plies. kBoth: the
  // analysis without the rule too (a layer without zeroing moves into cursed wins or blessed
  // losses), so the rounds go on past the rule's limit and set the values without the rule.
  template <bool kBoth>
  void retro_round(const uint32_t* begin, const uint32_t* end, int distance, std::vector<uint32_t>& next);
  void finish_layer(uint64_t begin, uint64_t end, int layer);
  // Canonical slots with a quiet (non-pawn, non-capturing) move into p's class. All are found,
  // and their state bytes (and `counters`' bytes, when given) fetched, before f sees the first:
  // in a 5-piece table each is a cache miss, and taken one at a time the misses did not overlap
  // and the retrograde passes stalled on each in turn (docs/measured.md).
  template <class F>
  void for_each_quiet_predecessor(const Placement& p, uint64_t slot, const uint8_t* counters, F&& f) const;
  // Starts fetching what the retrograde passes read first for a frontier entry a few ahead.
  void prefetch_entry(const uint32_t* it, const uint32_t* end) const {
    constexpr ptrdiff_t kAhead = 8;
    if (end - it > kAhead) __builtin_prefetch(&state_[it[kAhead]]);
  }

  bool set_if(uint64_t slot, uint8_t unless, uint8_t bits) {
    std::atomic_ref<uint8_t> s(state_[slot]);
    uint8_t cur = s.load(std::memory_order_relaxed);
    while ((cur & (kInvalid | unless)) == 0)
      if (s.compare_exchange_weak(cur, uint8_t(cur | bits), std::memory_order_relaxed)) return true;
    return false;
  }
  uint8_t state(uint64_t slot) const {
    return std::atomic_ref<const uint8_t>(state_[slot]).load(std::memory_order_relaxed);
  }
  void set_distance(uint64_t slot, uint8_t d) {
    if (distances_) (*distances_)[slot] = d;
  }

  template <class F>
  void parallel(uint64_t n, F&& body);
  // Runs body over the frontier lists in one parallel sweep and gathers what they produce.
  template <class F>
  std::vector<uint32_t> sweep(std::vector<std::vector<uint32_t>>& lists, F&& body);

  Table table_;
  const Encoding& enc_;
  const Symmetry& sym_;
  int k_;
  int threads_;
  int max_layer_ = 0;
  // Each pawn's 6-bit field in a slot and its advancement by square, for layer_of_high_fields.
  struct PawnField {
    int shift = 0;
    std::array<uint8_t, 64> advancement{};
  };
  std::array<PawnField, kMaxTablePieces> pawn_fields_{};
  int n_pawns_ = 0;
  bool low_pawn_ = false;  // the last piece, whose square is a slot's lowest field, is a pawn
  Color low_pawn_color_ = White;
  // With pawns the only board symmetry is the left-right mirror, and a canonical position's
  // distinct quiet moves reach distinct classes: a move keeping the white king on files a-d
  // reaches a canonical position, different for different moves; a king move to the e-file
  // reaches the mirror of one with every other piece mirrored, and no other move mirrors the
  // black king (which a white move leaves in place and which stands on no axis). So the forward
  // pass counts quiet moves without computing their classes.
  bool quiet_moves_distinct() const { return n_pawns_ > 0; }
  std::vector<uint8_t>* distances_;
  bool two_analyses_;
  const Progress& progress_;
  std::array<Color, kMaxTablePieces> color_{};
  std::array<PieceType, kMaxTablePieces> type_{};
  std::array<int, 2> king_{};
  std::vector<Exit> exits_;
  std::vector<uint8_t> state_, plain_counter_, rule_counter_;
  // Set by the forward pass when a position's best zeroing move is a cursed win or a blessed
  // loss (worth a win or a loss without the rule, not within it): the layer needs both analyses.
  std::atomic<bool> rule_draw_exits_{false};
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
        if (!e.table) continue;  // reported by run()
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
Wdl Generator::exit_value(const Placement& after, int captured, int promoting, int promo) const {
  const Exit& e = exits_[exit_key(captured, promoting, promo)];
  Placement q;
  q.stm = e.flip ? ~after.stm : after.stm;
  for (int j = 0; j < e.n; ++j) q.sq[j] = e.flip ? flip_rank(after.sq[e.src[j]]) : after.sq[e.src[j]];
  const Wdl w = e.table->value(q);  // White's view in the successor's colouring
  return q.stm == White ? negate(w) : w;
}

// Value for the side that just moved of a pawn push inside the table (`after` has the opponent
// to move); the pushed position is in a more advanced layer, so its value is final.
Wdl Generator::push_value(const Placement& after, bool double_push, Square to) const {
  const Wdl white = table_.value(after);
  Wdl opponent = after.stm == White ? white : negate(white);
  if (double_push) opponent = better(opponent, ep_value(after, to));
  return negate(opponent);
}

Wdl Generator::ep_value(const Placement& p, Square pushed) const {
  Color us = p.stm;
  int victim = slot_at(p, pushed);
  Square ep = Square(us == White ? pushed - 8 : pushed + 8);
  Wdl best = Wdl::Illegal;
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
  // Slots a worker takes at a time: a multiple of 16, so threads never share a packed table word;
  // large enough that the shared counter is rarely touched, small enough that threads finish together.
  constexpr uint64_t kChunk = uint64_t{1} << 16;
  parallel_for(n, threads_, kChunk, progress_, [&](uint64_t b, uint64_t e, int worker) { body(worker, b, e); });
}

template <class F>
std::vector<uint32_t> Generator::sweep(std::vector<std::vector<uint32_t>>& lists, F&& body) {
  std::vector<uint32_t> all;
  for (auto& l : lists) {
    all.insert(all.end(), l.begin(), l.end());
    l.clear();
  }
  parallel(all.size(), [&](int id, uint64_t b, uint64_t e) { body(all.data() + b, all.data() + e, lists[id]); });
  return all;
}

void Generator::forward(uint64_t begin, uint64_t end, int current, std::vector<uint32_t>& plain_front,
                        std::vector<uint32_t>& mated, std::vector<uint32_t>& zeroed) {
  std::array<uint64_t, 256> succ;
  for_each_slot_in_layer(begin, end, current, [&](uint64_t slot) {
    Placement p = sym_.from_slot(slot);
    if (!enc_.is_legal(p) || !sym_.is_canonical(p)) {
      state_[slot] = kInvalid;
      return;
    }
    const Color us = p.stm;
    const Bitboard occ = occupancy(p);
    Bitboard own = 0;
    for (int i = 0; i < k_; ++i)
      if (color_[i] == us) own |= bb(p.sq[i]);
    const Square king = p.sq[king_[us]];
    const bool in_check = attacked(p, ~us, king, occ, k_);
    // Out of check, a move of a piece off every line through its king cannot expose the king: its
    // legality test is skipped (most of a position's moves; the test walks every enemy piece).
    const Bitboard exposing = in_check ? ~Bitboard{0} : kRookLines[king] | kBishopLines[king];
    int n_succ = 0, legal = 0;
    Wdl exit_best = Wdl::Illegal;  // best zeroing move, with the rule
    for (int i = 0; i < k_ && exit_best != Wdl::Win; ++i) {
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
      for (Bitboard t = targets; t && exit_best != Wdl::Win;) {
        const Square to = pop_lsb(t);
        const int captured = (occ & bb(to)) ? slot_at(p, to) : k_;
        Placement a = p;
        a.sq[i] = to;
        if (i == king_[us] || (exposing & bb(from))) {
          const Bitboard o = (occ & ~bb(from)) | bb(to);
          if (attacked(a, ~us, a.sq[king_[us]], o, captured)) continue;
        }
        ++legal;
        a.stm = ~us;
        const bool promotes = type_[i] == Pawn && (bb(to) & kPromotionRanks);
        if (promotes || captured != k_) {
          for (int promo = 0; promo < (promotes ? 4 : 1); ++promo)
            exit_best = better(exit_best, exit_value(a, captured, promotes ? i : k_, promo));
          if (promotes) legal += 3;
        } else if (type_[i] == Pawn) {
          exit_best = better(exit_best, push_value(a, bool(double_push & bb(to)), to));
        } else if (quiet_moves_distinct()) {
          ++n_succ;
        } else {
          succ[n_succ++] = sym_.moved_slot(p, slot, i, to);
        }
      }
    }
    // Distinct successor classes: duplicates come only from symmetric successors, so they are rare
    // and one sort at the end is cheaper than a search per move.
    if (!quiet_moves_distinct()) {
      std::sort(succ.begin(), succ.begin() + n_succ);
      n_succ = int(std::unique(succ.begin(), succ.begin() + n_succ) - succ.begin());
    }
    if (is_rule_draw(exit_best)) rule_draw_exits_.store(true, std::memory_order_relaxed);
    uint8_t st = uint8_t(plain(exit_best) << kExitShift);
    if (exit_best != Wdl::Illegal && exit_best != Wdl::Loss) st |= kEscape;
    uint8_t value = kUnknown;
    if (legal == 0) {
      value = in_check ? kLoss : kDraw;
      if (in_check) {
        st |= kRuleLoss;
        mated.push_back(uint32_t(slot));
      }
    } else if (exit_best == Wdl::Win) {
      value = kWin;
      st |= kRuleWin;
      zeroed.push_back(uint32_t(slot));
    } else if (fold(exit_best) == Wdl::Win) {
      value = kWin;
    } else if (n_succ == 0) {
      value = plain(exit_best);
      if (exit_best == Wdl::Loss) {
        st |= kRuleLoss;
        zeroed.push_back(uint32_t(slot));
      }
    }
    plain_counter_[slot] = rule_counter_[slot] = uint8_t(n_succ);
    state_[slot] = uint8_t(st | value);
    if (value == kWin || value == kLoss) plain_front.push_back(uint32_t(slot));
  });
}

template <class F>
void Generator::for_each_quiet_predecessor(const Placement& p, uint64_t slot, const uint8_t* counters, F&& f) const {
  std::array<uint64_t, 256> seen;
  int n_seen = 0;
  const Color mover = ~p.stm;
  const Bitboard occ = occupancy(p);
  for (int i = 0; i < k_; ++i) {
    if (color_[i] != mover || type_[i] == Pawn) continue;  // pawn moves zero the count: not quiet
    const Square at = p.sq[i];
    for (Bitboard o = attacks(type_[i], mover, at, occ) & ~occ; o;) {
      const Square from = pop_lsb(o);
      Placement q = p;
      q.sq[i] = from;
      q.stm = mover;
      // The side not to move in q must not be in check.
      if (attacked(q, mover, q.sq[king_[p.stm]], (occ & ~bb(at)) | bb(from), k_)) continue;
      const uint64_t qs = sym_.moved_slot(p, slot, i, from);
      if (std::find(seen.begin(), seen.begin() + n_seen, qs) != seen.begin() + n_seen) continue;
      seen[n_seen++] = qs;
      __builtin_prefetch(&state_[qs]);
      if (counters) __builtin_prefetch(&counters[qs]);
    }
  }
  for (int i = 0; i < n_seen; ++i) f(seen[size_t(i)]);
}

void Generator::retro_plain(const uint32_t* begin, const uint32_t* end, std::vector<uint32_t>& next) {
  for (const uint32_t* it = begin; it != end; ++it) {
    prefetch_entry(it, end);
    const Placement p = sym_.from_slot(*it);
    const uint8_t v = state_[*it] & kValueMask;  // for p.stm
    for_each_quiet_predecessor(p, *it, v == kLoss ? nullptr : plain_counter_.data(), [&](uint64_t qs) {
      if (v == kLoss) {
        if (set_if(qs, kValueMask, kWin)) next.push_back(uint32_t(qs));
        return;
      }
      if (state(qs) & (kInvalid | kValueMask)) return;
      if (std::atomic_ref<uint8_t>(plain_counter_[qs]).fetch_sub(1, std::memory_order_relaxed) != 1) return;
      const uint8_t exit_best = (state(qs) >> kExitShift) & kValueMask;
      const uint8_t value = exit_best == kDraw ? kDraw : kLoss;
      if (set_if(qs, kValueMask, value) && value == kLoss) next.push_back(uint32_t(qs));
    });
  }
}

template <bool kBoth>
void Generator::retro_round(const uint32_t* begin, const uint32_t* end, int distance, std::vector<uint32_t>& next) {
  // What this round decides is decided in distance + 1 plies: within the rule up to its limit.
  const bool within = distance < kRuleLimitPlies;
  // The bits that say a position is decided, and those that decide it won or lost.
  const uint8_t decided = kBoth ? kValueMask : kRuleDecided;
  const uint8_t win = kBoth ? uint8_t(kWin | (within ? kRuleWin : 0)) : kRuleWin;
  const uint8_t loss = kBoth ? uint8_t(kLoss | (within ? kRuleLoss : 0)) : kRuleLoss;
  for (const uint32_t* it = begin; it != end; ++it) {
    prefetch_entry(it, end);
    const Placement p = sym_.from_slot(*it);
    if (distance <= kRuleLimitPlies) set_distance(*it, uint8_t(distance));
    if (!kBoth && !within) continue;  // what these decide would take more than 100 plies
    const bool lost = kBoth ? (state_[*it] & kValueMask) == kLoss : bool(state_[*it] & kRuleLoss);
    for_each_quiet_predecessor(p, *it, lost ? nullptr : rule_counter_.data(), [&](uint64_t qs) {
      if (lost) {
        if (set_if(qs, decided, win)) next.push_back(uint32_t(qs));
        return;
      }
      if (state(qs) & (kInvalid | decided)) return;
      if (std::atomic_ref<uint8_t>(rule_counter_[qs]).fetch_sub(1, std::memory_order_relaxed) != 1) return;
      if (state(qs) & kEscape) return;  // a zeroing move that does not lose
      if (set_if(qs, decided, loss)) next.push_back(uint32_t(qs));
    });
  }
}

void Generator::finish_layer(uint64_t begin, uint64_t end, int current) {
  const uint64_t half = sym_.domain_size() / 2;
  for_each_slot_in_layer(begin, end, current, [&](uint64_t s) {
    const uint8_t st = state_[s];
    if (st & kInvalid) return;
    Wdl v;  // for the side to move
    if (st & kRuleWin)
      v = Wdl::Win;
    else if (st & kRuleLoss)
      v = Wdl::Loss;
    else
      switch (st & kValueMask) {
        case kWin: v = Wdl::CursedWin; break;
        case kLoss: v = Wdl::BlessedLoss; break;
        default: v = Wdl::Draw; break;
      }
    table_.set_slot(s, s < half ? v : negate(v));  // the first half of the slots has White to move
  });
}

Result<Table> Generator::run() {
  const std::string name = table_.balance().name();
  for (const Balance& sub : successor_balances(table_.balance()))
    if (!std::any_of(exits_.begin(), exits_.end(), [&](const Exit& e) { return e.table && e.table->balance() == sub; }))
      return Error{"cannot generate " + name + ": the table of " + sub.name() + " is missing"};
  const uint64_t n = sym_.domain_size();
  state_.assign(n, kInvalid);
  plain_counter_.assign(n, 0);
  rule_counter_.assign(n, 0);
  if (distances_) distances_->assign(n, kNoRuleDistance);

  const double layers = max_layer_ + 1;
  std::vector<std::vector<uint32_t>> plain_front(threads_), mated(threads_), zeroed(threads_);
  for (int current = max_layer_; current >= 0; --current) {
    const double done = double(max_layer_ - current) / layers;
    const std::string where = max_layer_ > 0 ? name + ": pawn layer " + std::to_string(max_layer_ - current + 1) +
                                                   " of " + std::to_string(max_layer_ + 1)
                                             : name;
    std::atomic<uint64_t> scanned{0};
    parallel(n, [&](int id, uint64_t b, uint64_t e) {
      forward(b, e, current, plain_front[id], mated[id], zeroed[id]);
      const uint64_t d = scanned.fetch_add(e - b) + (e - b);
      progress_.report(Stage::Generate, done + 0.5 * double(d) / double(n) / layers, where + ": moves");
    });
    if (progress_.cancelled()) return Error{"cancelled"};

    const bool both = !rule_draw_exits_.exchange(false, std::memory_order_relaxed) && !two_analyses_;
    if (!both) {
      progress_.report(Stage::Generate, done + 0.6 / layers, where + ": without the 50-move rule");
      while (!sweep(plain_front, [&](auto b, auto e, auto& out) { retro_plain(b, e, out); }).empty())
        if (progress_.cancelled()) return Error{"cancelled"};
    }
    // Rule rounds: mates are decided at 0 plies, zeroing moves at 1; each round adds one ply, up
    // to the rule's limit, or until nothing more is decided when one analysis does both.
    // sweep() leaves what a round decides in the lists it was given: the next round.
    for (int d = 0; both || d <= kRuleLimitPlies; ++d) {
      if (d == 1)
        for (int t = 0; t < threads_; ++t) mated[t].insert(mated[t].end(), zeroed[t].begin(), zeroed[t].end());
      const bool any = !sweep(mated, [&](auto b, auto e, auto& out) {
                          if (both)
                            retro_round<true>(b, e, d, out);
                          else
                            retro_round<false>(b, e, d, out);
                        }).empty();
      if (progress_.cancelled()) return Error{"cancelled"};
      if (!any && d > 0) break;
      progress_.report(Stage::Generate, done + (0.6 + 0.3 * std::min(d, kRuleLimitPlies) / kRuleLimitPlies) / layers,
                       where + ": 50-move rule");
    }
    for (auto& l : plain_front) l.clear();
    for (auto& l : zeroed) l.clear();
    for (auto& l : mated) l.clear();

    parallel(n, [&](int, uint64_t b, uint64_t e) { finish_layer(b, e, current); });
    if (progress_.cancelled()) return Error{"cancelled"};
  }
  state_ = {};
  plain_counter_ = {};
  rule_counter_ = {};
  return std::move(table_);
}

}  // namespace

Result<Table> generate(const Balance& b, const TableLookup& lookup, const GenerateOptions& opts,
                       const Progress& progress) {
  if (!b.is_canonical()) return Error{b.name() + " is not in canonical form; generate " + b.canonical().name()};
  if (auto s = check_supported(b); !s) return s.error();
  Generator g(b, lookup, opts, progress);
  return g.run();
}

}  // namespace egtmin
