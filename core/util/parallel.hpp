// SPDX-License-Identifier: GPL-3.0-or-later
// The one way core runs work on several threads. parallel_for hands out chunks of an index range
// to the workers as they ask (dynamic scheduling: the threads finish together whatever each chunk
// costs), checks the Progress's cancel between chunks and can report the fraction done between
// them; run_on_threads runs one function per worker, for work that keeps state per worker.
//
// The calling thread is worker 0, and a thread count of 0 means default_threads()
// (util/defaults.hpp). An exception thrown by a worker stops the others taking chunks and is
// rethrown to the caller once every worker has returned.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string_view>

#include "util/defaults.hpp"
#include "util/progress.hpp"

namespace egtmin {

// Runs fn(worker) for worker in [0, workers) side by side (0: default_threads()), worker 0 on the
// calling thread, and returns when all have returned.
void run_on_threads(int workers, const std::function<void(int worker)>& fn);

// What parallel_for reports: `stage` with the fraction of the range done, after every `every`
// chunks done and after the last one.
struct ChunkReports {
  Stage stage;
  std::string_view detail = {};
  uint64_t every = 1;
};

namespace detail {

template <class Fn>
bool parallel_chunks(uint64_t count, int threads, uint64_t chunk, const Progress& progress, const ChunkReports* reports,
                     Fn& fn) {
  chunk = std::max<uint64_t>(chunk, 1);
  const uint64_t chunks = count / chunk + (count % chunk != 0);
  if (chunks == 0) return true;
  const uint64_t every = reports ? std::max<uint64_t>(reports->every, 1) : 1;
  const int workers = int(std::min<uint64_t>(uint64_t(resolve_threads(threads)), chunks));
  std::atomic<uint64_t> next{0}, chunks_done{0}, items_done{0};
  std::atomic<bool> stop{false};  // cancelled, or a worker threw: take no more chunks
  run_on_threads(workers, [&](int worker) {
    try {
      for (;;) {
        if (stop.load(std::memory_order_relaxed) || progress.cancelled()) {
          stop.store(true, std::memory_order_relaxed);
          return;
        }
        const uint64_t c = next.fetch_add(1, std::memory_order_relaxed);
        if (c >= chunks) return;
        const uint64_t begin = c * chunk, end = std::min(count, begin + chunk);
        fn(begin, end, worker);
        const uint64_t items = reports ? items_done.fetch_add(end - begin) + (end - begin) : 0;
        const uint64_t done = chunks_done.fetch_add(1) + 1;
        if (!reports) continue;
        if (done == chunks)
          progress.report(reports->stage, 1.0, reports->detail);
        else if (done % every == 0)
          progress.report(reports->stage, double(items) / double(count), reports->detail);
      }
    } catch (...) {
      stop.store(true, std::memory_order_relaxed);
      throw;
    }
  });
  return chunks_done.load() == chunks;
}

}  // namespace detail

// Runs fn(begin, end, worker) over [0, count) in chunks of `chunk` indices (the last one shorter),
// each chunk once, on up to `threads` workers (0: default_threads()). fn is a template parameter
// so that the chunk's body inlines into the loop. Returns false when `progress` was cancelled
// before every chunk ran.
template <class Fn>
bool parallel_for(uint64_t count, int threads, uint64_t chunk, const Progress& progress, Fn&& fn) {
  return detail::parallel_chunks(count, threads, chunk, progress, nullptr, fn);
}

// The same, reporting to `progress` as `reports` says.
template <class Fn>
bool parallel_for(uint64_t count, int threads, uint64_t chunk, const Progress& progress, const ChunkReports& reports,
                  Fn&& fn) {
  return detail::parallel_chunks(count, threads, chunk, progress, &reports, fn);
}

}  // namespace egtmin
