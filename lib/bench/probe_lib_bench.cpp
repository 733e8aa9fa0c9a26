// SPDX-License-Identifier: GPL-3.0-or-later
// The library's probe against the CLI's indexed probe, on the positions `egtmin-cli bench probe`
// draws (bench::PaperSampler, same seed) and timed the way it times them: the batch mean over
// chunks of 4,096 positions rebuilt outside the clock, the two methods taking turns chunk by chunk.
//
//   egtmin_probe_lib_bench COVER_DIR [POSITIONS [PIECES [ROUNDS [SEED]]]]
//
// "indexed" is CoverProber::probe_wdl on egtmin's Position, over every cover opened at once (what
// `bench probe` times); "library" is egtmin_probe_wdl on the engine's bitboards (the conversion
// is part of its probe). Every position is first probed by both and the values compared.
// EGTMIN_BENCH_SERIAL=1 times each probe alone: its position waits for the value before.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "bench/sampler.hpp"
#include "egtmin/probe.h"
#include "probe/cover_prober.hpp"
#include "testing/core_to_c.hpp"

using namespace egtmin;
using Clock = std::chrono::steady_clock;

namespace {

using c_api::to_c;

volatile uint64_t g_sink;

// The calling thread's CPU time: on a shared machine, time the thread spent waiting for a core
// does not count (the wall clock charges it to whichever method was running).
double thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e9 + double(t.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s COVER_DIR [POSITIONS [PIECES [ROUNDS [SEED]]]]\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const size_t positions = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000000;
  const int pieces = argc > 3 ? std::atoi(argv[3]) : 4;
  const int rounds = argc > 4 ? std::atoi(argv[4]) : 3;
  const uint64_t seed = argc > 5 ? std::strtoull(argv[5], nullptr, 10) : 1;

  // The CLI's prober opens a data directory (DIR/covers); a bare cover directory's files are added
  // one by one, as open() adds them.
  Result<std::unique_ptr<probe::CoverProber>> core = std::make_unique<probe::CoverProber>();
  if (std::filesystem::is_directory(dir / "covers")) {
    core = probe::CoverProber::open(dir);
  } else {
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".egtc")
        if (auto st = (*core)->add_file(e.path()); !st) core = st.error();
  }
  if (!core) {
    std::fprintf(stderr, "%s\n", core.error().message.c_str());
    return 1;
  }
  egtmin_tb* tb = nullptr;
  if (egtmin_open(dir.c_str(), nullptr, &tb) != EGTMIN_OK) {
    std::fprintf(stderr, "egtmin_open: %s\n", egtmin_last_error());
    return 1;
  }

  std::vector<bench::Sample> samples;
  bench::PaperSampler sampler(pieces, seed);
  for (uint64_t drawn = 0; samples.size() < positions && drawn < 100 * positions; ++drawn) {
    bench::Sample s;
    if (sampler.next(s) && (*core)->has(Balance::of(bench::to_position(s)))) samples.push_back(s);
  }
  size_t mismatches = 0;
  for (const bench::Sample& s : samples) {
    const Position pos = bench::to_position(s);
    const egtmin_position c = to_c(pos);
    if (to_c((*core)->probe_wdl(pos, probe::Method::Indexed)) != egtmin_probe_wdl(tb, &c)) ++mismatches;
  }

  std::vector<Position> chunk(4096);
  std::vector<egtmin_position> chunk_c(4096);
  double ns[2] = {0, 0}, single_ns[2] = {0, 0}, cpu_ns[2] = {0, 0};
  std::vector<double> cpu_round[2];
  std::vector<double> per_round[2];
  // EGTMIN_BENCH_ONLY=0 or 1 times one method alone (for perf stat's counters).
  bool timed[2] = {true, true};
  // EGTMIN_BENCH_SERIAL=1 makes each probe wait for the one before (see the loop).
  const bool serial = std::getenv("EGTMIN_BENCH_SERIAL") != nullptr;
  if (const char* only = std::getenv("EGTMIN_BENCH_ONLY")) {
    const int kept = std::atoi(only) != 0 ? 1 : 0;
    timed[1 - kept] = false;
  }
  for (int round = 0; round < rounds; ++round) {
    double total[2] = {0, 0}, cpu[2] = {0, 0};
    uint64_t sink = 0;
    // Both methods probe each chunk back to back, which goes first alternating from chunk to
    // chunk: a shared host's speed drifts over seconds, and whole rounds taken in turn put that
    // drift into the ratio (rounds 0.94-1.26 apart on an idle host); the chunk that the first
    // method leaves in the cache helps each method first as often as second.
    for (size_t base = 0, index = 0; base < samples.size(); base += chunk.size(), ++index) {
      const size_t n = std::min(chunk.size(), samples.size() - base);
      for (size_t k = 0; k < n; ++k) {
        chunk[k] = bench::to_position(samples[base + k]);
        chunk_c[k] = to_c(chunk[k]);
      }
      for (int turn = 0; turn < 2; ++turn) {
        const int method = int((index + size_t(round) + size_t(turn)) & 1);
        if (!timed[method]) continue;
        const double c0 = thread_cpu_ns();
        const auto t0 = Clock::now();
        if (serial) {
          // Each probe's position is picked by the value before it (by its sign bit: 0 for
          // every value, so the same positions), so that a probe's first read waits for the
          // probe before: the batch mean becomes one probe's latency.
          size_t after = 0;
          for (size_t k = 0; k < n; ++k) {
            const int v = method == 0 ? int((*core)->probe_wdl(chunk[k + after], probe::Method::Indexed))
                                      : egtmin_probe_wdl(tb, &chunk_c[k + after]);
            sink += uint64_t(v);
            after = (unsigned(v) >> 31) & unsigned(k + 2 <= n);  // never past the chunk
          }
        } else if (method == 0)
          for (size_t k = 0; k < n; ++k) sink += uint64_t((*core)->probe_wdl(chunk[k], probe::Method::Indexed));
        else
          for (size_t k = 0; k < n; ++k) sink += uint64_t(egtmin_probe_wdl(tb, &chunk_c[k]));
        total[method] += double(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
        cpu[method] += thread_cpu_ns() - c0;
        // Each probe alone between two clock reads, as bench probe's per-probe column: no
        // overlap with the next probe (an engine's probes have its search between them).
        for (size_t k = 0; k < n; ++k) {
          const auto a = Clock::now();
          sink += method == 0 ? uint64_t((*core)->probe_wdl(chunk[k], probe::Method::Indexed))
                              : uint64_t(egtmin_probe_wdl(tb, &chunk_c[k]));
          single_ns[method] += double(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - a).count());
        }
      }
    }
    g_sink = g_sink + sink;
    for (int method = 0; method < 2; ++method) {
      ns[method] += total[method];
      cpu_ns[method] += cpu[method];
      per_round[method].push_back(timed[method] ? total[method] / double(samples.size()) : 1);
      cpu_round[method].push_back(timed[method] ? cpu[method] / double(samples.size()) : 1);
    }
  }
  std::printf("positions %zu (%d pieces, seed %llu), mismatches %zu, rounds %d\n", samples.size(), pieces,
              (unsigned long long)seed, mismatches, rounds);
  for (int method = 0; method < 2; ++method) {
    std::printf("%-8s per-probe mean %.1f ns (clock included), batch mean %.1f ns; rounds:",
                method == 0 ? "indexed" : "library", single_ns[method] / double(samples.size() * size_t(rounds)),
                ns[method] / double(samples.size() * size_t(rounds)));
    for (double r : per_round[method]) std::printf(" %.1f", r);
    std::printf("\n");
  }
  std::printf("library / indexed: per probe %.3f, batch %.3f; batch rounds:", single_ns[1] / single_ns[0],
              ns[1] / ns[0]);
  for (int r = 0; r < rounds; ++r) std::printf(" %.3f", per_round[1][size_t(r)] / per_round[0][size_t(r)]);
  std::printf("\n");
  std::printf("thread CPU time, batch: indexed %.1f ns, library %.1f ns, library / indexed %.3f; rounds:",
              cpu_ns[0] / double(samples.size() * size_t(rounds)), cpu_ns[1] / double(samples.size() * size_t(rounds)),
              cpu_ns[1] / cpu_ns[0]);
  for (int r = 0; r < rounds; ++r) std::printf(" %.3f", cpu_round[1][size_t(r)] / cpu_round[0][size_t(r)]);
  std::printf("\n");
  egtmin_close(tb);
  return mismatches == 0 ? 0 : 1;
}
