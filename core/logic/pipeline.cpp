// SPDX-License-Identifier: GPL-3.0-or-later
#include "logic/pipeline.hpp"

#include "logic/split.hpp"
#include "util/memory.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>

#include <sys/resource.h>

namespace egtmin::logic {

// The two passes the pipeline itself knows of: canon as the first pass builds the minterms under
// its scheme, and compact as the first pass on them may read the care bitmaps instead of a list.
constexpr std::string_view kCanonPass = "canon";
constexpr std::string_view kCompactPass = "compact";

double cpu_now(CpuScope scope) {
  rusage u{};
  getrusage(scope == CpuScope::Process ? RUSAGE_SELF : RUSAGE_THREAD, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

namespace {

CpuScope cpu_scope(const MinimizeOptions& opt) {
  return resolve_threads(opt.threads) > 1 ? CpuScope::Process : CpuScope::Thread;
}

// Compact pass straight from the bitmaps? Only when compact is the first pass on the minterms.
bool bitmap_first(const CareFunction& f, const PassSequence& passes, const MinimizeOptions& opt) {
  size_t i = 0;
  while (i < passes.size() && passes[i].name() == kCanonPass) ++i;
  if (i >= passes.size() || passes[i].name() != kCompactPass) return false;
  switch (opt.compact_source) {
    case CompactSource::Minterms: return false;
    case CompactSource::Bitmap: return true;
    case CompactSource::Auto: break;
  }
  return f.care_count() >= kBitmapCompactMinterms;
}

// Lists the minterms now unless the first pass builds its cover from the bitmaps.
void start(PassState& st, const PassSequence& passes, const MinimizeOptions& opt) {
  st.minterms_pending = bitmap_first(st.f, passes, opt);
  if (!st.minterms_pending) st.split(minterm_cover(st.f));
}

Result<Minimized> run(PassState& st, const PassSequence& passes, const MinimizeOptions& opt, const Progress& outer,
                      const PassEvents& events, double setup_seconds, double setup_cpu) {
  Minimized result;
  result.initial_cubes = st.cubes();
  if (events.started) events.started(result.initial_cubes, st.f.care_count());
  size_t at = 0;  // the pass running now
  // Stage::Pass fractions leave the pipeline as fractions of the whole run, not of the pass.
  const Progress progress(outer, [&](const ProgressEvent& e) {
    if (e.stage != Stage::Pass) return outer.report(e.stage, e.fraction, e.detail);
    outer.report(Stage::Pass, (double(at) + e.fraction) / double(std::max<size_t>(passes.size(), 1)), e.detail);
  });
  const PassContext cx{opt, progress};
  for (size_t i = 0; i < passes.size(); ++i) {
    if (progress.cancelled()) return Error{"cancelled"};
    at = i;
    const PassInfo& info = passes[i].info();
    auto t0 = std::chrono::steady_clock::now();
    double c0 = cpu_now(cpu_scope(opt));
    const std::string step = info.name + " (" + std::to_string(i + 1) + "/" + std::to_string(passes.size()) + ")";
    progress.report(Stage::Pass, 0, step);
    if (info.minterms == MintermInput::Listed) st.list_minterms();
    info.run(st, cx);
    if (progress.cancelled()) return Error{"cancelled"};
    PassReport r;
    r.pass = info.name;
    r.cubes = st.cubes();
    r.literals = st.literals();
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.cpu_seconds = cpu_now(cpu_scope(opt)) - c0;
    if (i == 0) {  // the care set built for the first pass is that pass's work
      r.seconds += setup_seconds;
      r.cpu_seconds += setup_cpu;
    }
    r.peak_bytes = peak_memory_bytes();
    result.reports.push_back(r);
    progress.report(Stage::Pass, 1, step);
    if (events.pass_done) events.pass_done(r);
  }
  st.list_minterms();  // no pass at all: the cover is the minterms
  result.scheme = st.f.scheme();
  result.care_positions = st.f.care_count();
  result.cover = st.joined();
  return result;
}

// The split a run uses on f: the option's inputs when set (those f can be split on), else
// choose_split's.
Split split_for(const CareFunction& f, const MinimizeOptions& opt) {
  if (!opt.split) return choose_split(f, opt.part_care_minterms, kMaxSplitInputs);
  Split s;
  for (int i : *opt.split)
    if (splittable(f, i)) s.inputs.push_back(i);
  std::sort(s.inputs.begin(), s.inputs.end());
  s.inputs.erase(std::unique(s.inputs.begin(), s.inputs.end()), s.inputs.end());
  return s;
}

// Adds a part's pass report into the run's: cubes and times add up, the peak is the highest.
void add_report(PassReport& into, const PassReport& r) {
  into.pass = r.pass;
  into.cubes += r.cubes;
  into.literals += r.literals;
  into.seconds += r.seconds;
  into.cpu_seconds += r.cpu_seconds;
  into.peak_bytes = std::max(into.peak_bytes, r.peak_bytes);
}

// The run on f in parts (logic/split.hpp): each part is minimized as a function of the inputs
// not split on, its cubes are lifted back, and cubes of different parts that differ in the split
// inputs only are then merged (compact), which is exact since a merged cube is the union of two
// cubes of the cover. Only one part's passes hold memory at a time.
Result<Minimized> run_parts(const CareFunction& f, const Split& split, const PassSequence& passes,
                            const MinimizeOptions& opt, const Progress& progress, const PassEvents& events,
                            double setup_seconds, double setup_cpu) {
  Minimized result;
  result.initial_cubes = f.care_count();
  if (events.started) events.started(result.initial_cubes, f.care_count());
  const uint64_t parts = split.parts();
  std::vector<PassReport> reports(passes.size());
  std::array<Cover, kOutputs> lifted;
  // Parts are independent: with several threads, as many parts run at once (each with its share
  // of the threads), since a part's irredundant spends most of its time in one thread's set cover.
  // Each part's memory is bounded (kPartCareMinterms), so two at once stay far below the unsplit
  // peak. Results are lifted in part order, so the cover does not depend on the scheduling.
  const int threads = resolve_threads(opt.threads);
  const int workers = int(std::min<uint64_t>(uint64_t(threads), parts));
  MinimizeOptions part_opt = opt;
  part_opt.threads = std::max(1, threads / workers);
  part_opt.scope = FunctionScope::Part;
  std::vector<std::optional<Result<Minimized>>> done(parts);
  std::vector<double> fraction(parts, 0.0);  // each part's progress, for the whole run's
  std::mutex report_mutex;
  parallel_for(parts, workers, 1, progress, [&](uint64_t p, uint64_t, int) {
    PassState st;
    st.f = split_part(f, split, p);
    if (st.f.care_count() == 0) {
      std::lock_guard lock(report_mutex);
      fraction[p] = 1.0;
      return;
    }
    st.canon_done = true;
    start(st, passes, part_opt);
    const std::string label = "part " + std::to_string(p + 1) + "/" + std::to_string(parts) + ": ";
    const Progress part_progress(progress, [&, p](const ProgressEvent& e) {
      if (e.stage != Stage::Pass) return progress.report(e.stage, e.fraction, e.detail);
      std::lock_guard lock(report_mutex);
      fraction[p] = std::max(fraction[p], e.fraction);
      double sum = 0;
      for (double x : fraction) sum += x;
      progress.report(Stage::Pass, sum / double(parts), label + std::string(e.detail));
    });
    done[p] = run(st, passes, part_opt, part_progress, {}, 0, 0);
  });
  if (progress.cancelled()) return Error{"cancelled"};
  for (uint64_t p = 0; p < parts; ++p) {
    if (!done[p]) continue;  // no care positions
    if (!*done[p]) return done[p]->error();
    const Minimized& m = **done[p];
    for (size_t i = 0; i < m.reports.size(); ++i) add_report(reports[i], m.reports[i]);
    for (CubeWord c : m.cover) lifted[output_slot(output_of(c))].push_back(unsplit(c, split, p, f.inputs()));
    done[p].reset();
  }
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = cpu_now(cpu_scope(opt));
  if (!passes.empty()) per_output(opt.threads, [&](int s) { compact(lifted[s]); });
  for (const Cover& c : lifted) result.cover.insert(result.cover.end(), c.begin(), c.end());
  if (!reports.empty()) {  // the merge belongs to the last pass's work
    reports.front().seconds += setup_seconds;
    reports.front().cpu_seconds += setup_cpu;
    reports.back().seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    reports.back().cpu_seconds += cpu_now(cpu_scope(opt)) - c0;
    reports.back().cubes = result.cover.size();
    reports.back().literals = literal_count(result.cover);
    reports.back().peak_bytes = std::max(reports.back().peak_bytes, peak_memory_bytes());
  }
  for (const PassReport& r : reports)
    if (events.pass_done) events.pass_done(r);
  result.reports = std::move(reports);
  result.scheme = f.scheme();
  result.care_positions = f.care_count();
  result.split_inputs = split.inputs;
  return result;
}
}  // namespace

CanonScheme cover_scheme(const PassSequence& passes, CanonScheme canon) {
  return std::any_of(passes.begin(), passes.end(), [](const Pass& p) { return p.name() == kCanonPass; })
             ? canon
             : CanonScheme::None;
}

Result<Minimized> minimize_table(const Table& table, const PassSequence& passes, const MinimizeOptions& options,
                                 const Progress& progress, const PassEvents& events,
                                 const std::vector<uint64_t>* at_most_draw) {
  PassState st;
  st.table = &table;
  st.at_most_draw = at_most_draw;
  // Canon first: build the minterms under the scheme directly (and time that as the canon pass).
  st.canon_done = !passes.empty() && passes.front().name() == kCanonPass;
  auto t0 = std::chrono::steady_clock::now();
  double c0 = cpu_now(cpu_scope(options));
  st.f = CareFunction::from_table(table, st.canon_done ? options.canon : CanonScheme::None, options.threads, progress,
                                  at_most_draw);
  if (progress.cancelled()) return Error{"cancelled"};
  const bool timed = st.canon_done;
  // Without canon first, the canon pass rebuilds the function from the table: no parts then.
  const Split split = st.canon_done ? split_for(st.f, options) : Split{};
  Result<Minimized> m = Error{"not run"};
  if (!split.inputs.empty()) {
    double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double setup_cpu = cpu_now(cpu_scope(options)) - c0;
    m = run_parts(st.f, split, passes, options, progress, events, setup, setup_cpu);
  } else {
    start(st, passes, options);
    double setup = timed ? std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() : 0;
    double setup_cpu = timed ? cpu_now(cpu_scope(options)) - c0 : 0;
    m = run(st, passes, options, progress, events, setup, setup_cpu);
  }
  if (m) {
    m->rule_draws = rule_draw_indices(table, m->scheme);
    for (int s = 0; s < kOutputs; ++s) m->may_imply[size_t(s)] = st.f.may_imply(slot_output(s));
  }
  return m;
}

Result<Minimized> minimize_function(CareFunction f, const PassSequence& passes, const MinimizeOptions& options,
                                    const Progress& progress, const PassEvents& events) {
  PassState st;
  st.f = std::move(f);
  st.canon_done = true;
  start(st, passes, options);
  return run(st, passes, options, progress, events, 0, 0);
}

}  // namespace egtmin::logic
