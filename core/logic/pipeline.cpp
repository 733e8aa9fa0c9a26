// SPDX-License-Identifier: GPL-3.0-or-later
#include "logic/pipeline.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include <sys/resource.h>

namespace egtmin::logic {

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

Cover minterm_cover(const CareFunction& f) {
  Cover out;
  uint64_t total = f.care_count();
  out.reserve(total);
  const int n = f.inputs();
  for (int s = 0; s < kOutputs; ++s) {
    Output o = slot_output(s);
    const auto& words = f.on(o).words();
    for (uint64_t w = 0; w < words.size(); ++w)
      for (uint64_t bits = words[w]; bits; bits &= bits - 1)
        out.push_back(minterm_fast((w << 6) | uint64_t(__builtin_ctzll(bits)), n, o));
  }
  return out;
}

double cpu_now(bool whole_process) {
  rusage u{};
  getrusage(whole_process ? RUSAGE_SELF : RUSAGE_THREAD, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

namespace {
// Compact pass straight from the bitmaps? Only when compact is the first pass on the minterms.
bool bitmap_first(const CareFunction& f, const std::vector<Pass>& passes, const MinimizeOptions& opt) {
  size_t i = 0;
  while (i < passes.size() && passes[i] == Pass::Canon) ++i;
  if (i >= passes.size() || passes[i] != Pass::Compact) return false;
  switch (opt.compact_source) {
    case CompactSource::Minterms: return false;
    case CompactSource::Bitmap: return true;
    case CompactSource::Auto: break;
  }
  return f.care_count() >= kBitmapCompactMinterms;
}

// Runs fn(slot) for the three outputs on up to `threads` workers.
template <class Fn>
void per_output(int threads, Fn&& fn) {
  threads = std::clamp(threads, 1, kOutputs);
  std::atomic<int> next{0};
  auto work = [&] {
    for (int s; (s = next.fetch_add(1)) < kOutputs;) fn(s);
  };
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

// Runs tasks 0..count-1 on up to `threads` workers.
template <class Fn>
void parallel_tasks(size_t count, int threads, Fn&& fn) {
  threads = std::max(1, std::min(threads, int(std::min<size_t>(count, 1024))));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t t; (t = next.fetch_add(1)) < count;) fn(t);
  };
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

struct State {
  const Table* table = nullptr;
  CareFunction f;
  std::array<Cover, kOutputs> work;
  std::array<Cover, kOutputs> fixed;
  // The work covers are the minterms of f, not yet listed (see CompactSource).
  bool minterms_pending = false;

  void list_minterms() {
    if (!minterms_pending) return;
    split(minterm_cover(f));
    minterms_pending = false;
  }

  void split(Cover all) {
    for (auto& c : work) c.clear();
    for (CubeWord c : all) work[output_slot(output_of(c))].push_back(c);
  }
  Cover joined() const {
    Cover out;
    for (int s = 0; s < kOutputs; ++s) {
      out.insert(out.end(), fixed[s].begin(), fixed[s].end());
      out.insert(out.end(), work[s].begin(), work[s].end());
    }
    return out;
  }
  uint64_t cubes() const {
    if (minterms_pending) return f.care_count();
    uint64_t n = 0;
    for (int s = 0; s < kOutputs; ++s) n += work[s].size() + fixed[s].size();
    return n;
  }
  uint64_t literals() const {
    if (minterms_pending) return f.care_count() * uint64_t(f.inputs());
    uint64_t n = 0;
    for (int s = 0; s < kOutputs; ++s) n += literal_count(work[s]) + literal_count(fixed[s]);
    return n;
  }
};

// expand() on each output's cover. A huge cover (5 pieces: millions of cubes after compaction)
// is cut into runs of at most kExpandChunk cubes, consecutive in cube order (so each run shares
// its leading inputs: side to move, then the first pieces' squares), and each run is expanded on
// its own: expand's clean-up of contained cubes scans the rest of its cover for every cube it
// keeps, which is quadratic in the cover it is given. The blocking test still reads the whole
// care function, so every expanded cube is as large as it would be anyway; what a run cannot do
// is drop a cube that only another run's cube contains, and irredundant removes those. The runs
// of all outputs share the workers. Covers up to kExpandWhole cubes (every 2-4 piece table) are
// expanded whole, as before.
void expand_outputs(State& st, int threads, Effort effort, const Progress& progress) {
  const size_t chunk = kExpandChunk, whole = kExpandWhole;
  struct Task {
    int slot;
    size_t run;   // which run of the output's cover
    size_t size;  // cubes
  };
  std::vector<Task> tasks;
  std::array<std::vector<Cover>, kOutputs> parts;
  for (int s = 0; s < kOutputs; ++s) {
    Cover& c = st.work[s];
    if (c.size() <= whole) {
      parts[s].resize(1);
      tasks.push_back({s, 0, c.size()});
      continue;
    }
    std::sort(c.begin(), c.end());
    size_t runs = (c.size() + chunk - 1) / chunk;
    parts[s].resize(runs);
    for (size_t r = 0; r < runs; ++r) tasks.push_back({s, r, c.size() / runs});
  }
  // Biggest first, so that the workers finish together.
  std::stable_sort(tasks.begin(), tasks.end(), [](const Task& a, const Task& b) { return a.size > b.size; });
  parallel_tasks(tasks.size(), threads, [&](size_t t) {
    const Task& task = tasks[t];
    Cover& all = st.work[task.slot];
    Output o = slot_output(task.slot);
    if (all.size() <= whole) {
      expand(all, st.f, o, progress, effort);
      return;
    }
    size_t runs = parts[task.slot].size();
    size_t r = task.run;
    size_t b = all.size() * r / runs, e = all.size() * (r + 1) / runs;
    Cover part(all.begin() + long(b), all.begin() + long(e));
    expand(part, st.f, o, progress, effort);
    parts[task.slot][r] = std::move(part);
  });
  for (int s = 0; s < kOutputs; ++s) {
    if (st.work[s].size() <= whole) continue;
    Cover joined;
    for (Cover& p : parts[s]) joined.insert(joined.end(), p.begin(), p.end());
    std::sort(joined.begin(), joined.end());
    joined.erase(std::unique(joined.begin(), joined.end()), joined.end());
    st.work[s] = std::move(joined);
  }
}

Result<Minimized> run(State& st, const std::vector<Pass>& passes, const MinimizeOptions& opt, const Progress& progress,
                      bool built_canonical) {
  Minimized result;
  result.initial_cubes = st.cubes();
  bool canon_done = built_canonical;
  for (size_t i = 0; i < passes.size(); ++i) {
    if (progress.cancelled()) return Error{"cancelled"};
    Pass p = passes[i];
    auto t0 = std::chrono::steady_clock::now();
    double c0 = cpu_now(opt.threads > 1);
    std::string stage = std::string(pass_name(p)) + " (" + std::to_string(i + 1) + "/" +
                        std::to_string(passes.size()) + ")";
    progress.report(stage, 0);
    if (p != Pass::Compact && !(p == Pass::Canon && (canon_done || !st.table))) st.list_minterms();
    switch (p) {
      case Pass::Canon:
        if (canon_done || !st.table) break;
        st.f = CareFunction::from_table(*st.table, opt.canon, opt.threads, progress);
        if (progress.cancelled()) return Error{"cancelled"};
        for (int s = 0; s < kOutputs; ++s) {
          for (Cover* cv : {&st.work[s], &st.fixed[s]})
            std::erase_if(*cv, [&](CubeWord c) { return !st.f.useful(c); });
        }
        canon_done = true;
        break;
      case Pass::Compact:
        if (st.minterms_pending) {
          per_output(opt.threads, [&](int s) { st.work[s] = bitmap_compact(st.f, slot_output(s), {}, progress); });
          st.minterms_pending = false;
        } else {
          per_output(opt.threads, [&](int s) { compact(st.work[s], progress); });
        }
        break;
      case Pass::Expand:
        expand_outputs(st, opt.threads, opt.effort, progress);
        break;
      case Pass::Irredundant:
      case Pass::Reduce:
      case Pass::Essential:
      case Pass::Espresso:
        per_output(opt.threads, [&](int s) {
          Output o = slot_output(s);
          if (p == Pass::Irredundant) irredundant(st.work[s], st.fixed[s], st.f, o, opt.effort);
          if (p == Pass::Reduce) reduce(st.work[s], st.fixed[s], st.f, o);
          if (p == Pass::Essential) essential(st.work[s], st.fixed[s], st.f, o);
          if (p == Pass::Espresso) espresso(st.work[s], st.fixed[s], st.f, o, progress, opt.effort);
        });
        break;
    }
    if (progress.cancelled()) return Error{"cancelled"};
    PassReport r;
    r.pass = std::string(pass_name(p));
    r.cubes = st.cubes();
    r.literals = st.literals();
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.cpu_seconds = cpu_now(opt.threads > 1) - c0;
    r.peak_bytes = peak_memory_bytes();
    result.reports.push_back(r);
    progress.report(stage, 1);
  }
  st.list_minterms();  // no pass at all: the cover is the minterms
  result.scheme = st.f.scheme();
  result.care_positions = st.f.care_count();
  result.cover = st.joined();
  return result;
}
}  // namespace

Result<Minimized> minimize_table(const Table& table, const std::vector<Pass>& passes, const MinimizeOptions& options,
                                 const Progress& progress) {
  State st;
  st.table = &table;
  // Canon first: build the minterms under the scheme directly (and time that as the canon pass).
  bool canon_first = !passes.empty() && passes.front() == Pass::Canon;
  auto t0 = std::chrono::steady_clock::now();
  double c0 = cpu_now(options.threads > 1);
  st.f = CareFunction::from_table(table, canon_first ? options.canon : CanonScheme::None, options.threads, progress);
  if (progress.cancelled()) return Error{"cancelled"};
  // The minterms are listed only if a pass needs them as a list.
  st.minterms_pending = bitmap_first(st.f, passes, options);
  if (!st.minterms_pending) st.split(minterm_cover(st.f));
  double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double build_cpu = cpu_now(options.threads > 1) - c0;
  auto r = run(st, passes, options, progress, canon_first);
  if (r && canon_first && !r->reports.empty()) {
    r->reports.front().seconds += build;
    r->reports.front().cpu_seconds += build_cpu;
  }
  return r;
}

Result<Minimized> minimize_function(CareFunction f, const std::vector<Pass>& passes, const MinimizeOptions& options,
                                    const Progress& progress) {
  State st;
  st.f = std::move(f);
  st.minterms_pending = bitmap_first(st.f, passes, options);
  if (!st.minterms_pending) st.split(minterm_cover(st.f));
  return run(st, passes, options, progress, true);
}

}  // namespace egtmin::logic
