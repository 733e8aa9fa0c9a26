// SPDX-License-Identifier: GPL-3.0-or-later
#include "logic/pipeline.hpp"

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

struct State {
  const Table* table = nullptr;
  CareFunction f;
  std::array<Cover, kOutputs> work;
  std::array<Cover, kOutputs> fixed;

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
    uint64_t n = 0;
    for (int s = 0; s < kOutputs; ++s) n += work[s].size() + fixed[s].size();
    return n;
  }
  uint64_t literals() const {
    uint64_t n = 0;
    for (int s = 0; s < kOutputs; ++s) n += literal_count(work[s]) + literal_count(fixed[s]);
    return n;
  }
};

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
        per_output(opt.threads, [&](int s) { compact(st.work[s], progress); });
        break;
      case Pass::Expand:
        per_output(opt.threads, [&](int s) { expand(st.work[s], st.f, slot_output(s), progress); });
        break;
      case Pass::Irredundant:
      case Pass::Reduce:
      case Pass::Essential:
      case Pass::Espresso:
        per_output(opt.threads, [&](int s) {
          Output o = slot_output(s);
          if (p == Pass::Irredundant) irredundant(st.work[s], st.fixed[s], st.f, o);
          if (p == Pass::Reduce) reduce(st.work[s], st.fixed[s], st.f, o);
          if (p == Pass::Essential) essential(st.work[s], st.fixed[s], st.f, o);
          if (p == Pass::Espresso) espresso(st.work[s], st.fixed[s], st.f, o, progress);
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
  st.split(minterm_cover(st.f));
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
  st.split(minterm_cover(st.f));
  return run(st, passes, options, progress, true);
}

}  // namespace egtmin::logic
