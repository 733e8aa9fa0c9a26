// SPDX-License-Identifier: GPL-3.0-or-later
// The latency of one dependent read from a working set of each size: a pointer chase through the
// cache lines of a buffer in random order, on huge pages where the kernel gives them (so that the
// TLB does not count). It shows how much of a host's cache a probe can count on: lscpu names the
// chip's caches, but a virtual machine shares the last level with its neighbours, and what is left
// to it (and memory's latency beyond it) decides how far the probe's layout files can grow before
// each probe waits on memory.
//
// Beside it, the time per read when the reads do not depend on each other (addresses known ahead,
// as a batch of independent probes could issue them): the core then keeps many misses in flight,
// and the gap between the two columns is what a probe loses by waiting on each of its reads.
//
//   egtmin_cache_latency [MAX_MIB]     (default 64)
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

namespace {

constexpr size_t kLine = 64;

struct Times {
  double dependent = -1;    // ns per read, each read's address from the one before
  double independent = -1;  // ns per read, the addresses known ahead
};

// Both times over `bytes` of memory.
Times chase(size_t bytes) {
  const size_t lines = bytes / kLine;
  const size_t huge = size_t{2} << 20, mapped = (bytes + huge - 1) / huge * huge;
  void* m = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return {};
  madvise(m, mapped, MADV_HUGEPAGE);
  auto* base = static_cast<char*>(m);
  std::vector<size_t> order(lines);
  std::iota(order.begin(), order.end(), size_t{0});
  std::shuffle(order.begin(), order.end(), std::mt19937_64(1));
  for (size_t i = 0; i < lines; ++i)
    *reinterpret_cast<void**>(base + order[i] * kLine) = base + order[(i + 1) % lines] * kLine;
  void* p = base + order[0] * kLine;
  for (size_t i = 0; i < lines; ++i) p = *static_cast<void**>(p);  // warm up: one lap
  const size_t reads = 4'000'000;
  Times t;
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < reads; ++i) p = *static_cast<void**>(p);
  const auto t1 = std::chrono::steady_clock::now();
  const bool null = p == nullptr;  // keeps the chase observable
  t.dependent = std::chrono::duration<double, std::nano>(t1 - t0).count() / double(reads) + (null ? 1 : 0);
  // The same lines in a fresh random order, read through a list of their offsets.
  std::vector<uint32_t> at(reads);
  std::mt19937_64 rng(2);
  for (uint32_t& a : at) a = uint32_t(rng() % lines);
  uintptr_t sum = 0;
  const auto t2 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < reads; ++i) sum += *reinterpret_cast<uintptr_t*>(base + size_t(at[i]) * kLine);
  const auto t3 = std::chrono::steady_clock::now();
  t.independent = std::chrono::duration<double, std::nano>(t3 - t2).count() / double(reads) + (sum == 1 ? 1 : 0);
  munmap(m, mapped);
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  const long max_mib = argc > 1 ? std::atol(argv[1]) : 64;
  if (max_mib < 1 || max_mib > 65536) {
    std::fprintf(stderr, "usage: %s [MAX_MIB]   (1 to 65536, default 64)\n", argv[0]);
    return 2;
  }
  std::printf("working set  ns per read: dependent  independent\n");
  for (size_t kib = 16; kib <= size_t(max_mib) * 1024; kib = kib < 1024 ? kib * 2 : kib + kib / 2) {
    const Times t = chase(kib * 1024);
    std::printf("%8zu KiB  %20.1f  %11.1f\n", kib, t.dependent, t.independent);
  }
}
