// SPDX-License-Identifier: GPL-3.0-or-later
// When may an unloaded balance be freed? Epoch-based reclamation without a lock on the read side.
//
// Each thread that probes owns one record (made on its first probe, reused by another thread
// after it exits). A probe publishes in its record the global epoch it started in, reads the
// balance through an atomic pointer, and marks the record idle when done: one exchange and one
// plain store, on a cache line no other thread writes. An unloader first swaps the balance's
// pointer to null, then advances the epoch; what it unloaded may be freed once every record is
// idle or in a later epoch, for a probe that started later reads the null pointer. Freeing is
// deferred, never waited for: the retired balances are freed by a later load, by the stats call
// or at close.
//
// Records and the epoch are per process, shared by every handle: a probe of one handle at most
// delays a free of another by the length of that probe.
#pragma once

#include <atomic>
#include <cstdint>

namespace egtmin::capi {

class ReadEpochs {
 public:
  static constexpr uint64_t kIdle = ~uint64_t{0};

  // Marks the calling thread as reading from now on, until end_read().
  static void begin_read() noexcept {
    Record* r = tl_record_;
    if (!r) [[unlikely]]
      if (!(r = own_record())) return;  // no memory for a record: see pinned_
    // seq_cst: the store must be visible before the pointer loads that follow (store-load order).
    r->epoch.store(epoch_.load(std::memory_order_acquire), std::memory_order_seq_cst);
  }
  static void end_read() noexcept {
    if (Record* r = tl_record_) r->epoch.store(kIdle, std::memory_order_release);
  }

  // Called after the pointer to what is retired has been set to null: the stamp to retire it with.
  static uint64_t retire_stamp() noexcept { return epoch_.fetch_add(1, std::memory_order_seq_cst); }
  // What was retired with a stamp below this may be freed.
  static uint64_t oldest_reader() noexcept;

 private:
  struct alignas(64) Record {
    std::atomic<uint64_t> epoch{kIdle};
    std::atomic<bool> owned{false};
    Record* next = nullptr;
  };
  // Gives the record back when the thread exits.
  struct Owner {
    ~Owner();
  };

  static Record* own_record() noexcept;

  static std::atomic<uint64_t> epoch_;
  // The list's last record, never owned: pinned in epoch 0 for good when a record cannot be
  // allocated, so that nothing is freed any more rather than something too early.
  static Record pinned_;
  static std::atomic<Record*> records_;
  // initial-exec: one load off the thread pointer, not a call to __tls_get_addr per probe.
  // constinit: no dynamic initialization, so no TLS wrapper call on each access.
  static constinit thread_local Record* tl_record_ __attribute__((tls_model("initial-exec")));
  static thread_local Owner tl_owner_;
};

// begin_read() .. end_read() for a scope; does nothing when `active` is false (a handle without a
// memory cap never unloads, so its probes need not be tracked).
class ReadScope {
 public:
  explicit ReadScope(bool active) noexcept : active_(active) {
    if (active_) ReadEpochs::begin_read();
  }
  ~ReadScope() {
    if (active_) ReadEpochs::end_read();
  }
  ReadScope(const ReadScope&) = delete;
  ReadScope& operator=(const ReadScope&) = delete;

 private:
  bool active_;
};

}  // namespace egtmin::capi
