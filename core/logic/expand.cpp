// SPDX-License-Identifier: GPL-3.0-or-later
// Expand, reading the care bitmaps: the cover grows as a greedy set cover of the output's care
// minterms. Cubes go largest first; a cube whose care minterms the primes made so far already
// cover is dropped; any other cube becomes a prime by raising, one at a time, the literal whose
// raise adds the most care minterms not yet covered (the "most new coverage" rule; ESPRESSO's
// "cover the most other cubes" measured on minterms rather than on the cubes of the cover), ties
// and zero gains by the most care minterms added at all, then by how often the input is free in
// the cover. A raise is allowed while the cube contains no care minterm of another output; a
// literal once blocked stays blocked (the cube only grows), so it is not tried again.
//
// More primes than one cover needs give irredundant (a minimum-cover solver) a choice; how many
// depends on the cover's size (expand_effort): further greedy covers in other seed orders
// (smallest first, shuffled), alternative primes per cube (the greedy started from another first
// raise, or ranked by all care minterms instead of uncovered ones), and LAST_GASP-style rounds:
// each cube of the current cover is reduced to the supercube of the care minterms only it
// covers, and that is raised toward the care minterms the other cubes alone cover, so a new
// prime can replace two or more cubes. The cover of the next round is the irredundant subset of
// all primes so far; rounds stop early when two in a row find no smaller cover.
#include <algorithm>
#include <array>
#include <bit>
#include <random>
#include <vector>

#include "logic/coverage.hpp"
#include "logic/expand.hpp"
#include "logic/irredundant.hpp"
#include "logic/passes.hpp"

namespace egtmin::logic {

namespace {

// Tuning of expand_effort (docs/bench-logic.md, "Effort levels"). Extra primes give irredundant
// a choice, but each costs an expand and enlarges irredundant's matrix; small covers are cheap,
// so they get the most. Fields: orders, trials, gasp_rounds, gasp_alt, gasp_full.
// Up to kSmallCover cubes (per output): 4 seed orders, 3 alternative primes per cube, up to 6
// LAST_GASP rounds with a second prime per reduced cube, each round's cover from all primes.
constexpr size_t kSmallCover = 12000;
constexpr ExpandEffort kSmallCoverEffort{4, 3, 6, 1, 1};
// Up to kMediumCover cubes: one order, no alternatives, up to 3 rounds (still from all primes).
constexpr size_t kMediumCover = 200000;
constexpr ExpandEffort kMediumCoverEffort{1, 0, 3, 0, 1};
// Larger covers: one order and one round, each round's cover from the last one only.
constexpr ExpandEffort kLargeCoverEffort{1, 0, 1, 0, 0};
// High effort: the small covers' effort whatever the size; up to 12 rounds, which in practice
// stop after 5-8 when two in a row find no smaller cover (KRvKR, KQvKR: 12 and 20 rounds give
// the same pool).
constexpr ExpandEffort kHighEffort{4, 3, 12, 1, 1};
// LAST_GASP rounds stop once this many rounds in a row found no smaller cover: not at the first,
// since a round without a smaller cover still adds primes the next round's cover can use.
constexpr int kStaleRoundsToStop = 2;
// Progress is reported every this many cubes (a power of two: a mask test per cube), often enough
// for a smooth progress bar, rarely enough to cost nothing.
constexpr size_t kReportEvery = 1024;

}  // namespace

Expander::Expander(const CareFunction& f, Output o) : f_(f), on_(f.on(o)), o_(o), covered_(on_.words().size(), 0) {
  for (int s = 0; s < kOutputs; ++s)
    if (s != output_slot(o)) block_[nb_++] = &f.on_slot(s);
}

bool Expander::blocked(CubeWord c) const {
  if (intersects_any(block_, nb_, c)) return true;
  // The "at most a draw" positions (capture-resolved functions) block the side to move's win.
  const CubeWord part = f_.side_to_move_win_part(c, o_);
  return part && intersects(f_.at_most_draw(), part);
}

bool Expander::has_uncovered(CubeWord c) const {
  return any_word_in(on_, c, [&](uint64_t word, uint64_t bits) { return (bits & ~covered_[word]) != 0; });
}

std::pair<uint64_t, uint64_t> Expander::gain(CubeWord c) const {
  uint64_t fresh = 0, all = 0;
  for_each_word_in(on_, c, [&](uint64_t word, uint64_t bits) {
    all += uint64_t(std::popcount(bits));
    fresh += uint64_t(std::popcount(bits & ~covered_[word]));
  });
  return {fresh, all};
}

void Expander::mark(CubeWord c) {
  for_each_word_in(on_, c, [&](uint64_t word, uint64_t bits) { covered_[word] |= bits; });
}

CubeWord Expander::expand_one(CubeWord c, const std::array<uint64_t, kMaxInputs>& freq, int first, Rank rank) const {
  const int n = f_.inputs();
  int lits[kMaxInputs];
  int k = 0;
  for (int i = 0; i < n; ++i)
    if (((c >> pair_shift(i)) & 3) != 3 && i != first) lits[k++] = i;
  if (first >= 0) c |= pair_mask(first);
  // What raising each literal adds, kept from one raise to the next: once c has grown at input
  // `raised`, the minterms raising literal i adds are those it added before and their mirror
  // across `raised`, so only that mirror (a cube half as large as the whole) is visited. Exact:
  // gains add up, and a cube is blocked when either half is. `covered_` does not change here.
  uint64_t fresh_of[kMaxInputs], all_of[kMaxInputs];
  int raised = -1;      // the input raised last (-1: none yet, every gain is visited whole)
  CubeWord before = c;  // c before that raise (its literal there)
  while (k > 0) {
    int best = -1;
    uint64_t best_fresh = 0, best_all = 0;
    for (int t = 0; t < k;) {
      const int i = lits[t];
      const CubeWord pm = pair_mask(i);
      CubeWord half = (c & ~pm) | (~c & pm);  // the minterms the raise would add
      if (raised >= 0) {
        // Only its part new since the last raise: the other value at `raised`.
        const CubeWord rm = pair_mask(raised);
        half = (half & ~rm) | (~before & rm);
      }
      if (blocked(half)) {
        lits[t] = lits[--k];  // blocked for good
        continue;
      }
      auto [fresh, all] = gain(half);
      if (raised >= 0) {
        fresh += fresh_of[i];
        all += all_of[i];
      }
      fresh_of[i] = fresh;
      all_of[i] = all;
      if (rank == Rank::AllCoverage) fresh = 0;  // rank by all care minterms only
      bool better = best < 0 || fresh > best_fresh || (fresh == best_fresh && all > best_all) ||
                    (fresh == best_fresh && all == best_all && freq[i] > freq[best]);
      if (better) {
        best = i;
        best_fresh = fresh;
        best_all = all;
      }
      ++t;
    }
    if (best < 0) break;
    before = c;
    c |= pair_mask(best);
    raised = best;
    for (int t = 0; t < k; ++t)
      if (lits[t] == best) {
        lits[t] = lits[--k];
        break;
      }
  }
  return c;
}

ExpandEffort expand_effort(size_t cubes, Effort level, FunctionScope scope) {
  if (level == Effort::High) return kHighEffort;
  // A part of a split function is a slice of a large one (5 pieces): the large covers' effort,
  // whatever the slice's size. More primes there cost more time than they save cubes.
  if (scope == FunctionScope::Part) return kLargeCoverEffort;
  if (cubes <= kSmallCover) return kSmallCoverEffort;
  if (cubes <= kMediumCover) return kMediumCoverEffort;
  return kLargeCoverEffort;
}

namespace {
// Alternative primes of c: the greedy raise started from each of the `trials` feasible literals
// whose raise adds the most care minterms.
void alternatives(const Expander& ex, CubeWord c, int n, int trials, const std::array<uint64_t, kMaxInputs>& freq,
                  Cover& out) {
  std::vector<std::pair<uint64_t, int>> cand;
  for (int i = 0; i < n; ++i) {
    if (((c >> pair_shift(i)) & 3) == 3) continue;
    const CubeWord pm = pair_mask(i);
    const CubeWord half = (c & ~pm) | (~c & pm);
    if (ex.blocked(half)) continue;
    cand.push_back({ex.gain(half).second, i});
  }
  std::sort(cand.begin(), cand.end(),
            [](auto a, auto b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  for (int t = 0; t < trials && t < int(cand.size()); ++t) out.push_back(ex.expand_one(c, freq, cand[t].second));
}
}  // namespace

void expand(Cover& cover, const CareFunction& f, Output o, const Progress& progress, Effort effort,
            FunctionScope scope) {
  std::sort(cover.begin(), cover.end());
  cover.erase(std::unique(cover.begin(), cover.end()), cover.end());
  expand_with(cover, f, o, expand_effort(cover.size(), effort, scope), progress);
}

void expand_with(Cover& cover, const CareFunction& f, Output o, const ExpandEffort& effort, const Progress& progress) {
  const int n = f.inputs();
  std::array<uint64_t, kMaxInputs> freq{};  // how often each input is free in the cover
  for (CubeWord c : cover)
    for (int i = 0; i < n; ++i)
      if (((c >> pair_shift(i)) & 3) == 3) ++freq[i];

  // Largest cubes first: they are the likeliest to swallow the rest.
  std::sort(cover.begin(), cover.end(), [](CubeWord a, CubeWord b) {
    int la = literals(a), lb = literals(b);
    return la != lb ? la < lb : a < b;
  });
  cover.erase(std::unique(cover.begin(), cover.end()), cover.end());
  const size_t input_size = cover.size();
  const int stages = effort.orders + effort.gasp_rounds;
  Cover out;
  Cover greedy;  // the greedy cover of the first order
  for (int pass = 0; pass < effort.orders; ++pass) {
    if (pass == 1) std::reverse(cover.begin(), cover.end());  // smallest first
    if (pass >= 2) {
      std::mt19937_64 rng{uint64_t(pass)};
      std::shuffle(cover.begin(), cover.end(), rng);
    }
    Expander ex(f, o);
    const size_t total = cover.size();
    for (size_t j = 0; j < total; ++j) {
      if (progress.cancelled()) {
        out.insert(out.end(), cover.begin() + long(j), cover.end());
        cover = std::move(out);
        return;
      }
      if (j % kReportEvery == 0)
        progress.report(Stage::Pass, (double(pass) + double(j) / double(total)) / stages, "expand");
      CubeWord c = cover[j];
      if (!ex.has_uncovered(c)) continue;
      CubeWord p = ex.expand_one(c, freq);
      ex.mark(p);
      out.push_back(p);
      if (pass == 0) greedy.push_back(p);
      if (effort.trials > 0) alternatives(ex, c, n, effort.trials, freq, out);
    }
  }
  // LAST_GASP-style generation: reduce each cube of a cover to the supercube of the care minterms
  // only it covers, and raise that toward the care minterms the other cubes alone cover: a prime
  // holding two cubes' unique parts lets irredundant replace both by one.
  Cover g = greedy;
  size_t best = SIZE_MAX;  // the smallest intermediate cover so far
  int stale = 0;
  for (int round = 0; round < effort.gasp_rounds; ++round) {
    if (progress.cancelled()) break;
    progress.report(Stage::Pass, double(effort.orders + round) / stages, "expand");
    if (round > 0) {
      irredundant_with(g, Cover{}, f, o, CoverSearch::Quick);
      // Stop when two rounds in a row found no smaller cover.
      if (g.size() < best) {
        best = g.size();
        stale = 0;
      } else if (++stale >= kStaleRoundsToStop) {
        break;
      }
    }
    OnceCoverage cov(f, o);
    for (CubeWord c : g) cov.add(c);
    const BitTree& on = f.on(o);
    std::vector<uint64_t> others(on.words().size(), 0);  // ~(care minterms covered exactly once)
    Cover seeds;
    for (CubeWord c : g) {
      for_each_word_in(on, c, [&](uint64_t w, uint64_t bits) { others[w] |= cov.exactly_one(w, bits); });
      CubeWord r = cov.unique_supercube(c);
      if (r) seeds.push_back(with_output(r, o));
    }
    for (auto& w : others) w = ~w;
    Expander ex(f, o);
    ex.set_covered(std::move(others));
    Cover fresh;
    for (CubeWord r : seeds) {
      fresh.push_back(ex.expand_one(r, freq));
      if (effort.gasp_alt) fresh.push_back(ex.expand_one(r, freq, -1, Expander::Rank::AllCoverage));
    }
    out.insert(out.end(), fresh.begin(), fresh.end());
    if (effort.gasp_full) {
      g = out;
      std::sort(g.begin(), g.end());
      g.erase(std::unique(g.begin(), g.end()), g.end());
    } else {
      g.insert(g.end(), fresh.begin(), fresh.end());
    }
  }
  // Never more cubes than came in: on a cover that was nearly prime already, keep the first
  // greedy cover and as many of the other primes as fit, the latest (LAST_GASP rounds) first.
  if (out.size() > input_size) {
    std::sort(greedy.begin(), greedy.end());
    Cover capped = greedy;
    for (auto it = out.rbegin(); it != out.rend(); ++it) {
      const CubeWord c = *it;
      if (capped.size() >= input_size) break;
      if (!std::binary_search(greedy.begin(), greedy.end(), c)) capped.push_back(c);
    }
    out = std::move(capped);
  }
  // Every cube of `out` is a prime of the same function (expand_one raises until each literal
  // left is blocked, and blocking only grows with the cube), and no prime contains another: only
  // repeats go. (A pairwise containment sweep here found nothing, at a quadratic cost:
  // docs/measured.md.)
  std::sort(out.begin(), out.end(), [](CubeWord a, CubeWord b) {
    int la = literals(a), lb = literals(b);
    return la != lb ? la < lb : a < b;
  });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  cover = std::move(out);
}

}  // namespace egtmin::logic
