// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/minimize_run.hpp"

#include "probe/probe.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <set>

#include "logic/check.hpp"
#include "store/cover_file.hpp"
#include "table/capture_resolve.hpp"
#include "table/table_store.hpp"
#include "util/defaults.hpp"
#include "util/memory.hpp"
#include "util/parallel.hpp"

namespace egtmin::run {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The balance's standalone cover, when it can serve as its capture-resolved one: a balance where
// no capture or promotion reaches the value leaves nothing to the probe's search, so its
// capture-resolved function is the standalone function, and the standalone cover, exact on every
// position, is a capture-resolved cover as it stands. Taken only when it was made by the request's
// passes, canonicalization and implied-output rule, the request asks for the normal effort (a
// cover of high effort is made afresh), and it agrees with `table` on every legal position (a
// cover left from an older table is not carried over; the check is cheap beside minimizing);
// anything else gives nullopt.
std::optional<store::CoverFile> standalone_for_capture_resolved(const MinimizeRequest& request, const Balance& b,
                                                                const Table& table, int threads) {
  if (request.effort != logic::Effort::Normal) return std::nullopt;
  auto file = store::load_cover(store::cover_path(request.data_dir, b, store::CoverKind::Standalone), &b);
  if (!file || file->kind != store::CoverKind::Standalone) return std::nullopt;
  const bool implied_rule = (request.implied == ImpliedOutput::None) == (file->implied == logic::Output::None);
  if (file->passes != logic::passes_string(request.passes) ||
      file->canon != logic::cover_scheme(request.passes, request.canon) || !implied_rule)
    return std::nullopt;
  const logic::CheckReport exact =
      logic::check_cover(table, file->cubes, file->canon, file->rule_draws, file->implied, 0, 1, threads);
  if (exact.mismatches != 0 || exact.positions == 0) return std::nullopt;
  file->kind = store::CoverKind::CaptureResolved;
  return std::move(*file);
}

// The run's one bar: each step of the plan weighs its share of the work (a 5-piece table counts
// two hundred 4-piece ones); each worker slot adds the fraction of the step it is on. Also
// serializes the caller's events.
class Tracker {
 public:
  Tracker(const Progress& out, double total_work, int slots)
      : out_(out), total_(std::max(total_work, 1e-9)), active_(size_t(slots)) {}

  void report(int slot, double step_work, double step_fraction, Stage stage, std::string_view detail) {
    std::lock_guard lock(mutex_);
    active_[size_t(slot)] = step_work * std::clamp(step_fraction, 0.0, 1.0);
    double sum = done_;
    for (double a : active_) sum += a;
    out_.report(stage, std::min(1.0, sum / total_), detail);
  }
  void step_done(int slot, double step_work) {
    std::lock_guard lock(mutex_);
    done_ += step_work;
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
  const double total_;
  double done_ = 0;
  std::vector<double> active_;
  std::mutex mutex_;
};

// "table 2 of 5, KRRvKR: self-check"
std::string step_detail(std::string_view kind, size_t i, size_t n, std::string_view detail) {
  return std::string(kind) + " " + std::to_string(i + 1) + " of " + std::to_string(n) + ", " + std::string(detail);
}

std::string balance_detail(const Balance& b, std::string_view detail) {
  return detail.empty() ? b.name() : b.name() + ": " + std::string(detail);
}

}  // namespace

bool MinimizeRunResult::ok() const {
  return std::all_of(balances.begin(), balances.end(), [](const BalanceResult& r) { return r.ok(); });
}

ThreadSplit split_threads(const std::vector<Balance>& balances, int threads) {
  threads = resolve_threads(threads);
  const bool has_five = std::any_of(balances.begin(), balances.end(), [](const Balance& b) { return b.pieces() >= 5; });
  if (balances.size() < 2 || has_five) return {1, threads};
  const int workers = std::min(threads, int(balances.size()));
  return {workers, workers > 1 ? 1 : threads};
}

Result<MinimizeRunResult> run_minimize(const MinimizeRequest& request, const MinimizeEvents& events,
                                       const Progress& progress) {
  // Checked before any work: making the tables would otherwise first generate every smaller one.
  std::vector<Balance> balances;
  for (const Balance& given : request.balances) {
    const Balance b = given.canonical();
    if (auto s = check_supported(b); !s) return s.error();
    if (std::find(balances.begin(), balances.end(), b) == balances.end()) balances.push_back(b);
  }
  if (balances.empty()) return Error{"no balance to minimize"};

  const auto t_run = Clock::now();
  const int threads = resolve_threads(request.threads);
  const bool minimizing = !request.passes.empty();
  MinimizeRunResult result;
  const ThreadSplit split = minimizing ? split_threads(balances, threads) : ThreadSplit{1, threads};
  result.balance_workers = split.balance_workers;
  result.pass_threads = split.pass_threads;
  result.plan = plan_run(request.data_dir, balances, minimizing, result.pass_threads, request.kind);
  const uint64_t limit = request.memory_limit ? *request.memory_limit : available_memory_bytes();
  if (auto s = check_memory(result.plan, limit); !s) return s.error();
  if (events.planned) events.planned(result.plan);
  for (const PlanStep& step : result.plan.steps)
    if (step.kind == PlanStep::Kind::Table) result.generated.push_back(step.balance);
  Tracker tracker(progress, result.plan.total_work(), result.balance_workers);

  // 1. Tables in dependency order, one at a time, each with every thread. Each step loads only
  // the tables its captures and promotions reach: the store is emptied between steps, so a chain
  // of 5-piece tables does not pile up in memory.
  TableStore store(request.data_dir);
  GenerateOptions gen_opts;
  gen_opts.threads = threads;
  gen_opts.self_check = request.self_check;
  const size_t tables = result.plan.tables();
  const TableStore::OnGenerated on_generated = [&](const Balance& made, const TableStore::Generated& g) {
    if (events.table_generated) tracker.event([&] { events.table_generated(made, g); });
  };
  for (size_t i = 0; i < tables; ++i) {
    const PlanStep& step = result.plan.steps[i];
    Progress gen(progress, [&](const ProgressEvent& e) {
      tracker.report(0, step.work, e.fraction, e.stage, step_detail("table", i, tables, e.detail));
    });
    auto t = store.ensure(step.balance, gen_opts, gen, on_generated);
    if (progress.cancelled()) return Error{"cancelled"};
    if (!t) return t.error();
    tracker.step_done(0, step.work);
    store.unload_all();
  }
  // The balances themselves: on disk now, unless a table file is of an older format (remade here).
  for (const Balance& b : balances) {
    auto t = store.ensure(b, gen_opts, no_progress(), on_generated);
    if (progress.cancelled()) return Error{"cancelled"};
    if (!t) return t.error();
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
  if (request.kind == store::CoverKind::CaptureResolved) options.part_care_minterms = logic::kResolvedPartCareMinterms;
  options.threads = result.pass_threads;
  result.balances.resize(balances.size());
  auto minimize_one = [&](int slot, size_t i) {
    const Balance& b = balances[i];
    const double work = result.plan.steps[tables + i].work;
    auto detail = [&](std::string_view d) { return step_detail("minimize", i, balances.size(), balance_detail(b, d)); };
    BalanceResult& r = result.balances[i];
    r.balance = b;
    auto table = store.get(b);
    if (!table) {
      r.error = table.error().message;
      return;
    }
    // The pipeline's Stage::Pass fractions are of the whole minimization already.
    Progress part(progress, [&](const ProgressEvent& e) {
      tracker.report(slot, work, e.stage == Stage::Pass ? e.fraction : 0, e.stage, detail(e.detail));
    });
    // A capture-resolved cover minimizes the table with what a capture reaches left open.
    std::optional<CaptureResolution> resolved;
    if (request.kind == store::CoverKind::CaptureResolved) {
      // The partial cases (a draw a capture reaches) need an implied output to fall back on.
      const CaptureRule rule =
          request.implied == ImpliedOutput::None ? CaptureRule::WinsOnly : CaptureRule::ValueReached;
      auto res = resolve_captures(**table, store.lookup(), options.threads, part, rule);
      if (!res) {
        r.error = b.name() + ": " + res.error().message;
        return;
      }
      resolved = std::move(*res);
      r.capture_resolved = resolved->resolved + resolved->draw_capped;
      r.capture_capped = resolved->draw_capped;
      // The minimization reads the resolved copy only: a lone worker lets the table and the
      // tables its captures reached go (at 5 pieces with pawns, several 5-piece tables) before
      // the passes take their memory. Side by side, other workers may still be reading them.
      if (result.balance_workers == 1) {
        table = Error{"unloaded"};
        store.unload_all();
      }
    }
    // Writes the cover and its probe layout: false when the cover could not be written; a layout
    // that could not be built leaves r.error too.
    auto save = [&](store::CoverFile file) {
      tracker.report(slot, work, 1.0, Stage::Save, detail(""));
      const auto path = store::cover_path(request.data_dir, b, request.kind);
      if (auto s = store::save_cover(path, file); !s) {
        r.error = b.name() + ": " + s.error().message;
        return false;
      }
      r.cover_path = path;
      // The probe's index, built once here rather than on every open (expensive at 5 pieces). A
      // cover without it still probes: the prober builds it then.
      tracker.report(slot, work, 1.0, Stage::Save, detail("probe layout"));
      const auto bound = request.layout_bytes.find(b.name());
      const std::optional<probe::LayoutBytes> bytes =
          bound == request.layout_bytes.end() ? std::nullopt : std::optional<probe::LayoutBytes>(bound->second);
      if (auto s = probe::make_layout(path, options.threads, probe::kDefaultCheckEvasions, bytes); !s)
        r.error = b.name() + ": probe layout: " + s.error().message;
      return true;
    };
    if (resolved && r.capture_resolved == 0 && request.covers == CoverOutput::Save) {
      if (std::optional<store::CoverFile> file =
              standalone_for_capture_resolved(request, b, resolved->table, options.threads)) {
        r.reused_standalone = true;
        r.cubes = file->cubes.size();
        r.implied = file->implied;
        r.summary.scheme = file->canon;
        r.summary.rule_draws = file->rule_draws;
        save(std::move(*file));
        return;
      }
    }
    const Table& input = resolved ? resolved->table : **table;
    const int inputs = input.encoding().bits();
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
    auto m = logic::minimize_table(input, request.passes, options, part, pass_events,
                                   resolved ? &resolved->at_most_draw : nullptr);
    r.seconds = since(t0);
    r.cpu_seconds = logic::cpu_now(scope) - c0;
    if (!m) {
      r.error = b.name() + ": " + m.error().message;
      return;
    }
    logic::Output implied = logic::Output::None;
    if (request.implied == ImpliedOutput::MostCubes) {
      implied = logic::most_cubes_output(m->cover, m->may_imply);
      // The partial capture-resolved cases need an implied output even when no cube has one, and
      // check knows the rule by it (proof_run).
      if (implied == logic::Output::None && resolved) implied = logic::Output::Draw;
    }
    if (implied != logic::Output::None) logic::drop_output(m->cover, implied);
    r.cubes = m->cover.size();
    r.implied = implied;
    if (request.covers == CoverOutput::Save) {
      store::CoverFile file;
      file.balance = b;
      file.kind = request.kind;
      file.inputs = inputs;
      file.canon = m->scheme;
      file.passes = logic::passes_string(request.passes);
      file.cubes = std::move(m->cover);
      file.rule_draws = m->rule_draws;  // a copy: the summary reports the list too (records count it)
      file.implied = implied;
      if (!save(std::move(file))) return;
    }
    m->cover = logic::Cover();  // keep memory flat over many balances
    r.summary = std::move(*m);
  };
  parallel_for(balances.size(), result.balance_workers, 1, progress, [&](uint64_t i, uint64_t, int slot) {
    minimize_one(slot, i);
    if (progress.cancelled()) return;
    tracker.step_done(slot, result.plan.steps[tables + i].work);
    if (events.balance_done) tracker.event([&] { events.balance_done(result.balances[i]); });
    // A lone worker drops each balance's tables when done with it (5-piece memory).
    if (result.balance_workers == 1) store.unload_all();
  });
  if (progress.cancelled()) return Error{"cancelled"};
  result.seconds = since(t_run);
  return result;
}

}  // namespace egtmin::run
