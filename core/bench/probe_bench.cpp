// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/probe_bench.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>

namespace egtmin::bench {

namespace {

using Clock = std::chrono::steady_clock;

Wdl from_syzygy(SyzygyWdl v) {
  // Our tables have no 50-move rule: cursed wins are wins, blessed losses are losses.
  return v == SyzygyWdl::Win || v == SyzygyWdl::CursedWin ? Wdl::Win
         : v == SyzygyWdl::Draw                            ? Wdl::Draw
                                                           : Wdl::Loss;
}

// Keeps results observable so the timed calls cannot be optimized away.
volatile uint64_t g_sink = 0;

}  // namespace

Result<ProbeBenchResult> run_probe_bench(const probe::CoverProber& prober, const Syzygy& syzygy,
                                         const ProbeBenchOptions& opts, const Progress& progress) {
  if (opts.pieces < 3 || opts.pieces > 5) return Error{"--pieces must be 3, 4 or 5"};
  if (opts.positions == 0) return Error{"--positions must be positive"};
  ProbeBenchResult r;

  // 1. Sample.
  PaperSampler sampler(opts.pieces, opts.seed);
  std::vector<Sample> samples;
  samples.reserve(opts.positions);
  std::set<Balance> balances;
  Sample s;
  while (samples.size() < opts.positions) {
    if (progress.cancelled()) return Error{"cancelled"};
    ++r.candidates;
    if (!sampler.next(s)) {
      ++r.discarded_illegal;
      continue;
    }
    const Balance b = Balance::of(to_position(s)).canonical();
    if (!prober.has(b) || !syzygy.has_wdl(b)) {
      ++r.discarded_unavailable;
      if (r.candidates > 1000 && r.discarded_unavailable * 100 > r.candidates * 99 && samples.empty())
        return Error{"almost no sampled position has both a cover and a Syzygy file; minimize --pieces " +
                     std::to_string(opts.pieces) + " first"};
      continue;
    }
    balances.insert(b);
    samples.push_back(s);
    if ((samples.size() & 0xffff) == 0) progress.report("sampling", double(samples.size()) / double(opts.positions));
  }
  r.positions = samples.size();
  size_t fathom_bytes = 0;
  for (const Balance& b : balances) {
    syzygy.warm_up(b);
    std::error_code ec;
    auto size = std::filesystem::file_size(syzygy.dir() / (b.name() + ".rtbw"), ec);
    if (!ec) fathom_bytes += size;
  }

  // 2. Correctness: every method against Fathom on every position.
  for (size_t i = 0; i < samples.size(); ++i) {
    if ((i & 0xfff) == 0 && progress.cancelled()) return Error{"cancelled"};
    const Position pos = to_position(samples[i]);
    auto f = syzygy.wdl(pos);
    std::optional<Wdl> want = f ? std::optional<Wdl>(from_syzygy(*f)) : std::nullopt;
    for (probe::Method m : {probe::Method::Linear, probe::Method::Indexed}) {
      auto got = prober.probe(pos, m);
      const Wdl fast = prober.probe_wdl(pos, m);  // the timed path must agree too
      if (!want || !got || got->wdl != *want || fast != *want) {
        ++r.mismatches;
        if (r.mismatch_examples.size() < 10)
          r.mismatch_examples.push_back(pos.fen() + " " + probe::method_name(m) + ": " +
                                        (got ? wdl_name(got->wdl) : got.error().message) + " (fast path " +
                                        wdl_name(fast) + "), fathom " +
                                        (want ? wdl_name(*want) : "none"));
      }
    }
    if ((i & 0xffff) == 0) progress.report("checking against Fathom", double(i) / double(samples.size()));
  }

  // 3. Timing, one method per pass. The timer's own cost is measured and reported, not subtracted.
  {
    std::vector<uint32_t> t(100000);
    for (auto& v : t) {
      auto a = Clock::now();
      auto b = Clock::now();
      v = uint32_t(std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count());
    }
    r.timer_overhead_ns = summarize(t).median_ns;
  }
  std::vector<Position> chunk(4096);
  const size_t n_samples = samples.size(), rounds = size_t(std::max(opts.rounds, 1));
  struct Timed {
    MethodTiming mt;
    std::vector<uint32_t> times;  // every round's per-probe times, round after round
    double batch_ns = 0;
  };
  std::vector<Timed> timed;
  auto time_method = [&](Timed& t, auto&& one, size_t round) {
    uint64_t sink = 0;
    double batch_ns = 0;
    uint32_t* times = t.times.data() + round * n_samples;
    // Positions are rebuilt outside the timed regions, a chunk at a time.
    for (size_t base = 0; base < n_samples; base += chunk.size()) {
      if (progress.cancelled()) return false;
      const size_t n = std::min(chunk.size(), n_samples - base);
      for (size_t k = 0; k < n; ++k) chunk[k] = to_position(samples[base + k]);
      auto b0 = Clock::now();
      for (size_t k = 0; k < n; ++k) sink += one(chunk[k]);
      batch_ns += double(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - b0).count());
      for (size_t k = 0; k < n; ++k) {
        auto t0 = Clock::now();
        sink += one(chunk[k]);
        auto t1 = Clock::now();
        times[base + k] = uint32_t(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
      }
      progress.report("timing " + t.mt.name + (rounds > 1 ? ", round " + std::to_string(round + 1) : std::string()),
                      (double(round) + double(base) / double(n_samples)) / double(rounds));
    }
    g_sink = g_sink + sink;
    t.batch_ns += batch_ns;
    t.mt.round_batch_mean_ns.push_back(batch_ns / double(n_samples));
    return true;
  };
  auto cover_probe = [&](probe::Method m) {
    return [&prober, m](const Position& pos) -> uint64_t { return uint64_t(prober.probe_wdl(pos, m)); };
  };
  auto fathom_probe = [&](const Position& pos) -> uint64_t {
    auto v = syzygy.wdl(pos);
    return v ? uint64_t(*v) : 9;
  };
  for (const std::string name : {probe::method_name(probe::Method::Linear), probe::method_name(probe::Method::Indexed), "fathom"}) {
    Timed t;
    t.mt.name = name;
    t.times.resize(n_samples * rounds);
    timed.push_back(std::move(t));
  }
  timed[0].mt.memory_bytes = prober.memory_bytes(probe::Method::Linear);
  timed[1].mt.memory_bytes = prober.memory_bytes(probe::Method::Indexed);
  timed[2].mt.memory_bytes = fathom_bytes;
  for (size_t round = 0; round < rounds; ++round)
    if (!time_method(timed[0], cover_probe(probe::Method::Linear), round) ||
        !time_method(timed[1], cover_probe(probe::Method::Indexed), round) || !time_method(timed[2], fathom_probe, round))
      return Error{"cancelled"};
  for (Timed& t : timed) {
    t.mt.batch_mean_ns = t.batch_ns / double(n_samples * rounds);
    t.mt.per_probe = summarize(t.times);
    if (opts.keep_times) t.mt.times_ns.assign(t.times.end() - ptrdiff_t(n_samples), t.times.end());
    r.methods.push_back(std::move(t.mt));
  }
  if (opts.keep_times) r.samples = std::move(samples);
  return r;
}

}  // namespace egtmin::bench
