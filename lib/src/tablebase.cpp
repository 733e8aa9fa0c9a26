// SPDX-License-Identifier: GPL-3.0-or-later
#include "tablebase.hpp"

#include <algorithm>
#include <cstdio>
#include <new>

#include "probe/probe_layout.hpp"
#include "store/cover_file.hpp"
#include "table/capture_resolve.hpp"
#include "util/defaults.hpp"
#include "util/key_hash.hpp"

namespace egtmin::capi {

namespace fs = std::filesystem;

namespace {
// The calling thread's last error: a fixed buffer, so that recording it cannot fail.
thread_local char tl_error[512] = "";
}  // namespace

int fail(int code, std::string_view message) noexcept {
  const size_t n = std::min(message.size(), sizeof(tl_error) - 1);
  std::copy_n(message.data(), n, tl_error);
  tl_error[n] = '\0';
  return code;
}

const char* last_error() noexcept { return tl_error; }

int Tablebase::open(const fs::path& dir, uint64_t memory_cap, std::unique_ptr<Tablebase>& out) {
  return open(std::vector<fs::path>{dir}, Missing::Fail, memory_cap, out);
}

int Tablebase::open(const std::vector<fs::path>& dirs, Missing missing, uint64_t memory_cap,
                    std::unique_ptr<Tablebase>& out) {
  std::unique_ptr<Tablebase> tb(new Tablebase);
  tb->tracked_ = memory_cap != 0;
  tb->cap_ = memory_cap;

  // A directory's covers: the standalone ones first, so that a balance with both kinds is read
  // from its standalone cover (no capture search), each kind in name order. A cover whose layout
  // alone is on disk counts as there (probe::probeable_covers).
  auto list = [](const fs::path& d, std::vector<fs::path>& files, std::error_code& ec) {
    for (store::CoverKind kind : {store::CoverKind::Standalone, store::CoverKind::CaptureResolved}) {
      const std::vector<fs::path> found = probe::probeable_covers(d, kind, ec);
      if (ec) return;
      files.insert(files.end(), found.begin(), found.end());
    }
  };
  std::vector<fs::path> files;
  for (const fs::path& dir : dirs) {
    std::error_code ec;
    const size_t before = files.size();
    list(dir, files, ec);
    if (ec) {
      files.resize(before);
      if (missing == Missing::Skip) continue;
      return fail(EGTMIN_ERR_DIRECTORY, dir.string() + ": " + ec.message());
    }
    // An egtmin data directory keeps its covers in covers/.
    fs::path read = dir;
    if (files.size() == before && fs::is_directory(dir / "covers", ec)) {
      read = dir / "covers";
      list(read, files, ec);
      if (ec) {
        files.resize(before);
        if (missing == Missing::Skip) continue;
        return fail(EGTMIN_ERR_DIRECTORY, read.string() + ": " + ec.message());
      }
    }
    tb->dirs_ += (tb->dirs_.empty() ? "" : ", ") + read.string();
  }

  // Each file's colourings by material key; a key already taken (a file named for the colour swap
  // of another, the other kind's cover of a balance, a cover of an earlier directory) is left to
  // the first file in the order above. Names that are no balance of 2-5 pieces
  // are not covers of ours and are left alone.
  struct Key {
    uint64_t key;
    uint32_t rec, colouring;
  };
  std::vector<Key> keys;
  for (const fs::path& f : files) {
    auto b = Balance::parse(f.stem().string());
    if (!b || !is_supported(*b)) continue;
    const auto rec = uint32_t(tb->recs_.size());
    bool any = false;
    for (uint32_t colouring = 0; colouring < 2; ++colouring) {
      const uint64_t key = (colouring ? b->flipped() : *b).material_key();
      if (std::any_of(keys.begin(), keys.end(), [&](const Key& k) { return k.key == key; })) continue;
      keys.push_back({key, rec, colouring});
      any = true;
    }
    if (!any) continue;
    auto r = std::make_unique<BalanceRec>();
    r->path = f;
    r->balance = *b;
    tb->recs_.push_back(std::move(r));
    tb->largest_ = std::max(tb->largest_, b->pieces());
  }

  // Open addressing, at most a quarter full, with the multiplier that leaves the fewest keys off
  // their home slot (util/key_hash.hpp, as CoverProber's material hash).
  unsigned bits = 6;
  while ((size_t{1} << bits) < 4 * keys.size()) ++bits;
  const size_t size = size_t{1} << bits;
  tb->hash_shift_ = 64 - bits;
  std::vector<uint64_t> key_values;
  for (const Key& k : keys) key_values.push_back(k.key);
  tb->hash_mul_ = best_key_multiplier(key_values, int(bits));
  tb->slots_ = std::make_unique<KeySlot[]>(size);
  tb->slot_mask_ = size - 1;
  for (const Key& k : keys)
    for (size_t h = size_t((k.key * tb->hash_mul_) >> tb->hash_shift_);; h = (h + 1) & (size - 1))
      if (tb->slots_[h].key == kNoKey) {
        KeySlot& slot = tb->slots_[h];
        slot.key = k.key;
        slot.rec = k.rec;
        slot.colouring = k.colouring;
        tb->recs_[k.rec]->slots[k.colouring] = &slot;
        break;
      }
  out = std::move(tb);
  return EGTMIN_OK;
}

Tablebase::~Tablebase() {
  // No thread probes any more (the API's contract): everything may go.
  for (auto& r : recs_) delete r->loaded.exchange(nullptr);
  for (const Retired& x : retired_) delete x.loaded;
}

namespace {
// Set while the probe of a position without a cover, or a capture-resolved cover's search, probes
// the positions its captures reach: those must come from covers (Fathom fails on a missing table
// there), not from a search of their own captures.
thread_local bool tl_children_from_covers = false;

struct ChildrenFromCovers {
  bool was = tl_children_from_covers;
  ChildrenFromCovers() { tl_children_from_covers = true; }
  ~ChildrenFromCovers() { tl_children_from_covers = was; }
};
}  // namespace

int Tablebase::no_cover(const Position& pos, Wdl& out) {
  if (pos.piece_count() == 2) {  // the bare kings need no file
    out = Wdl::Draw;
    return EGTMIN_OK;
  }
  if (missing_cover_ == MissingCover::WinningCapture) {
    // Fathom resolves captures before it reads a table, and answers a win found there without it.
    if (!tl_children_from_covers) {
      const ChildrenFromCovers from_covers;
      for (const Move& m : capture_and_promotion_moves(pos)) {
        if (!pos.is_capture(m)) continue;  // Fathom's search takes captures only
        Wdl v;
        if (probe(pos.after(m), v) != EGTMIN_OK) break;
        if (v == Wdl::Loss) {
          out = Wdl::Win;
          return EGTMIN_OK;
        }
      }
    }
    // Fathom's API has no message to read, and engines probe such positions often: none is made.
    return EGTMIN_ERR_NO_COVER;
  }
  if (pos.piece_count() > kMaxSupportedPieces)
    return fail(EGTMIN_ERR_NO_COVER, "more than " + std::to_string(kMaxSupportedPieces) + " pieces; covers go up to " +
                                         std::to_string(kMaxSupportedPieces));
  return fail(EGTMIN_ERR_NO_COVER, "no cover for " + Balance::of(pos).canonical().name() + " in " +
                                       (dirs_.empty() ? std::string("no directory") : dirs_));
}

int Tablebase::probe_ep(const Position& pos, Wdl& out) {
  // Covers hold positions without en-passant rights; the capture is one more move. When it is the
  // only move the position's own value (stalemate or mate without it) does not count.
  if (auto why = pos.illegal_reason()) return fail(EGTMIN_ERR_POSITION, "illegal position: " + *why);
  bool ep_move = false, other_move = false;
  Wdl best = Wdl::Illegal;
  for (const Move& m : legal_moves(pos)) {
    if (!m.en_passant) {
      other_move = true;
      continue;
    }
    ep_move = true;
    Wdl v;
    if (const int rc = probe(pos.after(m), v); rc != EGTMIN_OK) return rc;
    best = better(best, negate(v));
  }
  if (best == Wdl::Win) {  // nothing is better, whatever the position without the capture gives
    out = best;
    return EGTMIN_OK;
  }
  Position plain = pos;
  plain.set_ep_square(NoSquare);
  if (!ep_move) return probe_plain(plain, out);
  if (other_move) {
    Wdl v;
    if (const int rc = probe_plain(plain, v); rc != EGTMIN_OK) return rc;
    best = better(best, v);
  }
  out = best;
  return EGTMIN_OK;
}

int Tablebase::search(const Position& pos, const OnePly& one_ply, Wdl& out) {
  // Each balance's prober holds that balance alone, so the children are probed through this
  // handle. A child that cannot be probed (no cover, a damaged file) fails the probe, as a
  // missing table fails Fathom's.
  int child_error = EGTMIN_OK;
  const ChildrenFromCovers from_covers;
  out = one_ply(pos, [&](const Position& after) {
    Wdl v = Wdl::Illegal;
    if (child_error != EGTMIN_OK) return Wdl::Illegal;
    if (const int rc = probe(after, v); rc != EGTMIN_OK) {
      child_error = rc;
      return Wdl::Illegal;
    }
    return v;
  });
  return child_error;
}

int Tablebase::resolve_captures(const Position& pos, const BalanceRec& r, Wdl& out) {
  // The core's capture search (table/capture_resolve.hpp).
  Wdl reached = Wdl::Illegal;
  if (const int rc = search(pos, capture_value, reached); rc != EGTMIN_OK) return rc;
  out = better(out, reached);
  if (out == Wdl::Illegal)
    return fail(EGTMIN_ERR_POSITION,
                "neither the " + r.balance.name() + " cover nor a capture gives the position a value (is it legal?)");
  return EGTMIN_OK;
}

int Tablebase::resolve_evasions(const Position& pos, Wdl& out) {
  Wdl searched = Wdl::Illegal;
  const auto fetched_first = [&](const Position& at, const SuccessorValue& value) {
    return evasion_value(at, value, [&](const Position& child) { prefetch(child); });
  };
  if (const int rc = search(pos, fetched_first, searched); rc != EGTMIN_OK) return rc;
  if (searched == Wdl::Illegal) return kTakeFullPath;
  out = searched;
  return EGTMIN_OK;
}

void Tablebase::preload(int pieces) {
  for (auto& r : recs_)
    if (r->balance.pieces() <= pieces && !r->loaded.load(std::memory_order_acquire)) {
      const Loaded* l = nullptr;
      (void)load(*r, l);
    }
}

int Tablebase::load(BalanceRec& r, const Loaded*& out) {
  std::lock_guard lock(r.load_mutex);
  // Another thread may have loaded it while this one waited.
  if ((out = r.loaded.load(std::memory_order_seq_cst))) return EGTMIN_OK;
  if (r.failure) return fail(r.failure, r.failure_message);
  auto failed = [&](std::string message) {
    r.failure = EGTMIN_ERR_FILE;
    r.failure_message = std::move(message);
    return fail(r.failure, r.failure_message);
  };
  auto l = std::make_unique<Loaded>();
  l->prober = std::make_unique<probe::CoverProber>();
  if (auto s = l->prober->add_file(r.path, probe::CoverProber::LayoutPolicy::Read); !s)
    return failed(s.error().message);
  for (const KeySlot* k : r.slots) {
    if (!k) continue;
    const probe::CoverProber::HotEntry* e = l->prober->hot_entry(k->key);
    if (!e) return failed(r.path.string() + ": the cover holds another balance than its name says");
    l->entry[k->colouring] = *e;
    // probe_fast's view holds the engine's square numbers (a1 = 0, egtmin's a8 = 0): the hot
    // path's square XOR mirrors the ranks. The representative does not depend on which of two
    // identical pieces is read first (the hot path sorts them after the board transform).
    l->view_entry[k->colouring] = *e;
    l->view_entry[k->colouring].square_xor ^= kFlipRank;  // from_a1_index, folded into the XOR
  }
  l->bytes = l->prober->memory_bytes(probe::Method::Indexed);
  {
    std::lock_guard lru(lru_mutex_);
    live_bytes_ += l->bytes;
    ++loaded_count_;
    ++loads_;
    r.last_use.store(tick_.fetch_add(1, std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    if (cap_) unload_over_cap(&r);
    free_retired();
    // Published under the mutex of unload_over_cap: a balance is never unloaded half published.
    out = l.release();
    for (KeySlot* k : r.slots)
      if (k) {
        k->loaded.store(out, std::memory_order_seq_cst);
        if (!tracked_) {  // loaded once: without a cap nothing unloads
          k->prober = out->prober.get();
          k->view_entry = out->view_entry[k->colouring];
          k->pinned.store(true, std::memory_order_release);
        }
      }
    r.loaded.store(out, std::memory_order_seq_cst);
  }
  return EGTMIN_OK;
}

void Tablebase::unload_over_cap(const BalanceRec* keep) {
  while (live_bytes_ > cap_) {
    BalanceRec* victim = nullptr;
    for (auto& r : recs_)
      if (r.get() != keep && r->loaded.load(std::memory_order_relaxed) &&
          (!victim || r->last_use.load(std::memory_order_relaxed) < victim->last_use.load(std::memory_order_relaxed)))
        victim = r.get();
    if (!victim) return;  // `keep` alone is over the cap: it stays
    // The probes' copies first: after these stores no new probe finds it (ReadEpochs).
    for (KeySlot* k : victim->slots)
      if (k) k->loaded.store(nullptr, std::memory_order_seq_cst);
    const Loaded* l = victim->loaded.exchange(nullptr, std::memory_order_seq_cst);
    retired_.push_back({l, ReadEpochs::retire_stamp()});
    live_bytes_ -= l->bytes;
    retired_bytes_ += l->bytes;
    --loaded_count_;
    ++unloads_;
  }
}

void Tablebase::free_retired() {
  if (retired_.empty()) return;
  const uint64_t oldest = ReadEpochs::oldest_reader();
  std::erase_if(retired_, [&](const Retired& x) {
    if (x.stamp >= oldest) return false;
    retired_bytes_ -= x.loaded->bytes;
    delete x.loaded;
    return true;
  });
}

int Tablebase::set_memory_cap(uint64_t bytes) {
  if (!tracked_ || bytes == 0)
    return fail(EGTMIN_ERR_ARGUMENT, tracked_ ? "a memory cap of 0 bytes: open a handle without a cap instead"
                                              : "the handle was opened without a memory cap; open it with one to "
                                                "change it (its probes do not track what they read)");
  std::lock_guard lru(lru_mutex_);
  cap_ = bytes;
  unload_over_cap(nullptr);
  free_retired();
  return EGTMIN_OK;
}

void Tablebase::stats(egtmin_stats& s) {
  std::lock_guard lru(lru_mutex_);
  free_retired();
  s.balances_available = recs_.size();
  s.balances_loaded = loaded_count_;
  s.resident_bytes = live_bytes_ + retired_bytes_;
  s.memory_cap = cap_;
  s.loads = loads_;
  s.unloads = unloads_;
}

}  // namespace egtmin::capi
