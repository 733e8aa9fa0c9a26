// SPDX-License-Identifier: GPL-3.0-or-later
#include "read_epochs.hpp"

#include <algorithm>
#include <new>

namespace egtmin::capi {

std::atomic<uint64_t> ReadEpochs::epoch_{1};
ReadEpochs::Record ReadEpochs::pinned_;
std::atomic<ReadEpochs::Record*> ReadEpochs::records_{&pinned_};
constinit thread_local ReadEpochs::Record* ReadEpochs::tl_record_ = nullptr;
thread_local ReadEpochs::Owner ReadEpochs::tl_owner_;

ReadEpochs::Owner::~Owner() {
  if (tl_record_) tl_record_->owned.store(false, std::memory_order_release);
  tl_record_ = nullptr;
}

ReadEpochs::Record* ReadEpochs::own_record() noexcept {
  // A record left by a thread that has exited, else a new one pushed on the list. Records are
  // never freed: there are as many as threads ever probed at once.
  for (Record* r = records_.load(std::memory_order_acquire); r; r = r->next) {
    bool expected = false;
    if (r != &pinned_ && !r->owned.load(std::memory_order_relaxed) &&
        r->owned.compare_exchange_strong(expected, true, std::memory_order_acquire)) {
      tl_record_ = r;
      (void)&tl_owner_;  // constructed with the thread's first use, so that its destructor runs
      return r;
    }
  }
  // new(nothrow): a probe must not throw. Without memory the probe goes on untracked, and the
  // pinned record stops every free from then on.
  Record* r = new (std::nothrow) Record;
  if (!r) {
    pinned_.epoch.store(0, std::memory_order_seq_cst);
    return nullptr;
  }
  r->owned.store(true, std::memory_order_relaxed);
  Record* head = records_.load(std::memory_order_relaxed);
  do r->next = head;
  while (!records_.compare_exchange_weak(head, r, std::memory_order_release, std::memory_order_relaxed));
  tl_record_ = r;
  (void)&tl_owner_;
  return r;
}

uint64_t ReadEpochs::oldest_reader() noexcept {
  uint64_t oldest = kIdle;
  for (Record* r = records_.load(std::memory_order_acquire); r; r = r->next)
    oldest = std::min(oldest, r->epoch.load(std::memory_order_seq_cst));
  return oldest;
}

}  // namespace egtmin::capi
