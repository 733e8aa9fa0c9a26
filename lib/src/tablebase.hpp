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
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "chess/balance.hpp"
#include "chess/position.hpp"
#include "egtmin/probe.h"
#include "probe/cover_prober.hpp"
#include "read_epochs.hpp"

namespace egtmin::capi {

// Records `message` as the calling thread's last error and returns `code`.
int fail(int code, std::string_view message) noexcept;

class Tablebase {
 public:
  // EGTMIN_OK and the handle in `out`, or an error code (message recorded).
  static int open(const std::filesystem::path& dir, uint64_t memory_cap, std::unique_ptr<Tablebase>& out);
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

  int largest() const { return largest_; }
  int set_memory_cap(uint64_t bytes);
  void stats(egtmin_stats& s);

 private:
  struct Loaded {
    std::unique_ptr<probe::CoverProber> prober;
    // The prober's hot entries of the balance's colourings (BalanceRec::keys), copied so that the
    // probe reads them from one place.
    std::array<probe::CoverProber::HotEntry, 2> entry;
    uint64_t bytes = 0;
  };
  struct BalanceRec {
    std::filesystem::path path;
    Balance balance;
    std::atomic<Loaded*> loaded{nullptr};
    std::atomic<uint64_t> last_use{0};  // tick_ of the latest probe (with a cap only)
    std::mutex load_mutex;              // held while loading; guards the failure fields
    int failure = 0;                    // a file that failed to load stays failed
    std::string failure_message;
  };
  // One per colouring of a balance (one for symmetric balances), by material key.
  struct KeySlot {
    uint64_t key = kNoKey;
    uint32_t rec = 0;
    uint32_t colouring = 0;
  };
  struct Retired {
    Loaded* loaded;
    uint64_t stamp;
  };
  static constexpr uint64_t kNoKey = ~uint64_t{0};

  Tablebase() = default;

  const KeySlot* find(uint64_t key) const {
    for (size_t h = size_t((key * hash_mul_) >> hash_shift_);; h = (h + 1) & (slots_.size() - 1)) {
      if (slots_[h].key == key) return &slots_[h];
      if (slots_[h].key == kNoKey) return nullptr;
    }
  }

  // The hot path: a position without en passant.
  int probe_plain(const Position& pos, Wdl& out) {
    const KeySlot* s = find(pos.material_key());
    if (!s) [[unlikely]]
      return no_cover(pos, out);
    BalanceRec& r = *recs_[s->rec];
    const ReadScope reading(tracked_);
    // seq_cst (a plain load on x86): ordered after the read scope's store, see ReadEpochs.
    Loaded* l = r.loaded.load(std::memory_order_seq_cst);
    if (!l) [[unlikely]]
      if (const int rc = load(r, l); rc != EGTMIN_OK) return rc;
    if (tracked_) {
      // Written only when it changes (once per load of any balance), so that probing threads do
      // not take the line from each other.
      const uint64_t t = tick_.load(std::memory_order_relaxed);
      if (r.last_use.load(std::memory_order_relaxed) != t) r.last_use.store(t, std::memory_order_relaxed);
    }
    out = l->prober->probe_hot(pos, l->entry[s->colouring], probe::Method::Indexed);
    if (out == Wdl::Illegal) [[unlikely]]
      return fail(EGTMIN_ERR_POSITION,
                  "no cube of the " + r.balance.name() + " cover holds the position (is it legal?)");
    return EGTMIN_OK;
  }

  int probe_ep(const Position& pos, Wdl& out);
  int no_cover(const Position& pos, Wdl& out) const;
  int load(BalanceRec& r, Loaded*& out);
  // Under lru_mutex_: unload least recently used balances (never `keep`) while over the cap.
  void unload_over_cap(const BalanceRec* keep);
  // Under lru_mutex_: free what no probe can still read.
  void free_retired();

  std::filesystem::path dir_;
  std::vector<std::unique_ptr<BalanceRec>> recs_;
  std::vector<KeySlot> slots_;
  uint64_t hash_mul_ = 0x9E3779B97F4A7C15ull;
  unsigned hash_shift_ = 58;
  int largest_ = 0;
  // Fixed at open: a handle opened with a cap tracks its probes (ReadEpochs) and may unload.
  bool tracked_ = false;
  std::atomic<uint64_t> tick_{1};

  std::mutex lru_mutex_;  // everything below
  uint64_t cap_ = 0;
  uint64_t live_bytes_ = 0, retired_bytes_ = 0;
  uint64_t loaded_count_ = 0, loads_ = 0, unloads_ = 0;
  std::vector<Retired> retired_;
};

}  // namespace egtmin::capi
