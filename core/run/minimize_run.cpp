// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/minimize_run.hpp"

#include "probe/probe_layout.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include "store/cover_file.hpp"
#include "table/table_store.hpp"
#include "util/defaults.hpp"

namespace egtmin::run {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The run's one bar: a unit per table to make and per balance to minimize; each worker slot
// adds the fraction of the unit it is on. Also serializes the caller's events.
class Tracker {
 public:
  Tracker(const Progress& out, size_t units, int slots)
      : out_(out), units_(double(std::max<size_t>(units, 1))), active_(size_t(slots)) {}

  void report(int slot, Stage stage, double unit_fraction, std::string_view detail) {
    std::lock_guard lock(mutex_);
    active_[size_t(slot)] = std::clamp(unit_fraction, 0.0, 1.0);
    double sum = done_;
    for (double a : active_) sum += a;
    out_.report(stage, std::min(1.0, sum / units_), detail);
  }
  void unit_done(int slot) {
    std::lock_guard lock(mutex_);
    done_ += 1;
    active_[size_t(slot)] = 0;
  }
  // Runs an event callback with the others held off.
  template <class Fn>
  void event(Fn&& fn) {
    std::lock_guard lock(mutex_);
    fn();
  }

 private:
  const Progress& out_;
  const double units_;
  double done_ = 0;
  std::vector<double> active_;
  std::mutex mutex_;
};

std::string balance_detail(const Balance& b, std::string_view detail) {
  return detail.empty() ? b.name() : b.name() + ": " + std::string(detail);
}

}  // namespace

bool MinimizeRunResult::ok() const {
  return std::all_of(balances.begin(), balances.end(), [](const BalanceResult& r) { return r.ok(); });
}

int balance_workers(const std::vector<Balance>& balances, int threads) {
  const bool has_five = std::any_of(balances.begin(), balances.end(), [](const Balance& b) { return b.pieces() >= 5; });
  if (balances.size() < 2 || has_five) return 1;
  return std::min(threads, int(balances.size()));
}

std::vector<Balance> missing_tables(const std::filesystem::path& data_dir, const std::vector<Balance>& balances) {
  TableStore store(data_dir);
  std::set<Balance> seen;
  std::vector<Balance> todo, missing;
  for (const Balance& b : balances) todo.push_back(b.canonical());
  while (!todo.empty()) {
    Balance b = todo.back();
    todo.pop_back();
    if (!seen.insert(b).second || store.on_disk(b)) continue;
    missing.push_back(b);
    for (const Balance& d : successor_balances(b)) todo.push_back(d);
  }
  std::sort(missing.begin(), missing.end(), [](const Balance& a, const Balance& b) {
    return a.pieces() != b.pieces() ? a.pieces() < b.pieces() : a < b;
  });
  return missing;
}

Result<MinimizeRunResult> run_minimize(const MinimizeRequest& request, const MinimizeEvents& events,
                                       const Progress& progress) {
  // Checked before any work: making the tables would otherwise first generate every smaller one.
  std::vector<Balance> balances;
  for (const Balance& given : request.balances) {
    const Balance b = given.canonical();
    if (b.pieces() < kMinSupportedPieces || b.pieces() > kMaxSupportedPieces)
      return Error{b.name() + " has " + std::to_string(b.pieces()) + " pieces; egtmin handles " +
                   std::to_string(kMinSupportedPieces) + " to " + std::to_string(kMaxSupportedPieces)};
    if (std::find(balances.begin(), balances.end(), b) == balances.end()) balances.push_back(b);
  }
  if (balances.empty()) return Error{"no balance to minimize"};

  const auto t_run = Clock::now();
  const int threads = resolve_threads(request.threads);
  MinimizeRunResult result;
  result.generated = missing_tables(request.data_dir, balances);
  const bool minimizing = !request.passes.empty();
  result.balance_workers = minimizing ? balance_workers(balances, threads) : 1;
  result.pass_threads = result.balance_workers > 1 ? 1 : threads;
  Tracker tracker(progress, result.generated.size() + (minimizing ? balances.size() : 0), result.balance_workers);

  // 1. Tables, one at a time, each with every thread.
  TableStore store(request.data_dir);
  {
    Progress gen(progress, [&](const ProgressEvent& e) { tracker.report(0, e.stage, e.fraction, e.detail); });
    for (const Balance& b : balances) {
      GenerateOptions opts;
      opts.threads = threads;
      opts.self_check = true;
      auto t = store.ensure(b, opts, gen, [&](const Balance& made, const TableStore::Generated& g) {
        tracker.unit_done(0);
        if (events.table_generated) tracker.event([&] { events.table_generated(made, g.seconds); });
      });
      if (progress.cancelled()) return Error{"cancelled"};
      if (!t) return t.error();
    }
  }
  store.unload_all();  // the minimizing workers load what they need
  if (!minimizing) {
    result.seconds = since(t_run);
    return result;
  }

  // 2. Minimize, balances spread over the workers.
  logic::MinimizeOptions options;
  options.canon = request.canon;
  options.effort = request.effort;
  options.split = request.split;
  options.threads = result.pass_threads;
  result.balances.resize(balances.size());
  std::atomic<size_t> next{0};
  auto minimize_one = [&](int slot, size_t i) {
    const Balance& b = balances[i];
    BalanceResult& r = result.balances[i];
    r.balance = b;
    auto table = store.get(b);
    if (!table) {
      r.error = table.error().message;
      return;
    }
    // The pipeline's Stage::Pass fractions are of the whole minimization already.
    Progress part(progress, [&](const ProgressEvent& e) {
      tracker.report(slot, e.stage, e.stage == Stage::Pass ? e.fraction : 0, balance_detail(b, e.detail));
    });
    const int inputs = (**table).encoding().bits();
    logic::PassEvents pass_events;
    pass_events.started = [&](uint64_t minterms, uint64_t care) {
      if (events.balance_started) tracker.event([&] { events.balance_started(b, minterms, care, inputs); });
    };
    pass_events.pass_done = [&](const logic::PassReport& report) {
      if (events.pass_done) tracker.event([&] { events.pass_done(b, report); });
    };
    const auto scope = options.threads > 1 ? logic::CpuScope::Process : logic::CpuScope::Thread;
    const auto t0 = Clock::now();
    const double c0 = logic::cpu_now(scope);
    auto m = logic::minimize_table(**table, request.passes, options, part, pass_events);
    r.seconds = since(t0);
    r.cpu_seconds = logic::cpu_now(scope) - c0;
    if (!m) {
      r.error = b.name() + ": " + m.error().message;
      return;
    }
    r.cubes = m->cover.size();
    if (request.covers == CoverOutput::Save) {
      tracker.report(slot, Stage::Save, 1.0, b.name());
      store::CoverFile file;
      file.balance = b;
      file.inputs = inputs;
      file.canon = m->scheme;
      file.passes = logic::passes_string(request.passes);
      file.cubes = std::move(m->cover);
      file.rule_draws = std::move(m->rule_draws);
      const auto path = store::cover_path(request.data_dir, b);
      if (auto s = store::save_cover(path, file); !s) {
        r.error = b.name() + ": " + s.error().message;
        return;
      }
      r.cover_path = path;
      // The probe's index, built once here rather than on every open (minutes at 5 pieces). A
      // cover without it still probes: the prober builds it then.
      tracker.report(slot, Stage::Save, 1.0, b.name() + ": probe layout");
      if (auto s = probe::make_layout(path); !s) r.error = b.name() + ": probe layout: " + s.error().message;
    }
    m->cover = logic::Cover();  // keep memory flat over many balances
    r.summary = std::move(*m);
  };
  auto worker = [&](int slot) {
    for (size_t i; (i = next.fetch_add(1)) < balances.size();) {
      if (progress.cancelled()) return;
      minimize_one(slot, i);
      if (progress.cancelled()) return;
      tracker.unit_done(slot);
      if (events.balance_done) tracker.event([&] { events.balance_done(result.balances[i]); });
      // A lone worker drops each balance's tables when done with it (5-piece memory).
      if (result.balance_workers == 1) store.unload_all();
    }
  };
  std::vector<std::thread> pool;
  for (int s = 1; s < result.balance_workers; ++s) pool.emplace_back(worker, s);
  worker(0);
  for (auto& t : pool) t.join();
  if (progress.cancelled()) return Error{"cancelled"};
  result.seconds = since(t_run);
  return result;
}

}  // namespace egtmin::run
