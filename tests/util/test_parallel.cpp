// SPDX-License-Identifier: GPL-3.0-or-later
// util/parallel: every index in exactly one chunk, cancel between chunks, progress up to the whole
// range, a worker's exception at the caller, and run_on_threads' workers.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "util/defaults.hpp"
#include "util/parallel.hpp"

using namespace egtmin;

TEST(Parallel, ChunksCoverTheRangeExactlyOnce) {
  for (int threads : {1, 2, 3, 0}) {
    for (uint64_t count : {uint64_t{0}, uint64_t{1}, uint64_t{999}, uint64_t{1000}, uint64_t{100'003}}) {
      SCOPED_TRACE("threads " + std::to_string(threads) + ", count " + std::to_string(count));
      constexpr uint64_t kChunk = 1000;
      std::vector<std::atomic<int>> hits(count);
      std::atomic<int> bad_bounds{0}, bad_worker{0};
      const bool all = parallel_for(count, threads, kChunk, no_progress(), [&](uint64_t b, uint64_t e, int worker) {
        if (b % kChunk != 0 || e != std::min(count, b + kChunk) || b >= e) ++bad_bounds;
        if (worker < 0 || worker >= resolve_threads(threads)) ++bad_worker;
        for (uint64_t i = b; i < e; ++i) ++hits[i];
      });
      EXPECT_TRUE(all);
      EXPECT_EQ(bad_bounds, 0);
      EXPECT_EQ(bad_worker, 0);
      uint64_t wrong = 0;
      for (const auto& h : hits) wrong += h != 1;
      EXPECT_EQ(wrong, 0u);
    }
  }
}

TEST(Parallel, CancelStopsBetweenChunks) {
  constexpr uint64_t kChunks = 1000;
  for (int threads : {1, 2, 4}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    Progress progress;
    std::atomic<uint64_t> ran{0};
    const bool all = parallel_for(kChunks, threads, 1, progress, [&](uint64_t, uint64_t, int) {
      ++ran;
      progress.cancel();
    });
    EXPECT_FALSE(all);
    // A worker may be inside a chunk when another cancels; none starts one after.
    EXPECT_GE(ran, 1u);
    EXPECT_LE(ran, uint64_t(threads));
  }
  // Cancelled before the start, through a parent: nothing runs.
  Progress parent;
  parent.cancel();
  const Progress child(parent, [](const ProgressEvent&) {});
  std::atomic<uint64_t> ran{0};
  EXPECT_FALSE(parallel_for(kChunks, 2, 1, child, [&](uint64_t, uint64_t, int) { ++ran; }));
  EXPECT_EQ(ran, 0u);
}

TEST(Parallel, ProgressReachesTheWholeRange) {
  for (int threads : {1, 3}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    std::mutex mutex;
    std::vector<double> fractions;
    bool other = false;
    const Progress progress([&](const ProgressEvent& e) {
      std::lock_guard lock(mutex);
      fractions.push_back(e.fraction);
      other |= e.stage != Stage::Check || e.detail != "chunks";
    });
    // 10 chunks, a report every 3 done and after the last: 4 reports.
    const bool all =
        parallel_for(95, threads, 10, progress, {Stage::Check, "chunks", 3}, [](uint64_t, uint64_t, int) {});
    EXPECT_TRUE(all);
    EXPECT_FALSE(other);
    ASSERT_EQ(fractions.size(), 4u);
    for (double f : fractions) {
      EXPECT_GT(f, 0.0);
      EXPECT_LE(f, 1.0);
    }
    EXPECT_EQ(*std::max_element(fractions.begin(), fractions.end()), 1.0);
  }
}

TEST(Parallel, AWorkersExceptionReachesTheCaller) {
  for (int threads : {1, 2, 4}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    constexpr uint64_t kChunks = 100'000;
    std::atomic<uint64_t> ran{0};
    try {
      parallel_for(kChunks, threads, 1, no_progress(), [&](uint64_t b, uint64_t, int) {
        ++ran;
        if (b == 7) throw std::runtime_error("chunk 7 failed");
        // Chunks that take a while, as real ones do: on a loaded machine, chunks of no work let
        // the other workers finish the whole range while the thrower waits for a core.
        std::this_thread::sleep_for(std::chrono::microseconds(20));
      });
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "chunk 7 failed");
    }
    // The others stop taking chunks once one has thrown.
    EXPECT_LT(ran, kChunks);
  }
}

TEST(Parallel, RunOnThreadsRunsEveryWorkerOnceTheFirstOnTheCaller) {
  for (int workers : {1, 3, 0}) {
    SCOPED_TRACE("workers " + std::to_string(workers));
    const int n = resolve_threads(workers);
    std::vector<std::atomic<int>> runs(size_t(n) + 1);
    std::thread::id first;
    run_on_threads(workers, [&](int w) {
      ++runs[size_t(w)];
      if (w == 0) first = std::this_thread::get_id();
    });
    for (int w = 0; w < n; ++w) EXPECT_EQ(runs[size_t(w)], 1) << "worker " << w;
    EXPECT_EQ(runs[size_t(n)], 0);
    EXPECT_EQ(first, std::this_thread::get_id());
  }
  // Every worker finishes before a worker's exception is rethrown.
  std::atomic<int> finished{0};
  EXPECT_THROW(run_on_threads(3,
                              [&](int w) {
                                if (w == 2) throw std::logic_error("worker 2");
                                ++finished;
                              }),
               std::logic_error);
  EXPECT_EQ(finished, 2);
}

TEST(Parallel, ZeroThreadsIsTheDefault) {
  EXPECT_EQ(resolve_threads(0), default_threads());
  EXPECT_EQ(resolve_threads(-1), default_threads());
  EXPECT_EQ(resolve_threads(3), 3);
  EXPECT_GE(default_threads(), 1);
}
