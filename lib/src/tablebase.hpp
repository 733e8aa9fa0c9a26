// SPDX-License-Identifier: GPL-3.0-or-later
// The handle behind egtmin_tb: the cover files of a directory, each balance loaded on first use
// into a CoverProber of its own, and unloaded, least recently used first, under a memory cap.
//
// The probe's path: the position's material key picks the balance in a table fixed at open (no
// lock, nothing written), an atomic pointer gives the loaded balance, and the balance's prober
// answers through its hot path from a copy of its hot entry. Loading takes the balance's own
// mutex (threads racing to load it wait for the one that loads), then the LRU mutex to account
// for the memory and unload others; unloaded balances are freed per ReadEpochs.
#pragma once

#include <array>
#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "c_value.hpp"
#include "chess/balance.hpp"
#include "chess/position.hpp"
#include "egtmin/probe.h"
#include "probe/probe.hpp"
#include "read_epochs.hpp"

namespace egtmin::capi {

// Records `message` as the calling thread's last error and returns `code`.
int fail(int code, std::string_view message) noexcept;

// An engine's position as the cover's hot path reads a board (CoverProber::probe_standalone):
// each piece's bitboard in the engine's square order (a1 = 0; Loaded::view_entry mirrors the
// ranks), the material key, the side to move. Made with a few dozen instructions, where a
// Position would fill its board array too.
struct BoardView {
  std::array<Bitboard, kPieces> by_piece;
  uint64_t material;
  Color stm;
  Bitboard pieces(Piece p) const { return by_piece[p]; }
  Color side_to_move() const { return stm; }
};

class Tablebase {
 public:
  // EGTMIN_OK and the handle in `out`, or an error code (message recorded).
  static int open(const std::filesystem::path& dir, uint64_t memory_cap, std::unique_ptr<Tablebase>& out);
  // The covers of several directories (a Fathom path list): a balance's cover is the first found,
  // in the order given. A directory that cannot be listed is an error with Missing::Fail, and is
  // passed over with Missing::Skip, as Fathom passes over a path without tables.
  enum class Missing : uint8_t { Fail, Skip };
  static int open(const std::vector<std::filesystem::path>& dirs, Missing missing, uint64_t memory_cap,
                  std::unique_ptr<Tablebase>& out);
  ~Tablebase();
  Tablebase(const Tablebase&) = delete;
  Tablebase& operator=(const Tablebase&) = delete;

  // The value of a legal position for the side to move, en passant resolved: 0 and `out`, or an
  // error code.
  int probe(const Position& pos, Wdl& out) {
    if (pos.ep_square() != NoSquare) [[unlikely]]
      return probe_ep(pos, out);
    return probe_plain(pos, out);
  }

  // The common case without a message: a loaded balance and a position it holds gives the
  // header's value; anything else (no cover, not loaded yet, no cube) gives kTakeFullPath, and
  // probe() then loads, or says why not.
  static constexpr int kTakeFullPath = -1000;
  [[gnu::always_inline]] int probe_fast(const BoardView& v) noexcept {
    const ReadScope reading(tracked_);
    const Fast f = fast(v.material);
    if (!f.entry) [[unlikely]]
      return kTakeFullPath;
    const Wdl w = f.prober->probe_standalone(v, *f.entry, probe::Method::Indexed);
    // A capture-resolved cover's value below a win waits for the capture search, and regions that
    // leave the positions in check to the evasion search may say anything there (probe_plain).
    if (w == Wdl::Illegal || (f.entry->kind == store::CoverKind::CaptureResolved &&
                              (w != Wdl::Win || f.entry->evasions == probe::CheckEvasions::Searched))) [[unlikely]]
      return kTakeFullPath;
    return c_value(w);
  }

  // A loaded balance's prober and the hot entry of its colouring for a BoardView, as the probes
  // without a message read them; null when no cover has the key or its balance is not loaded yet.
  // A tracked handle's caller holds a ReadScope while it uses them.
  struct Fast {
    const probe::CoverProber* prober = nullptr;
    const probe::CoverProber::HotEntry* entry = nullptr;
  };
  [[gnu::always_inline]] Fast fast(uint64_t material) noexcept {
    const KeySlot* s = find(material);
    if (!s) [[unlikely]]
      return {};
    if (!tracked_) {
      // Never unloaded: the slot's own copy of the entry, read beside its key.
      if (!s->pinned.load(std::memory_order_acquire)) [[unlikely]]
        return {};
      return {s->prober, &s->view_entry};
    }
    const Loaded* l = s->loaded.load(std::memory_order_seq_cst);  // see probe_plain
    if (!l) [[unlikely]]
      return {};
    touch(*recs_[s->rec]);
    return {l->prober.get(), &l->view_entry[s->colouring]};
  }
  // Whether probes must hold a ReadScope (a handle with a memory cap, which may unload).
  bool tracked() const { return tracked_; }

  // What a probe of a balance without a cover gives: an error (libegtmin-probe), or, as Fathom
  // answers for a missing table, a win when one of the position's captures reaches a loss for the
  // other side, probed from the covers alone, and an error otherwise (egtmin's libfathom.so.1).
  enum class MissingCover : uint8_t { Fail, WinningCapture };
  void set_missing_cover(MissingCover m) { missing_cover_ = m; }

  // Loads every balance of at most `pieces` pieces now rather than on its first probe (a failed
  // one stays failed, for its probes to report). Not concurrent with probes of this handle.
  void preload(int pieces);

  // Whether a cover of this material key (Position::material_key()) was found at open.
  bool has_cover(uint64_t material_key) const { return find(material_key) != nullptr; }

  int largest() const { return largest_; }
  int set_memory_cap(uint64_t bytes);
  void stats(egtmin_stats& s);

 private:
  struct Loaded {
    std::unique_ptr<probe::CoverProber> prober;
    // The prober's hot entries of the balance's colourings (BalanceRec::keys), copied so that the
    // probe reads them from one place.
    std::array<probe::CoverProber::HotEntry, 2> entry;
    // The same for probe_fast's BoardView, which keeps the engine's square numbers.
    std::array<probe::CoverProber::HotEntry, 2> view_entry;
    uint64_t bytes = 0;
  };
  struct KeySlot;
  struct BalanceRec {
    std::filesystem::path path;
    Balance balance;
    std::array<KeySlot*, 2> slots{};  // its colourings' slots (the second null when symmetric)
    // Set and cleared under lru_mutex_, with the slots' copies (which the probes read).
    std::atomic<const Loaded*> loaded{nullptr};
    std::atomic<uint64_t> last_use{0};  // tick_ of the latest probe (with a cap only)
    std::mutex load_mutex;              // held while loading; guards the failure fields
    int failure = 0;                    // a file that failed to load stays failed
    std::string failure_message;
  };
  // One per colouring of a balance (one for symmetric balances), by material key: what a probe
  // reads, in one place.
  struct alignas(64) KeySlot {
    uint64_t key = kNoKey;
    std::atomic<const Loaded*> loaded{nullptr};  // BalanceRec::loaded
    uint32_t rec = 0;
    uint32_t colouring = 0;
    // A handle without a cap never unloads: once loaded, the balance's view entry and prober are
    // copied here (written once, before `pinned` is set), so that probe_fast reads the entry in
    // the lines of the key it matched instead of after two more dependent loads.
    std::atomic<bool> pinned{false};
    const probe::CoverProber* prober = nullptr;
    probe::CoverProber::HotEntry view_entry;
  };
  struct Retired {
    const Loaded* loaded;
    uint64_t stamp;
  };
  static constexpr uint64_t kNoKey = ~uint64_t{0};

  Tablebase() = default;

  const KeySlot* find(uint64_t key) const {
    for (size_t h = size_t((key * hash_mul_) >> hash_shift_);; h = (h + 1) & slot_mask_) {
      if (slots_[h].key == key) return &slots_[h];
      if (slots_[h].key == kNoKey) return nullptr;
    }
  }

  // A one-ply search of the core's (capture_value, evasion_value) with its children probed
  // through this handle: 0 and its value in `out`, or a child's error code.
  using OnePly = std::function<Wdl(const Position&, const SuccessorValue&)>;
  int search(const Position& pos, const OnePly& one_ply, Wdl& out);
  // Starts the read a probe of `child` will wait for, when its balance is loaded: the evasion
  // search fetches all its children before it probes them (CoverProber::prefetch_hot).
  void prefetch(const Position& child) noexcept {
    const KeySlot* s = find(child.material_key());
    if (!s || child.ep_square() != NoSquare) return;
    const ReadScope reading(tracked_);
    if (const Loaded* l = s->loaded.load(std::memory_order_seq_cst))  // see probe_plain
      probe::CoverProber::prefetch_hot(child, l->entry[s->colouring], probe::Method::Indexed);
  }
  // The evasion search (table/capture_resolve.hpp) of a position in check, its children probed
  // through this handle: 0 and `out`, a child's error code, or kTakeFullPath when the position is
  // not one the search decides (a move of it gives check).
  int resolve_evasions(const Position& pos, Wdl& out);

  // The hot path: a position without en passant.
  int probe_plain(const Position& pos, Wdl& out) {
    const KeySlot* s = find(pos.material_key());
    if (!s) [[unlikely]]
      return no_cover(pos, out);
    BalanceRec& r = *recs_[s->rec];
    bool search = false, evasions = false;
    {
      const ReadScope reading(tracked_);
      // seq_cst (a plain load on x86): ordered after the read scope's store, see ReadEpochs.
      const Loaded* l = s->loaded.load(std::memory_order_seq_cst);
      if (!l) [[unlikely]]
        if (const int rc = load(r, l); rc != EGTMIN_OK) return rc;
      if (tracked_) touch(r);
      const probe::CoverProber::HotEntry& e = l->entry[s->colouring];
      if (e.kind == store::CoverKind::CaptureResolved) [[unlikely]] {
        // The cover's value, then the capture search through this handle (the prober holds this
        // balance alone), after the read scope: a child's probe opens its own, and may load. A
        // position in check whose regions leave it to the evasion search: that search alone.
        evasions = e.evasions == probe::CheckEvasions::Searched && pos.in_check(pos.side_to_move()) &&
                   probe::CoverProber::evasions_searched(pos, e);
        out = l->prober->probe_standalone(pos, e, probe::Method::Indexed);
        search = out != Wdl::Win;
      } else {
        out = l->prober->probe_hot(pos, e, probe::Method::Indexed);
      }
    }
    if (evasions) [[unlikely]]
      if (const int rc = resolve_evasions(pos, out); rc != kTakeFullPath) return rc;
    if (search) [[unlikely]]
      return resolve_captures(pos, r, out);
    if (out == Wdl::Illegal) [[unlikely]]
      return fail(EGTMIN_ERR_POSITION,
                  "no cube of the " + r.balance.name() + " cover holds the position (is it legal?)");
    return EGTMIN_OK;
  }

  // Marks the balance used now. Written only when it changes (once per load of any balance), so
  // that probing threads do not take the line from each other.
  void touch(BalanceRec& r) noexcept {
    const uint64_t t = tick_.load(std::memory_order_relaxed);
    if (r.last_use.load(std::memory_order_relaxed) != t) r.last_use.store(t, std::memory_order_relaxed);
  }

  int probe_ep(const Position& pos, Wdl& out);
  // A capture-resolved cover's position: `out` holds the cover's value (Illegal: none) and gets
  // the better of it and what a capture or promotion reaches, each probed through this handle.
  int resolve_captures(const Position& pos, const BalanceRec& r, Wdl& out);
  int no_cover(const Position& pos, Wdl& out);
  int load(BalanceRec& r, const Loaded*& out);
  // Under lru_mutex_: unload least recently used balances (never `keep`) while over the cap.
  void unload_over_cap(const BalanceRec* keep);
  // Under lru_mutex_: free what no probe can still read.
  void free_retired();

  std::string dirs_;  // the directories read, for messages
  std::vector<std::unique_ptr<BalanceRec>> recs_;
  std::unique_ptr<KeySlot[]> slots_;
  size_t slot_mask_ = 0;
  uint64_t hash_mul_ = 0x9E3779B97F4A7C15ull;
  unsigned hash_shift_ = 58;
  int largest_ = 0;
  // Fixed at open: a handle opened with a cap tracks its probes (ReadEpochs) and may unload.
  bool tracked_ = false;
  MissingCover missing_cover_ = MissingCover::Fail;
  std::atomic<uint64_t> tick_{1};

  std::mutex lru_mutex_;  // everything below
  uint64_t cap_ = 0;
  uint64_t live_bytes_ = 0, retired_bytes_ = 0;
  uint64_t loaded_count_ = 0, loads_ = 0, unloads_ = 0;
  std::vector<Retired> retired_;
};

}  // namespace egtmin::capi
