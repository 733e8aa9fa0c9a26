// SPDX-License-Identifier: GPL-3.0-or-later
// The library's probe against the CLI's indexed probe, on the positions `egtmin-cli bench probe`
// draws (bench::PaperSampler, same seed) and timed the way it times them: the batch mean over
// chunks of 4,096 positions rebuilt outside the clock, the methods taking turns chunk by chunk.
//
//   egtmin_probe_lib_bench COVER_DIR [POSITIONS [PIECES [ROUNDS [SEED]]]]
//
// "indexed" is CoverProber::probe_wdl on egtmin's Position, over every cover opened at once (what
// `bench probe` times); "library" is egtmin_probe_wdl on the engine's bitboards (the conversion
// is part of its probe). Every position is first probed by every method and the values compared.
// EGTMIN_BENCH_MANY=1 adds "many": egtmin_probe_wdl_many on each chunk's positions at once (its
// per-probe figure: a call with one position).
// EGTMIN_BENCH_SERIAL=1 times each probe alone: its position waits for the value before.
// EGTMIN_BENCH_VIEW=1 adds "view": the CLI's prober through a view of the boards made outside the
// clock (the library's probe without its conversion and without the call into the library);
// EGTMIN_BENCH_VIEW=2 also "converted": that view made inside the clock from the engine's boards,
// as the library makes it (without its checks and without the call).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "bench/sampler.hpp"
#include "egtmin/probe.h"
#include "probe/probe.hpp"
#include "src/tablebase.hpp"
#include "testing/core_to_c.hpp"

using namespace egtmin;
using Clock = std::chrono::steady_clock;

namespace {

using c_api::to_c;

volatile uint64_t g_sink;

// The library's view of a position (hot_probe.hpp's board interface), here in egtmin's square
// numbers, so that the CLI's prober reads it: made outside the clock from egtmin's Position, the
// probe through a view with nothing to convert.
using EgtminView = capi::BoardView;

// The view made from the engine's boards as the library makes it (capi.cpp's make_view), in
// egtmin's square numbers (ranks mirrored by a byte swap) and without its checks.
[[gnu::always_inline]] inline EgtminView view_of(const egtmin_position& p) {
  EgtminView v;
  const uint64_t w = p.white, b = p.black;
  const uint64_t types[6] = {p.kings, p.queens, p.rooks, p.bishops, p.knights, p.pawns};
  uint64_t material = 0;
  for (int t = 0; t < 6; ++t) {
    const uint64_t wt = types[t] & w, bt = types[t] & b;
    v.by_piece[size_t(t)] = __builtin_bswap64(wt);
    v.by_piece[size_t(6 + t)] = __builtin_bswap64(bt);
    material += uint64_t(popcount(wt)) << (5 * t) | uint64_t(popcount(bt)) << (5 * (6 + t));
    asm("" : "+r"(material));  // one type at a time, as make_view
  }
  v.material = material;
  v.stm = p.white_to_move ? White : Black;
  return v;
}

EgtminView view_of(const Position& pos) {
  EgtminView v{};
  for (int p = 0; p < kPieces; ++p) v.by_piece[size_t(p)] = pos.pieces(Piece(p));
  v.material = pos.material_key();
  v.stm = pos.side_to_move();
  return v;
}

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
  const egtmin_options options = EGTMIN_OPTIONS_INIT;  // no memory cap: probes skip the tracking
  if (egtmin_open(dir.c_str(), &options, &tb) != EGTMIN_OK) {
    std::fprintf(stderr, "egtmin_open: %s\n", egtmin_last_error());
    return 1;
  }

  std::vector<bench::Sample> samples;
  bench::PaperSampler sampler(pieces, seed);
  for (uint64_t drawn = 0; samples.size() < positions && drawn < 100 * positions; ++drawn) {
    bench::Sample s;
    if (sampler.next(s) && (*core)->has(Balance::of(bench::to_position(s)))) samples.push_back(s);
  }
  // Every position: the library's value and both views' against the CLI's.
  size_t mismatches = 0;
  for (const bench::Sample& s : samples) {
    const Position pos = bench::to_position(s);
    const egtmin_position c = to_c(pos);
    const Wdl want = (*core)->probe_wdl(pos, probe::Method::Indexed);
    bool same = to_c(want) == egtmin_probe_wdl(tb, &c);
    for (const EgtminView& v : {view_of(pos), view_of(c)})
      same = same && want == (*core)->probe_standalone(v, *(*core)->hot_entry(v.material), probe::Method::Indexed);
    mismatches += !same;
  }
  // egtmin_probe_wdl_many over every position at once, against the CLI's values.
  {
    std::vector<egtmin_position> all;
    std::vector<int> want;
    for (const bench::Sample& s : samples) {
      const Position pos = bench::to_position(s);
      all.push_back(to_c(pos));
      want.push_back(to_c((*core)->probe_wdl(pos, probe::Method::Indexed)));
    }
    std::vector<int> got(all.size());
    if (egtmin_probe_wdl_many(tb, all.data(), all.size(), got.data()) != EGTMIN_OK) ++mismatches;
    for (size_t i = 0; i < all.size(); ++i) mismatches += got[i] != want[i];
  }

  // The methods, each a probe of chunk position k; "view" and "converted" only with EGTMIN_BENCH_VIEW.
  std::vector<Position> chunk(4096);
  std::vector<egtmin_position> chunk_c(4096);
  std::vector<EgtminView> chunk_v(4096);
  const probe::CoverProber& cli = **core;
  auto probe_indexed = [&](size_t k) { return int(cli.probe_wdl(chunk[k], probe::Method::Indexed)); };
  auto probe_library = [&](size_t k) { return egtmin_probe_wdl(tb, &chunk_c[k]); };
  // "many" takes the chunk at once (batch), or each position alone (singles).
  std::vector<int> chunk_values(4096);
  auto probe_many_one = [&](size_t k) {
    int v = 0;
    egtmin_probe_wdl_many(tb, &chunk_c[k], 1, &v);
    return v;
  };
  auto probe_view = [&](size_t k) {
    return int(cli.probe_standalone(chunk_v[k], *cli.hot_entry(chunk_v[k].material), probe::Method::Indexed));
  };
  auto probe_converted = [&](size_t k) {
    const EgtminView v = view_of(chunk_c[k]);
    return int(cli.probe_standalone(v, *cli.hot_entry(v.material), probe::Method::Indexed));
  };
  enum { kIndexed, kLibrary, kView, kConverted, kMany };
  const char* const kNames[] = {"indexed", "library", "view", "converted", "many"};
  std::vector<int> methods = {kIndexed, kLibrary};
  const int view_methods = std::getenv("EGTMIN_BENCH_VIEW") ? std::atoi(std::getenv("EGTMIN_BENCH_VIEW")) : 0;
  if (view_methods >= 1) methods.push_back(kView);
  if (view_methods >= 2) methods.push_back(kConverted);
  if (std::getenv("EGTMIN_BENCH_MANY")) methods.push_back(kMany);
  // EGTMIN_BENCH_ONLY=0 or 1 times one method alone (for perf stat's counters).
  if (const char* only = std::getenv("EGTMIN_BENCH_ONLY")) methods = {std::atoi(only) != 0 ? kLibrary : kIndexed};
  // EGTMIN_BENCH_SERIAL=1 makes each probe wait for the one before (see batch below).
  const bool serial = std::getenv("EGTMIN_BENCH_SERIAL") != nullptr;
  const size_t m_count = methods.size();

  // Times a batch of the chunk's n positions. Serially, each probe's position is picked by the
  // value before it (by its sign bit: 0 for every value, so the same positions), so that a
  // probe's first read waits for the probe before: the batch mean becomes one probe's latency.
  auto batch = [&](auto&& probe, size_t n) {
    uint64_t sink = 0;
    if (serial) {
      size_t after = 0;
      for (size_t k = 0; k < n; ++k) {
        const int v = probe(k + after);
        sink += uint64_t(v);
        after = (unsigned(v) >> 31) & unsigned(k + 2 <= n);  // never past the chunk
      }
    } else {
      for (size_t k = 0; k < n; ++k) sink += uint64_t(probe(k));
    }
    return sink;
  };
  // Each probe alone between two clock reads, as bench probe's per-probe column: no overlap with
  // the next probe (an engine's probes have its search between them).
  auto singles = [&](auto&& probe, size_t n, double& ns_out) {
    uint64_t sink = 0;
    for (size_t k = 0; k < n; ++k) {
      const auto a = Clock::now();
      sink += uint64_t(probe(k));
      ns_out += double(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - a).count());
    }
    return sink;
  };
  auto with_method = [&](int m, auto&& f) {
    switch (m) {
      case kIndexed: return f(probe_indexed);
      case kLibrary: return f(probe_library);
      case kView: return f(probe_view);
      case kMany: return f(probe_many_one);
      default: return f(probe_converted);
    }
  };
  auto many = [&](size_t n) {
    egtmin_probe_wdl_many(tb, chunk_c.data(), n, chunk_values.data());
    uint64_t sink = 0;
    for (size_t k = 0; k < n; ++k) sink += uint64_t(chunk_values[k]);
    return sink;
  };

  std::vector<double> ns(m_count), single_ns(m_count), cpu_ns(m_count);
  std::vector<std::vector<double>> per_round(m_count), cpu_round(m_count);
  for (int round = 0; round < rounds; ++round) {
    std::vector<double> total(m_count), cpu(m_count);
    uint64_t sink = 0;
    // The methods probe each chunk back to back, which goes first rotating from chunk to chunk:
    // a shared host's speed drifts, and whole rounds taken in turn put that drift into the ratio
    // (docs/probe-library.md); the chunk that one method leaves in the cache helps each method
    // first as often as later.
    for (size_t base = 0, index = 0; base < samples.size(); base += chunk.size(), ++index) {
      const size_t n = std::min(chunk.size(), samples.size() - base);
      for (size_t k = 0; k < n; ++k) {
        chunk[k] = bench::to_position(samples[base + k]);
        chunk_c[k] = to_c(chunk[k]);
        if (view_methods >= 1) chunk_v[k] = view_of(chunk[k]);  // only the view method reads them
      }
      for (size_t turn = 0; turn < m_count; ++turn) {
        const size_t i = (index + size_t(round) + turn) % m_count;
        const double c0 = thread_cpu_ns();
        const auto t0 = Clock::now();
        sink += methods[i] == kMany && !serial ? many(n)
                                               : with_method(methods[i], [&](auto&& probe) { return batch(probe, n); });
        total[i] += double(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
        cpu[i] += thread_cpu_ns() - c0;
        sink += with_method(methods[i], [&](auto&& probe) { return singles(probe, n, single_ns[i]); });
      }
    }
    g_sink = g_sink + sink;
    for (size_t i = 0; i < m_count; ++i) {
      ns[i] += total[i];
      cpu_ns[i] += cpu[i];
      per_round[i].push_back(total[i] / double(samples.size()));
      cpu_round[i].push_back(cpu[i] / double(samples.size()));
    }
  }
  const double probes = double(samples.size() * size_t(rounds));
  std::printf("positions %zu (%d pieces, seed %llu), mismatches %zu, rounds %d\n", samples.size(), pieces,
              (unsigned long long)seed, mismatches, rounds);
  for (size_t i = 0; i < m_count; ++i) {
    std::printf("%-8s per-probe mean %.1f ns (clock included), batch mean %.1f ns; rounds:", kNames[methods[i]],
                single_ns[i] / probes, ns[i] / probes);
    for (double r : per_round[i]) std::printf(" %.1f", r);
    std::printf("\n");
  }
  // Every other method against the first (the CLI's probe, unless EGTMIN_BENCH_ONLY chose one).
  for (size_t i = 1; i < m_count; ++i) {
    const char* name = kNames[methods[i]];
    std::printf("%s / %s: per probe %.3f, batch %.3f; batch rounds:", name, kNames[methods[0]],
                single_ns[i] / single_ns[0], ns[i] / ns[0]);
    for (int r = 0; r < rounds; ++r) std::printf(" %.3f", per_round[i][size_t(r)] / per_round[0][size_t(r)]);
    std::printf("\n");
    std::printf("thread CPU time, batch: %s %.1f ns, %s %.1f ns, %s / %s %.3f; rounds:", kNames[methods[0]],
                cpu_ns[0] / probes, name, cpu_ns[i] / probes, name, kNames[methods[0]], cpu_ns[i] / cpu_ns[0]);
    for (int r = 0; r < rounds; ++r) std::printf(" %.3f", cpu_round[i][size_t(r)] / cpu_round[0][size_t(r)]);
    std::printf("\n");
  }
  egtmin_close(tb);
  return mismatches == 0 ? 0 : 1;
}
