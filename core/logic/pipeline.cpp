// SPDX-License-Identifier: GPL-3.0-or-later
#include "logic/pipeline.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>

#include <sys/resource.h>

namespace egtmin::logic {

// The two passes the pipeline itself knows of: canon as the first pass builds the minterms under
// its scheme, and compact as the first pass on them may read the care bitmaps instead of a list.
constexpr std::string_view kCanonPass = "canon";
constexpr std::string_view kCompactPass = "compact";

uint64_t peak_memory_bytes() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  uint64_t kb = 0;
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, "VmHWM:", 6) == 0) {
      kb = std::strtoull(line + 6, nullptr, 10);
      break;
    }
  std::fclose(f);
  return kb * 1024;
}

double cpu_now(CpuScope scope) {
  rusage u{};
  getrusage(scope == CpuScope::Process ? RUSAGE_SELF : RUSAGE_THREAD, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

namespace {

CpuScope cpu_scope(const MinimizeOptions& opt) { return opt.threads > 1 ? CpuScope::Process : CpuScope::Thread; }

// Compact pass straight from the bitmaps? Only when compact is the first pass on the minterms.
bool bitmap_first(const CareFunction& f, const std::vector<Pass>& passes, const MinimizeOptions& opt) {
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
void start(PassState& st, const std::vector<Pass>& passes, const MinimizeOptions& opt) {
  st.minterms_pending = bitmap_first(st.f, passes, opt);
  if (!st.minterms_pending) st.split(minterm_cover(st.f));
}

Result<Minimized> run(PassState& st, const std::vector<Pass>& passes, const MinimizeOptions& opt,
                      const Progress& progress, const PassEvents& events, double setup_seconds, double setup_cpu) {
  Minimized result;
  result.initial_cubes = st.cubes();
  if (events.started) events.started(result.initial_cubes, st.f.care_count());
  const PassContext cx{opt, progress};
  for (size_t i = 0; i < passes.size(); ++i) {
    if (progress.cancelled()) return Error{"cancelled"};
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
}  // namespace

Result<Minimized> minimize_table(const Table& table, const std::vector<Pass>& passes, const MinimizeOptions& options,
                                 const Progress& progress, const PassEvents& events) {
  PassState st;
  st.table = &table;
  // Canon first: build the minterms under the scheme directly (and time that as the canon pass).
  st.canon_done = !passes.empty() && passes.front().name() == kCanonPass;
  auto t0 = std::chrono::steady_clock::now();
  double c0 = cpu_now(cpu_scope(options));
  st.f = CareFunction::from_table(table, st.canon_done ? options.canon : CanonScheme::None, options.threads, progress);
  if (progress.cancelled()) return Error{"cancelled"};
  start(st, passes, options);
  const bool timed = st.canon_done;
  double setup = timed ? std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() : 0;
  double setup_cpu = timed ? cpu_now(cpu_scope(options)) - c0 : 0;
  auto m = run(st, passes, options, progress, events, setup, setup_cpu);
  if (m) m->rule_draws = rule_draw_indices(table, m->scheme);
  return m;
}

Result<Minimized> minimize_function(CareFunction f, const std::vector<Pass>& passes, const MinimizeOptions& options,
                                    const Progress& progress, const PassEvents& events) {
  PassState st;
  st.f = std::move(f);
  st.canon_done = true;
  start(st, passes, options);
  return run(st, passes, options, progress, events, 0, 0);
}

}  // namespace egtmin::logic
