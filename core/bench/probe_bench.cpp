// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/probe_bench.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <span>

#include "probe/probe.hpp"

namespace egtmin::bench {

namespace {

using Clock = std::chrono::steady_clock;

// Keeps results observable so the timed calls cannot be optimized away.
volatile uint64_t g_sink = 0;

}  // namespace

std::optional<Wdl> table_value(const TableLookup& tables, const Position& pos) {
  const Balance b = Balance::of(pos);
  const Table* t = tables(b.canonical());
  if (!t) return std::nullopt;
  // The colour flip keeps the side to move's value; the table holds White's.
  const Wdl white = b.is_canonical() ? t->value(pos) : t->value(pos.color_flipped());
  const Color stm = b.is_canonical() ? pos.side_to_move() : ~pos.side_to_move();
  if (white == Wdl::Illegal) return std::nullopt;
  return stm == White ? white : negate(white);
}

Result<ProbeBenchResult> run_probe_bench(const probe::CoverProber& prober, const Syzygy& syzygy,
                                         const ProbeBenchOptions& opts, const Progress& progress,
                                         const probe::CoverProber* resolved, const TableLookup* tables) {
  if (opts.pieces < 3 || opts.pieces > 5) return Error{"--pieces must be 3, 4 or 5"};
  if (opts.positions == 0) return Error{"--positions must be positive"};
  ProbeBenchResult r;
  // Named balances without a Syzygy file: checked against the tables, Fathom left out.
  const bool on_tables = opts.against_tables || std::any_of(opts.balances.begin(), opts.balances.end(),
                                                            [&](const Balance& b) { return !syzygy.has_wdl(b); });
  if (on_tables && !tables) return Error{"no tables to check the covers against"};
  r.checked_against = on_tables ? CheckedAgainst::Tables : CheckedAgainst::AnchorMethod;

  for (const Balance& b : opts.balances) {
    if (b.pieces() != opts.pieces)
      return Error{b.name() + " has " + std::to_string(b.pieces()) + " pieces, not " + std::to_string(opts.pieces)};
    if (!prober.has(b)) return Error{"no cover for " + b.name() + " (egtmin-cli minimize " + b.name() + ")"};
    if (resolved && !resolved->has(b))
      return Error{"no capture-resolved cover for " + b.name() + " (egtmin-cli minimize " + b.name() +
                   " --capture-resolved)"};
    if (on_tables && !(*tables)(b))
      return Error{"no Syzygy WDL file for " + b.name() + " and no table to check against (egtmin-cli gen " + b.name() +
                   ")"};
  }
  // 1. Sample.
  PaperSampler sampler(opts.pieces, opts.seed);
  std::vector<Sample> samples;
  samples.reserve(opts.positions);
  std::set<Balance> balances;
  // Whether a sampled balance can be checked, asked once per balance (a table lookup locks).
  std::map<Balance, bool> checkable;
  auto can_check = [&](const Balance& b) {
    auto [it, fresh] = checkable.try_emplace(b, false);
    if (fresh)
      it->second =
          prober.has(b) && (on_tables ? (*tables)(b) != nullptr : syzygy.has_wdl(b)) && (!resolved || resolved->has(b));
    return it->second;
  };
  Sample s;
  while (samples.size() < opts.positions) {
    if (progress.cancelled()) return Error{"cancelled"};
    ++r.candidates;
    if (!sampler.next(s)) {
      ++r.discarded_illegal;
      continue;
    }
    const Balance b = Balance::of(to_position(s)).canonical();
    if (!opts.balances.empty() && std::find(opts.balances.begin(), opts.balances.end(), b) == opts.balances.end()) {
      ++r.discarded_unavailable;
      continue;
    }
    if (!can_check(b)) {
      ++r.discarded_unavailable;
      if (r.candidates > 1000 && r.discarded_unavailable * 100 > r.candidates * 99 && samples.empty())
        return Error{std::string("almost no sampled position has both a cover and ") +
                     (on_tables ? "a table" : "a Syzygy file") + "; minimize --pieces " + std::to_string(opts.pieces) +
                     " first"};
      continue;
    }
    balances.insert(b);
    samples.push_back(s);
    if ((samples.size() & 0xffff) == 0) progress.report(Stage::Sample, double(samples.size()) / double(opts.positions));
  }
  r.positions = samples.size();
  if (!on_tables)
    for (const Balance& b : balances) syzygy.warm_up(b);
  const std::vector<Balance> sampled(balances.begin(), balances.end());
  const Syzygy::Hold hold = syzygy.hold();  // the directory stays put, and no timed probe locks
  const probe::ProbeTargets targets{prober, syzygy, &hold, resolved};
  const probe::ProbeMethodInfo& anchor = probe::anchor_method();
  std::vector<const probe::ProbeMethodInfo*> methods = probe::probe_methods_for(targets);
  if (on_tables) std::erase(methods, &anchor);

  // How many positions each method is checked and timed on (the first ones).
  auto positions_for = [&](const probe::ProbeMethodInfo& m) {
    return m.scans_cover && opts.scan_positions > 0 ? std::min<size_t>(samples.size(), opts.scan_positions)
                                                    : samples.size();
  };
  // 2. Correctness: every method against the anchor on every position (its subsample).
  for (size_t i = 0; i < samples.size(); ++i) {
    if ((i & 0xfff) == 0 && progress.cancelled()) return Error{"cancelled"};
    const Position pos = to_position(samples[i]);
    const std::optional<Wdl> want = on_tables ? table_value(*tables, pos) : anchor.probe_checked(targets, pos);
    for (const probe::ProbeMethodInfo* mp : methods) {
      const probe::ProbeMethodInfo& m = *mp;
      if (&m == &anchor || i >= positions_for(m)) continue;
      const std::optional<Wdl> got = m.probe_checked(targets, pos);
      if (!want || !got || *got != *want) {
        ++r.mismatches;
        if (r.mismatch_examples.size() < 10)
          r.mismatch_examples.push_back(pos.fen() + " " + std::string(m.name) + ": " +
                                        (got ? std::string(name_of(*got)) : "no answer (or its paths disagree)") +
                                        ", " + std::string(on_tables ? "table" : anchor.name) + " " +
                                        (want ? std::string(name_of(*want)) : "none"));
      }
    }
    if ((i & 0xffff) == 0) progress.report(Stage::CompareAnchor, double(i) / double(samples.size()));
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
  const size_t rounds = size_t(std::max(opts.rounds, 1));
  struct Timed {
    MethodTiming mt;
    std::vector<uint32_t> times;  // every round's per-probe times, round after round
    double batch_ns = 0, round_ns = 0;
  };
  std::vector<Timed> timed(methods.size());
  for (size_t i = 0; i < methods.size(); ++i) {
    timed[i].mt.method = methods[i]->id;
    timed[i].mt.memory_bytes = methods[i]->memory_bytes(targets, sampled);
    timed[i].mt.positions = positions_for(*methods[i]);
    timed[i].times.resize(timed[i].mt.positions * rounds);
  }
  // Positions are rebuilt outside the timed regions, a chunk at a time; then a method probes the
  // chunk twice: once timed as a batch, once timing each probe.
  auto fill_chunk = [&](size_t base, size_t n) {
    for (size_t k = 0; k < n; ++k) chunk[k] = to_position(samples[base + k]);
  };
  auto time_chunk = [&](Timed& t, const probe::ProbeMethodInfo& m, size_t round, size_t base, size_t n) {
    uint64_t sink = 0;
    uint32_t* times = t.times.data() + round * t.mt.positions;
    auto b0 = Clock::now();
    sink += m.probe_batch(targets, chunk.data(), n);
    t.round_ns += double(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - b0).count());
    for (size_t k = 0; k < n; ++k) {
      auto t0 = Clock::now();
      sink += m.probe_batch(targets, &chunk[k], 1);
      auto t1 = Clock::now();
      times[base + k] = uint32_t(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
    }
    g_sink = g_sink + sink;
  };
  auto end_round = [](Timed& t) {
    t.batch_ns += t.round_ns;
    t.mt.round_batch_mean_ns.push_back(t.round_ns / double(t.mt.positions));
    t.round_ns = 0;
  };
  // Which methods time a pass each and which take turns chunk by chunk.
  std::vector<size_t> passed, chunked;
  for (size_t i = 0; i < methods.size(); ++i)
    (opts.turns == ProbeBenchOptions::Turns::Chunk && !methods[i]->scans_cover ? chunked : passed).push_back(i);
  const double work = double(rounds * methods.size());  // timed passes in all, for the progress bar
  auto report = [&](double done, size_t round, std::string_view what) {
    progress.report(Stage::Time, done / work,
                    std::string(what) + (rounds > 1 ? ", round " + std::to_string(round + 1) : ""));
  };
  for (size_t round = 0; round < rounds; ++round) {
    const double round_start = double(round * methods.size());
    size_t passes = 0;
    for (size_t i : passed) {
      const size_t n_samples = positions_for(*methods[i]);
      for (size_t base = 0; base < n_samples; base += chunk.size()) {
        if (progress.cancelled()) return Error{"cancelled"};
        const size_t n = std::min(chunk.size(), n_samples - base);
        fill_chunk(base, n);
        time_chunk(timed[i], *methods[i], round, base, n);
        report(round_start + double(passes) + double(base) / double(n_samples), round, methods[i]->name);
      }
      end_round(timed[i]);
      ++passes;
    }
    if (chunked.empty()) continue;
    // Every chunked method times every position (none scans covers, so none has a subsample).
    for (size_t base = 0, c = 0; base < samples.size(); base += chunk.size(), ++c) {
      if (progress.cancelled()) return Error{"cancelled"};
      const size_t n = std::min(chunk.size(), samples.size() - base);
      fill_chunk(base, n);
      for (size_t j = 0; j < chunked.size(); ++j) {
        const size_t i = chunked[(j + c) % chunked.size()];
        time_chunk(timed[i], *methods[i], round, base, n);
      }
      report(round_start + double(passes) + double(chunked.size()) * double(base) / double(samples.size()), round,
             "methods in turn");
    }
    for (size_t i : chunked) end_round(timed[i]);
  }
  for (Timed& t : timed) {
    t.mt.batch_mean_ns = t.batch_ns / double(t.mt.positions * rounds);
    t.mt.per_probe = summarize(t.times);
    if (opts.keep_times) t.mt.times_ns.assign(t.times.end() - ptrdiff_t(t.mt.positions), t.times.end());
    r.methods.push_back(std::move(t.mt));
  }
  if (opts.keep_times) r.samples = std::move(samples);
  return r;
}

}  // namespace egtmin::bench
