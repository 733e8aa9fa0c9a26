// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in passes as the registry lists them (logic/pass_registry.hpp): each entry adapts one
// algorithm of passes.hpp to the pipeline's state. A new built-in pass is one entry here.
#include <algorithm>

#include "logic/bitmap_compact.hpp"
#include "logic/pass_registry.hpp"
#include "logic/passes.hpp"

namespace egtmin::logic {

namespace {

// An output's cover with more than kExpandWhole cubes is expanded in runs of kExpandChunk cubes.
// No 2-4 piece cover comes near kExpandWhole (the largest, KBvKP's, has 617,267 cubes for all
// three outputs after compaction), so those are expanded whole.
constexpr size_t kExpandWhole = size_t{1} << 20;
constexpr size_t kExpandChunk = size_t{1} << 18;

// Switches the care set to the canon scheme (non-representatives become don't-cares) and drops
// cubes left with no care minterm. When canon is the first pass the pipeline builds the minterms
// under the scheme directly (what keeps 5-piece inputs in memory), and this is a no-op.
void run_canon(PassState& st, const PassContext& cx) {
  if (st.canon_done || !st.table) return;
  st.list_minterms();
  st.f = CareFunction::from_table(*st.table, cx.options.canon, cx.options.threads, cx.progress, st.at_most_draw);
  if (cx.progress.cancelled()) return;
  for (int s = 0; s < kOutputs; ++s)
    for (Cover* cv : {&st.work[s], &st.fixed[s]}) std::erase_if(*cv, [&](CubeWord c) { return !st.f.useful(c); });
  st.canon_done = true;
}

void run_compact(PassState& st, const PassContext& cx) {
  if (st.minterms_pending) {
    per_output(cx.options.threads, [&](int s) { st.work[s] = bitmap_compact(st.f, slot_output(s), {}, cx.progress); });
    st.minterms_pending = false;
  } else {
    per_output(cx.options.threads, [&](int s) { compact(st.work[s], cx.progress); });
  }
}

// expand() on each output's cover. A huge cover (5 pieces: millions of cubes after compaction)
// is cut into runs of at most kExpandChunk cubes, consecutive in cube order (so each run shares
// its leading inputs: side to move, then the first pieces' squares), and each run is expanded on
// its own: expand's clean-up of contained cubes scans the rest of its cover for every cube it
// keeps, which is quadratic in the cover it is given. The blocking test still reads the whole
// care function, so every expanded cube is as large as it would be anyway; what a run cannot do
// is drop a cube that only another run's cube contains, and irredundant removes those. The runs
// of all outputs share the workers.
void run_expand(PassState& st, const PassContext& cx) {
  struct Task {
    int slot;
    size_t run;   // which run of the output's cover
    size_t size;  // cubes
  };
  std::vector<Task> tasks;
  std::array<std::vector<Cover>, kOutputs> parts;
  for (int s = 0; s < kOutputs; ++s) {
    Cover& c = st.work[s];
    if (c.size() <= kExpandWhole) {
      parts[s].resize(1);
      tasks.push_back({s, 0, c.size()});
      continue;
    }
    std::sort(c.begin(), c.end());
    size_t runs = (c.size() + kExpandChunk - 1) / kExpandChunk;
    parts[s].resize(runs);
    for (size_t r = 0; r < runs; ++r) tasks.push_back({s, r, c.size() / runs});
  }
  // Biggest first, so that the workers finish together.
  std::stable_sort(tasks.begin(), tasks.end(), [](const Task& a, const Task& b) { return a.size > b.size; });
  parallel_for(tasks.size(), cx.options.threads, 1, no_progress(), [&](uint64_t t, uint64_t, int) {
    const Task& task = tasks[t];
    Cover& all = st.work[task.slot];
    Output o = slot_output(task.slot);
    if (all.size() <= kExpandWhole) {
      expand(all, st.f, o, cx.progress, cx.options.effort, cx.options.scope);
      return;
    }
    size_t runs = parts[task.slot].size();
    size_t b = all.size() * task.run / runs, e = all.size() * (task.run + 1) / runs;
    Cover part(all.begin() + long(b), all.begin() + long(e));
    expand(part, st.f, o, cx.progress, cx.options.effort, cx.options.scope);
    parts[task.slot][task.run] = std::move(part);
  });
  for (int s = 0; s < kOutputs; ++s) {
    if (st.work[s].size() <= kExpandWhole) continue;
    Cover joined;
    for (Cover& p : parts[s]) joined.insert(joined.end(), p.begin(), p.end());
    std::sort(joined.begin(), joined.end());
    joined.erase(std::unique(joined.begin(), joined.end()), joined.end());
    st.work[s] = std::move(joined);
  }
}

// A pass that works on each output on its own, the outputs in parallel.
template <class Fn>
std::function<void(PassState&, const PassContext&)> each_output(Fn fn) {
  return [fn](PassState& st, const PassContext& cx) {
    per_output(cx.options.threads, [&](int s) { fn(st.work[s], st.fixed[s], st.f, slot_output(s), cx); });
  };
}

}  // namespace

std::vector<PassInfo> builtin_passes() {
  return {
      {"canon", "treat symmetric copies as don't-cares (one canonical representative per class)", run_canon,
       MintermInput::Either},
      {"compact", "MINI's iterated distance-one merging, to a fixed point", run_compact, MintermInput::Either},
      {"expand", "raise each cube to a prime, greedily covering the most care minterms", run_expand},
      {"irredundant", "keep a minimum subset of the cubes that still covers every care minterm",
       each_output([](Cover& c, Cover& fixed, const CareFunction& f, Output o, const PassContext& cx) {
         irredundant(c, fixed, f, o, cx.options.effort, cx.options.scope);
       })},
      {"reduce", "shrink each cube to the care minterms only it covers (drop it when none)",
       each_output([](Cover& c, Cover& fixed, const CareFunction& f, Output o, const PassContext&) {
         reduce(c, fixed, f, o);
       })},
      {"essential", "set aside the cubes that alone cover some care minterm",
       each_output([](Cover& c, Cover& fixed, const CareFunction& f, Output o, const PassContext&) {
         essential(c, fixed, f, o);
       })},
      {"espresso", "ESPRESSO's loop: expand, irredundant, then reduce-expand-irredundant while it improves",
       each_output([](Cover& c, Cover& fixed, const CareFunction& f, Output o, const PassContext& cx) {
         espresso(c, fixed, f, o, cx.progress, cx.options.effort, cx.options.scope);
       })},
  };
}

}  // namespace egtmin::logic
