// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/parallel.hpp"

#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace egtmin {

void run_on_threads(int workers, const std::function<void(int worker)>& fn) {
  workers = resolve_threads(workers);
  std::mutex mutex;
  std::exception_ptr first;  // the first exception a worker threw, rethrown once all are joined
  auto guarded = [&](int worker) {
    try {
      fn(worker);
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!first) first = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(size_t(workers - 1));
  try {
    for (int w = 1; w < workers; ++w) pool.emplace_back(guarded, w);
  } catch (...) {  // no thread to be had: the workers started still run, then this is rethrown
    std::lock_guard lock(mutex);
    if (!first) first = std::current_exception();
  }
  guarded(0);
  for (auto& t : pool) t.join();
  if (first) std::rethrow_exception(first);
}

}  // namespace egtmin
