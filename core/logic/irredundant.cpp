// SPDX-License-Identifier: GPL-3.0-or-later
// Irredundant as a minimum-cover problem (ESPRESSO's IRREDUNDANT_COVER), on the explicit care
// minterms of one output:
//   1. coverage counts of every care minterm (fixed cubes included);
//   2. E = the relatively essential cubes (some care minterm only they cover) are kept;
//   3. of the rest, a cube whose care minterms E and the fixed cubes already cover is totally
//      redundant and dropped; the others (partially redundant) are the columns of a covering
//      problem whose rows are the care minterms nothing kept covers yet;
//   4. that problem is solved by a weighted greedy cover, then improved by local search: drop
//      chosen columns that became redundant, and swap in one column wherever it alone replaces
//      two or more chosen ones (their uniquely covered rows all lie inside it); on problems
//      with few matrix entries, several jittered greedy starts and an iterated greedy (drop a
//      random 5-20 % of the best cover, complete it again, keep it when no larger);
//   5. then (irredundant_steps swaps, more at high effort) the matrix is reduced by row and
//      column dominance and the cover improved by a row-weighting local search (rwls below),
//      which is what closes most of the gap to Berkeley espresso's cover on 4-piece balances.
// Rows with the same set of columns are one row: a cover problem has far fewer distinct rows
// than care minterms.
#include <algorithm>
#include <bit>
#include <numeric>
#include <queue>
#include <random>
#include <tuple>

#include "logic/cover_matrix.hpp"
#include "logic/coverage.hpp"
#include "logic/irredundant.hpp"
#include "logic/passes.hpp"

namespace egtmin::logic {

namespace {

// Tuning. The budgets are in matrix entries (the work of one greedy start is proportional to
// them), so small problems get many starts and 2-4 piece covers' large matrices few.

// 2^32 / golden ratio: the multiplier of sig_bit's Fibonacci hashing of a row or column index.
constexpr uint32_t kSigMultiplier = 0x9e3779b1u;
// Greedy restarts (start > 0) scale each row weight by a random factor in [0.85, 1.15]: enough to
// reorder near-ties between columns, small enough to keep the Chvatal weights' ranking.
constexpr double kJitterLow = 0.85;
constexpr double kJitterHigh = 1.15;
// Rounds of drop-redundant / swap-in local search after a greedy start: a thorough search runs
// until a round finds nothing, which takes only a few rounds, 16 bounds it; a quick one (expand's
// intermediate covers, rebuilt every round anyway) takes the first two rounds' gains only.
constexpr int kThoroughSwapRounds = 16;
constexpr int kQuickSwapRounds = 2;
// Thorough search: total entries the jittered greedy starts may visit, and their number at most.
// Each start is one pass over the matrix, so this bounds their cost to a few million entry visits.
constexpr uint64_t kStartsEntryBudget = 4000000;
constexpr uint64_t kMaxStarts = 8;
// Thorough search: the same for the iterated greedy's rounds, ten times the starts' budget (a
// round rebuilds only the dropped part of the cover, and it is what improves small covers most).
constexpr uint64_t kIteratedEntryBudget = 40000000;
constexpr uint64_t kMaxIteratedRounds = 300;
// Each iterated-greedy round drops a random share of the best cover, uniform in
// [kDropMin, kDropMin + kDropSpread] (5-20 %): enough to leave the greedy a real choice, little
// enough that the rest of the cover still guides it.
constexpr double kDropMin = 0.05;
constexpr double kDropSpread = 0.15;
// Fixed seeds: the same input gives the same cover on every run and machine.
constexpr uint64_t kIteratedGreedySeed = 12345;
constexpr uint64_t kRwlsSeed = 777;
// Rounds of row and column dominance before the local search: each round can expose new
// dominance, but after three little is left and every round copies the matrix.
constexpr int kDominanceRounds = 3;
// RWLS swaps per cube of the cover (irredundant_steps): the local search costs about one column's
// rows per swap, so this keeps it proportional to the matrix. Normal: 10, a small gain in cubes
// for a small share of the pass's time; high: 30, after which further swaps gain little
// (docs/bench-logic.md, effort levels). Normal effort runs none on the parts of a split function
// (FunctionScope::Part): there it cost far more than a small share (docs/measured.md).
constexpr uint64_t kStepsPerCubeNormal = 10;
constexpr uint64_t kStepsPerCubeHigh = 30;

// One start of the heuristic: greedy on row weights (start 0: 1/columns covering the row, the
// others jittered), then local search. Returns the chosen columns as flags.
std::vector<char> solve_once(const CoverMatrix& m, const std::vector<double>& col_tiebreak, int start,
                             const std::vector<char>& keep = {}, int ls_rounds = kThoroughSwapRounds) {
  // Chvatal-style weights: a row few columns cover counts more.
  std::vector<double> weight(m.rows);
  std::mt19937_64 rng{uint64_t(start)};
  std::uniform_real_distribution<double> jitter(kJitterLow, kJitterHigh);
  for (uint32_t r = 0; r < m.rows; ++r) {
    weight[r] = 1.0 / double(std::max<uint32_t>(1, m.degree(r)));
    if (start > 0) weight[r] *= jitter(rng);
  }
  RowCounts count(m.rows);  // chosen columns covering each row
  std::vector<char> chosen(m.cols, 0);
  std::vector<uint32_t> picks;
  for (uint32_t j = 0; j < uint32_t(keep.size()); ++j)
    if (keep[j]) {
      chosen[j] = 1;
      picks.push_back(j);
    }

  // Rows with a single column force it.
  for (uint32_t r = 0; r < m.rows; ++r)
    if (m.degree(r) == 1) {
      uint32_t j = m.only_column(r);
      if (!chosen[j]) {
        chosen[j] = 1;
        picks.push_back(j);
      }
    }
  for (uint32_t j : picks)
    for (uint32_t k = m.col_start[j]; k < m.col_start[j + 1]; ++k) count.add(m.col_rows[k], j);

  // Lazy greedy on the weight of the uncovered rows a column covers (gains only fall).
  auto gain = [&](uint32_t j) {
    double g = 0;
    for (uint32_t k = m.col_start[j]; k < m.col_start[j + 1]; ++k)
      if (!count.covered(m.col_rows[k])) g += weight[m.col_rows[k]];
    return g;
  };
  using Entry = std::pair<double, uint32_t>;
  auto less = [&](const Entry& a, const Entry& b) {
    if (a.first != b.first) return a.first < b.first;
    double ta = col_tiebreak.empty() ? 0 : col_tiebreak[a.second],
           tb = col_tiebreak.empty() ? 0 : col_tiebreak[b.second];
    if (ta != tb) return ta < tb;
    return a.second > b.second;
  };
  std::priority_queue<Entry, std::vector<Entry>, decltype(less)> heap(less);
  for (uint32_t j = 0; j < m.cols; ++j)
    if (!chosen[j]) {
      double g = gain(j);
      if (g > 0) heap.push({g, j});
    }
  constexpr double kEps = 1e-12;
  while (!heap.empty()) {
    auto [g, j] = heap.top();
    heap.pop();
    double now = gain(j);
    if (now <= kEps) continue;
    if (!heap.empty() && now + kEps < heap.top().first) {
      heap.push({now, j});
      continue;
    }
    chosen[j] = 1;
    picks.push_back(j);
    for (uint32_t k = m.col_start[j]; k < m.col_start[j + 1]; ++k) count.add(m.col_rows[k], j);
  }

  // Local search. unique_of[r]: the chosen column covering row r when count[r] == 1.
  auto col_rows_of = [&](uint32_t j) {
    return std::pair<const uint32_t*, const uint32_t*>(&m.col_rows[m.col_start[j]], &m.col_rows[m.col_start[j + 1]]);
  };
  auto drop_redundant = [&]() {
    // Smallest chosen columns (fewest rows) first: they are the likeliest to be redundant.
    std::vector<uint32_t> order;
    for (uint32_t j = 0; j < m.cols; ++j)
      if (chosen[j]) order.push_back(j);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      uint32_t la = m.col_start[a + 1] - m.col_start[a], lb = m.col_start[b + 1] - m.col_start[b];
      return la != lb ? la < lb : a < b;
    });
    bool any = false;
    for (uint32_t j : order) {
      auto [b, e] = col_rows_of(j);
      bool needed = false;
      for (const uint32_t* p = b; p != e; ++p)
        if (count.once(*p)) {
          needed = true;
          break;
        }
      if (needed) continue;
      chosen[j] = 0;
      any = true;
      for (const uint32_t* p = b; p != e; ++p) count.remove(*p, j);
    }
    return any;
  };
  drop_redundant();

  std::vector<uint32_t> unique_count(m.cols), tally(m.cols), unique_of(m.rows);
  std::vector<uint32_t> removed;
  std::vector<std::pair<uint32_t, uint32_t>> swapped_rows;  // row, its count before the swap
  std::vector<char> noted(m.rows, 0);
  for (int round = 0; round < ls_rounds; ++round) {
    std::fill(unique_count.begin(), unique_count.end(), 0);
    for (uint32_t j = 0; j < m.cols; ++j) {
      if (!chosen[j]) continue;
      auto [b, e] = col_rows_of(j);
      for (const uint32_t* p = b; p != e; ++p)
        if (count.once(*p)) {
          unique_of[*p] = j;
          ++unique_count[j];
        }
    }
    bool improved = false;
    std::vector<uint32_t> touched;
    for (uint32_t u = 0; u < m.cols; ++u) {
      if (chosen[u]) continue;
      auto [b, e] = col_rows_of(u);
      touched.clear();
      for (const uint32_t* p = b; p != e; ++p)
        if (count.once(*p)) {
          uint32_t s = unique_of[*p];
          if (!chosen[s]) continue;  // replaced earlier in this round; counts are current
          if (tally[s]++ == 0) touched.push_back(s);
        }
      // The chosen columns whose uniquely covered rows all lie in u: u may replace them when they
      // are two or more. Not always all of them: a row that two of them cover and u does not is
      // unique to neither, yet dropping both would leave it bare. So with u in, each is dropped
      // only while it is redundant (the first always is). Two or more dropped make the cover
      // smaller; one is a step sideways, kept, for it opens swaps that were not there.
      removed.clear();
      for (uint32_t s : touched)
        if (tally[s] == unique_count[s]) removed.push_back(s);
      if (removed.size() >= 2) {
        // The rows whose count changes, each once, with its count before the swap.
        swapped_rows.clear();
        auto note = [&](const uint32_t* pb, const uint32_t* pe) {
          for (const uint32_t* p = pb; p != pe; ++p)
            if (!noted[*p]) {
              noted[*p] = 1;
              swapped_rows.push_back({*p, count[*p]});
            }
        };
        note(b, e);
        chosen[u] = 1;
        for (const uint32_t* p = b; p != e; ++p) count.add(*p, u);
        size_t dropped = 0;
        for (uint32_t s : removed) {
          auto [sb, se] = col_rows_of(s);
          if (std::any_of(sb, se, [&](uint32_t r) { return count.once(r); })) continue;
          note(sb, se);
          chosen[s] = 0;
          for (const uint32_t* p = sb; p != se; ++p) count.remove(*p, s);
          ++dropped;
        }
        // The unique bookkeeping follows the rows whose count left or reached 1, rather than
        // recounting every chosen column on a changed row (the same counts, for a row's count
        // is 1 exactly when one chosen column covers it). u was not chosen: it starts from none.
        unique_count[u] = 0;
        for (auto [r, before] : swapped_rows) {
          noted[r] = 0;
          if (before == 1) --unique_count[unique_of[r]];  // a removed column's count no longer matters
          if (!count.once(r)) continue;
          unique_of[r] = count.sole_column(r);
          ++unique_count[unique_of[r]];
        }
        if (dropped >= 2) improved = true;  // one for one is a sideways step, kept: it opens others
      }
      for (uint32_t s : touched) tally[s] = 0;
    }
    if (drop_redundant()) improved = true;
    if (!improved) break;
  }

  // Safety net: every coverable row stays covered (by the first column that has it). The search
  // above keeps them covered, so the rows' bits and degrees are read first, and the columns' lists
  // (the whole matrix) only when a row is bare.
  bool bare = false;
  for (uint32_t r = 0; r < m.rows && !bare; ++r) bare = !count.covered(r) && m.degree(r) > 0;
  for (uint32_t j = 0; bare && j < m.cols; ++j) {
    auto [b, e] = col_rows_of(j);
    if (chosen[j] || std::all_of(b, e, [&](uint32_t r) { return count.covered(r); })) continue;
    chosen[j] = 1;
    for (const uint32_t* p = b; p != e; ++p) count.add(*p, j);
  }
  return chosen;
}

// Reduction of a covering matrix by dominance (as ESPRESSO's and every set-cover solver's
// preprocessing): a row whose columns include all columns of another row is covered whenever
// that one is, so it is dropped; a column whose rows all lie in another column's can be swapped
// for that one in any cover, so it is dropped too (of equal columns, the one the tie-break
// prefers stays). Subset tests run only between rows that share the sparser one's rarest
// column, behind a 64-bit signature filter. Returns the original index of every column kept; the
// matrix keeps only what is left. A cover of the reduced matrix covers the original one.
uint64_t sig_bit(uint32_t x) { return uint64_t{1} << ((x * kSigMultiplier) >> 26); }  // top 6 bits: 0..63

bool sorted_subset(const uint32_t* a, const uint32_t* ae, const uint32_t* b, const uint32_t* be) {
  while (a != ae) {
    while (b != be && *b < *a) ++b;
    if (b == be || *b != *a) return false;
    ++a;
    ++b;
  }
  return true;
}

// Rows of m dominated by another row: drop[r] = 1. A row r is dropped when some row s has all
// its columns in r's (and, of equal rows, the first stays): r is then in the column of s that the
// fewest rows have, its rarest. So the rows are grouped by their rarest column, and each column's
// rows are tested against its whole group in one pass: the signature of each row of the column,
// a read from memory, is read once for the group rather than once for each of its rows. Which rows
// are dropped does not depend on the order of the tests (a row that dominates another dominates
// whatever that one does), so the result is that of testing row by row.
std::vector<char> dominated_rows(const CoverMatrix& m) {
  std::vector<uint64_t> sig(m.rows, 0);
  for (uint32_t r = 0; r < m.rows; ++r)
    for (uint32_t k = m.row_start[r]; k < m.row_start[r + 1]; ++k) sig[r] |= sig_bit(m.row_cols[k]);
  auto degree_of_row = [&](uint32_t r) { return m.row_start[r + 1] - m.row_start[r]; };
  auto degree_of_col = [&](uint32_t c) { return m.col_start[c + 1] - m.col_start[c]; };
  // The rows of each column's group, in row order (a counting sort on the rarest column).
  std::vector<uint32_t> rarest(m.rows, UINT32_MAX), group_start(size_t(m.cols) + 1, 0);
  for (uint32_t s = 0; s < m.rows; ++s) {
    if (degree_of_row(s) == 0) continue;
    uint32_t rare = m.row_cols[m.row_start[s]];
    for (uint32_t k = m.row_start[s]; k < m.row_start[s + 1]; ++k)
      if (degree_of_col(m.row_cols[k]) < degree_of_col(rare)) rare = m.row_cols[k];
    rarest[s] = rare;
    ++group_start[rare + 1];
  }
  for (uint32_t c = 0; c < m.cols; ++c) group_start[c + 1] += group_start[c];
  std::vector<uint32_t> group_rows(group_start.back());
  {
    std::vector<uint32_t> at(group_start.begin(), group_start.end() - 1);
    for (uint32_t s = 0; s < m.rows; ++s)
      if (rarest[s] != UINT32_MAX) group_rows[at[rarest[s]]++] = s;
  }
  std::vector<uint32_t>().swap(rarest);

  std::vector<char> drop(m.rows, 0);
  std::vector<uint32_t> group;      // the column's group, rows already dropped left out
  std::vector<uint64_t> group_sig;  // and their signatures, side by side
  for (uint32_t c = 0; c < m.cols; ++c) {
    group.clear();
    group_sig.clear();
    for (uint32_t g = group_start[c]; g < group_start[c + 1]; ++g)
      if (!drop[group_rows[g]]) {  // a dropped row's dominator dominates whatever it does
        group.push_back(group_rows[g]);
        group_sig.push_back(sig[group_rows[g]]);
      }
    if (group.empty()) continue;
    const uint32_t end = m.col_start[c + 1];
    for (uint32_t k = m.col_start[c]; k < end; ++k) {
      prefetch_ahead(sig.data(), m.col_rows.data(), k, end);  // each signature is a cache miss
      const uint32_t r = m.col_rows[k];
      const uint64_t sig_r = sig[r];
      for (size_t i = 0; i < group.size(); ++i) {
        if (group_sig[i] & ~sig_r) continue;
        const uint32_t s = group[i];
        if (r == s) continue;
        if (drop[r]) break;
        const uint32_t ds = degree_of_row(s), dr = degree_of_row(r);
        if (dr < ds || (dr == ds && r < s)) continue;  // equal sets: the first stays
        if (sorted_subset(&m.row_cols[m.row_start[s]], &m.row_cols[m.row_start[s + 1]], &m.row_cols[m.row_start[r]],
                          &m.row_cols[m.row_start[r + 1]])) {
          drop[r] = 1;
          break;
        }
      }
    }
  }
  return drop;
}

// Columns of m whose rows lie in another column's: drop[j] = 1.
std::vector<char> dominated_cols(const CoverMatrix& m, const std::vector<double>& tiebreak) {
  std::vector<uint64_t> sig(m.cols, 0);
  for (uint32_t j = 0; j < m.cols; ++j)
    for (uint32_t k = m.col_start[j]; k < m.col_start[j + 1]; ++k) sig[j] |= sig_bit(m.col_rows[k]);
  auto prefer = [&](uint32_t a, uint32_t b) {  // keep a rather than b when equal
    double ta = tiebreak.empty() ? 0 : tiebreak[a], tb = tiebreak.empty() ? 0 : tiebreak[b];
    return ta != tb ? ta > tb : a < b;
  };
  std::vector<char> drop(m.cols, 0);
  for (uint32_t j = 0; j < m.cols; ++j) {
    const uint32_t dj = m.col_start[j + 1] - m.col_start[j];
    if (dj == 0) {
      drop[j] = 1;
      continue;
    }
    uint32_t rare = m.col_rows[m.col_start[j]];
    for (uint32_t k = m.col_start[j]; k < m.col_start[j + 1]; ++k) {
      uint32_t r = m.col_rows[k];
      if (m.row_start[r + 1] - m.row_start[r] < m.row_start[rare + 1] - m.row_start[rare]) rare = r;
    }
    const uint32_t end = m.row_start[rare + 1];
    for (uint32_t k = m.row_start[rare]; k < end; ++k) {
      prefetch_ahead(sig.data(), m.row_cols.data(), k, end);
      const uint32_t c = m.row_cols[k];
      if ((sig[j] & ~sig[c]) || c == j || drop[c]) continue;
      const uint32_t dc = m.col_start[c + 1] - m.col_start[c];
      if (dc < dj || (dc == dj && !prefer(c, j))) continue;
      if (sorted_subset(&m.col_rows[m.col_start[j]], &m.col_rows[m.col_start[j + 1]], &m.col_rows[m.col_start[c]],
                        &m.col_rows[m.col_start[c + 1]])) {
        drop[j] = 1;
        break;
      }
    }
  }
  return drop;
}

// Keeps the rows and columns not dropped (renumbered) and rebuilds both directions, each by
// filtering its own lists in place: the renumbering keeps the order, so the lists stay sorted; no
// transpose scatters every entry (a cache miss each on 5-piece matrices), and no second copy of
// the matrix is allocated.
void keep_only(CoverMatrix& m, const std::vector<char>& drop_row, const std::vector<char>& drop_col,
               std::vector<uint32_t>& col_ids, std::vector<double>& tiebreak) {
  std::vector<uint32_t> row_id(m.rows, UINT32_MAX), col_id(m.cols, UINT32_MAX);
  uint32_t rows = 0, cols = 0;
  for (uint32_t r = 0; r < m.rows; ++r)
    if (!drop_row[r]) row_id[r] = rows++;
  for (uint32_t j = 0; j < m.cols; ++j)
    if (!drop_col[j]) col_id[j] = cols++;
  if (rows == m.rows && cols == m.cols) return;
  // Keeps the entries x of each kept list with id[x] kept, renumbered. Written front to back
  // behind the reads (a list never grows), so in place.
  auto filter = [](std::vector<uint32_t>& start, std::vector<uint32_t>& flat, const std::vector<uint32_t>& list_id,
                   const std::vector<uint32_t>& id, uint32_t lists) {
    size_t out = 0, kept = 0;
    for (size_t i = 0; i + 1 < start.size(); ++i) {
      const uint32_t begin = start[i], end = start[i + 1];
      if (list_id[i] == UINT32_MAX) continue;
      start[kept++] = uint32_t(out);
      for (uint32_t k = begin; k < end; ++k)
        if (id[flat[k]] != UINT32_MAX) flat[out++] = id[flat[k]];
    }
    start[kept] = uint32_t(out);
    start.resize(size_t(lists) + 1);
    flat.resize(out);
  };
  filter(m.col_start, m.col_rows, col_id, row_id, cols);
  filter(m.row_start, m.row_cols, row_id, col_id, rows);
  for (uint32_t j = 0; j < m.cols; ++j) {
    if (col_id[j] == UINT32_MAX) continue;
    col_ids[col_id[j]] = col_ids[j];  // col_id[j] <= j: in place
    if (!tiebreak.empty()) tiebreak[col_id[j]] = tiebreak[j];
  }
  col_ids.resize(cols);
  if (!tiebreak.empty()) tiebreak.resize(cols);
  m.rows = rows;
  m.cols = cols;
}

std::vector<uint32_t> reduce_matrix(CoverMatrix& m, std::vector<double>& tiebreak) {
  std::vector<uint32_t> ids(m.cols);
  std::iota(ids.begin(), ids.end(), 0u);
  for (int round = 0; round < kDominanceRounds; ++round) {
    const uint32_t rows = m.rows, cols = m.cols;
    auto dr = dominated_rows(m);
    keep_only(m, dr, std::vector<char>(m.cols, 0), ids, tiebreak);
    auto dc = dominated_cols(m, tiebreak);
    keep_only(m, std::vector<char>(m.rows, 0), dc, ids, tiebreak);
    if (m.rows == rows && m.cols == cols) break;
  }
  return ids;
}

// Larger matrices get no reduction and no rwls: both hold a few copies of the matrix and per-row
// state, too much memory on 5-piece covers; the largest 2-4 piece matrix (KRvKR's draws) stays
// below (docs/measured.md).
constexpr size_t kLocalSearchEntries = size_t{1} << 26;
// rwls picks the column to drop by scanning the whole solution up to this size; above, a scan per
// step would cost more than the swap itself, so it takes the best of kSample random picks.
constexpr size_t kExactPick = 4096;
constexpr uint32_t kSample = 128;
// Every step of rwls raises the weight of each uncovered row and the score of each column on it,
// so a step costs the uncovered rows' entries: on the matrices of a 5-piece part, where many rows
// stay uncovered, a search of irredundant_steps() swaps ran far longer than the rest of the pass.
// The search stops once the weighting has touched this many rows and entries; the largest search
// of the 3-4-piece covers stays under it (docs/measured.md), so their covers are unchanged.
constexpr uint64_t kRwlsVisitBudget = uint64_t{1} << 32;

// Row-weighting local search for unicost set cover (RWLS: Gao, Weise & Li, "An efficient local
// search heuristic with row weighting for the unicost set covering problem", EJOR 2015), started
// from a cover. Each time the solution covers every row it is recorded and its least useful
// column dropped; otherwise one column is swapped out and one in (a column covering a random
// uncovered row), and every uncovered row's weight grows, so rows that stay hard to cover pull
// the search towards them. Scores are weighted: a chosen column's score is minus the weight of
// the rows only it covers, another column's is the weight of the uncovered rows it would cover.
// Configuration checking (a column dropped may come back only after a row it covers changed
// between covered and uncovered; the paper's neighbourhood is every column sharing a row, which
// costs a scan of every row of each column moved) and a
// one-step tabu on the column just added keep it from cycling. `steps` swaps at most; returns
// the smallest cover seen (never larger than the one given).
std::vector<char> rwls(const CoverMatrix& m, std::vector<char> chosen, uint64_t steps, uint64_t seed) {
  const uint32_t rows = m.rows, cols = m.cols;
  std::vector<uint32_t> count(rows, 0), xr(rows, 0);  // chosen columns per row, their ids' XOR
  std::vector<int64_t> w(rows, 1), score(cols, 0);
  std::vector<uint64_t> stamp(cols, 0);
  std::vector<char> canadd(cols, 1);
  std::vector<uint32_t> sol, pos(cols, UINT32_MAX), unc, upos(rows, UINT32_MAX);
  for (uint32_t j = 0; j < cols; ++j)
    if (chosen[j]) {
      pos[j] = uint32_t(sol.size());
      sol.push_back(j);
      for (uint32_t k = m.col_start[j]; k < m.col_start[j + 1]; ++k) {
        ++count[m.col_rows[k]];
        xr[m.col_rows[k]] ^= j;
      }
    }
  for (uint32_t r = 0; r < rows; ++r)
    if (!count[r] && m.row_start[r + 1] > m.row_start[r]) {
      upos[r] = uint32_t(unc.size());
      unc.push_back(r);
    }
  for (uint32_t j = 0; j < cols; ++j)
    for (uint32_t k = m.col_start[j]; k < m.col_start[j + 1]; ++k) {
      uint32_t r = m.col_rows[k];
      if (chosen[j] && count[r] == 1) score[j] -= w[r];
      if (!chosen[j] && count[r] == 0) score[j] += w[r];
    }
  uint64_t step = 0;
  uint64_t visits = 0;  // rows and entries the weighting has touched: the search's main cost
  auto unc_remove = [&](uint32_t r) {
    uint32_t p = upos[r];
    unc[p] = unc.back();
    upos[unc[p]] = p;
    unc.pop_back();
    upos[r] = UINT32_MAX;
  };
  auto add = [&](uint32_t j) {
    chosen[j] = 1;
    pos[j] = uint32_t(sol.size());
    sol.push_back(j);
    int64_t s = 0;
    for (uint32_t k = m.col_start[j]; k < m.col_start[j + 1]; ++k) {
      const uint32_t r = m.col_rows[k];
      const uint32_t before = count[r]++;
      xr[r] ^= j;
      if (before == 0) {  // j alone covers r now: the others no longer gain it
        for (uint32_t q = m.row_start[r]; q < m.row_start[r + 1]; ++q)
          if (m.row_cols[q] != j) {
            score[m.row_cols[q]] -= w[r];
            canadd[m.row_cols[q]] = 1;
          }
        unc_remove(r);
        s -= w[r];
      } else if (before == 1) {  // r's former sole column no longer loses it when dropped
        score[xr[r] ^ j] += w[r];
      }
    }
    score[j] = s;
    stamp[j] = step;
  };
  auto remove = [&](uint32_t j) {
    chosen[j] = 0;
    const uint32_t p = pos[j];
    sol[p] = sol.back();
    pos[sol[p]] = p;
    sol.pop_back();
    pos[j] = UINT32_MAX;
    int64_t s = 0;
    for (uint32_t k = m.col_start[j]; k < m.col_start[j + 1]; ++k) {
      const uint32_t r = m.col_rows[k];
      const uint32_t after = --count[r];
      xr[r] ^= j;
      if (after == 0) {
        for (uint32_t q = m.row_start[r]; q < m.row_start[r + 1]; ++q)
          if (m.row_cols[q] != j) {
            score[m.row_cols[q]] += w[r];
            canadd[m.row_cols[q]] = 1;
          }
        upos[r] = uint32_t(unc.size());
        unc.push_back(r);
        s += w[r];
      } else if (after == 1) {
        score[xr[r]] -= w[r];
      }
    }
    canadd[j] = 0;
    score[j] = s;
    stamp[j] = step;
  };
  // The chosen column whose removal loses the least weight (ties: the longest unchanged); on big
  // solutions the best of a random sample.
  std::mt19937_64 rng{seed};
  auto worst_chosen = [&](uint32_t tabu) {
    uint32_t best = UINT32_MAX;
    auto better = [&](uint32_t j) {
      return best == UINT32_MAX || score[j] > score[best] || (score[j] == score[best] && stamp[j] < stamp[best]);
    };
    if (sol.size() <= kExactPick) {
      for (uint32_t j : sol)
        if (j != tabu && better(j)) best = j;
    } else {
      for (uint32_t t = 0; t < kSample; ++t) {
        uint32_t j = sol[rng() % sol.size()];
        if (j != tabu && better(j)) best = j;
      }
    }
    return best;
  };
  std::vector<char> best = chosen;
  size_t best_k = sol.size();
  uint32_t tabu = UINT32_MAX;
  for (step = 1; step <= steps; ++step) {
    while (unc.empty() && !sol.empty()) {
      if (sol.size() < best_k) {
        best_k = sol.size();
        best = chosen;
      }
      remove(worst_chosen(UINT32_MAX));
    }
    if (sol.size() < 2) break;
    uint32_t out = worst_chosen(tabu);
    if (out == UINT32_MAX) break;
    remove(out);
    const uint32_t r = unc[rng() % unc.size()];
    uint32_t in = UINT32_MAX;
    for (uint32_t q = m.row_start[r]; q < m.row_start[r + 1]; ++q) {
      const uint32_t j = m.row_cols[q];
      if (in == UINT32_MAX) {
        in = j;
        continue;
      }
      const bool a = canadd[j], b = canadd[in];
      if (a != b ? a : (score[j] != score[in] ? score[j] > score[in] : stamp[j] < stamp[in])) in = j;
    }
    add(in);
    tabu = in;
    for (uint32_t u : unc) {
      visits += 1 + m.row_start[u + 1] - m.row_start[u];
      ++w[u];
      for (uint32_t q = m.row_start[u]; q < m.row_start[u + 1]; ++q) ++score[m.row_cols[q]];
    }
    if (visits > kRwlsVisitBudget) break;
  }
  if (unc.empty() && sol.size() < best_k) best = chosen;
  return best;
}

}  // namespace

std::vector<uint32_t> solve_cover(uint32_t rows, uint32_t cols, std::vector<uint32_t> col_start,
                                  std::vector<uint32_t> col_rows, const std::vector<double>& col_tiebreak,
                                  CoverSearch search, uint64_t local_steps) {
  const bool thorough = search == CoverSearch::Thorough;
  CoverMatrix m;
  m.rows = rows;
  m.cols = cols;
  m.col_start = std::move(col_start);
  m.col_rows = std::move(col_rows);
  merge_equal_rows(m, local_steps > 0 ? RowLists::Keep : RowLists::Drop);
  if (m.col_rows.size() > kLocalSearchEntries) local_steps = 0;
  std::vector<double> tiebreak = col_tiebreak;
  std::vector<uint32_t> ids;  // original column of each column of m, when reduced
  if (local_steps > 0) ids = reduce_matrix(m, tiebreak);

  // Several starts on small problems (the work is proportional to the matrix's entries).
  const uint64_t entries = m.col_rows.size() + 1;
  const int starts = thorough ? int(std::clamp<uint64_t>(kStartsEntryBudget / entries, 1, kMaxStarts)) : 1;
  std::vector<char> chosen;
  size_t best = SIZE_MAX;
  for (int start = 0; start < starts; ++start) {
    auto pick = solve_once(m, tiebreak, start, {}, thorough ? kThoroughSwapRounds : kQuickSwapRounds);
    size_t k = size_t(std::count(pick.begin(), pick.end(), char(1)));
    if (k < best) {
      best = k;
      chosen = std::move(pick);
    }
  }
  // Iterated greedy: drop a random part of the best cover, complete it again, keep the result
  // when it is no larger.
  const int rounds = thorough ? int(std::clamp<uint64_t>(kIteratedEntryBudget / entries, 0, kMaxIteratedRounds)) : 0;
  std::mt19937_64 rng{kIteratedGreedySeed};
  for (int it = 0; it < rounds; ++it) {
    std::vector<char> keep = chosen;
    std::uniform_real_distribution<double> u(0, 1);
    const double drop = kDropMin + kDropSpread * u(rng);
    for (auto& c : keep)
      if (c && u(rng) < drop) c = 0;
    auto pick = solve_once(m, tiebreak, starts + it, keep);
    size_t k = size_t(std::count(pick.begin(), pick.end(), char(1)));
    if (k <= best) {
      best = k;
      chosen = std::move(pick);
    }
  }
  if (local_steps > 0) chosen = rwls(m, std::move(chosen), local_steps, kRwlsSeed);
  std::vector<uint32_t> out;
  for (uint32_t j = 0; j < m.cols; ++j)
    if (chosen[j]) out.push_back(ids.empty() ? j : ids[j]);
  std::sort(out.begin(), out.end());
  return out;
}

uint64_t irredundant_steps(size_t cubes, Effort effort, FunctionScope scope) {
  if (effort == Effort::High) return kStepsPerCubeHigh * cubes;
  return scope == FunctionScope::Part ? 0 : kStepsPerCubeNormal * cubes;
}

void irredundant(Cover& cover, const Cover& fixed, const CareFunction& f, Output o, Effort effort,
                 FunctionScope scope) {
  irredundant_with(cover, fixed, f, o, CoverSearch::Thorough, irredundant_steps(cover.size(), effort, scope));
}

void irredundant_with(Cover& cover, const Cover& fixed, const CareFunction& f, Output o, CoverSearch search,
                      uint64_t local_steps) {
  std::sort(cover.begin(), cover.end());
  cover.erase(std::unique(cover.begin(), cover.end()), cover.end());
  if (cover.empty()) return;
  const BitTree& on = f.on(o);
  const auto& onw = on.words();
  OnceCoverage cov(f, o);
  for (CubeWord c : fixed) cov.add(c);
  for (CubeWord c : cover) cov.add(c);

  // Relatively essential cubes, and the care minterms they and the fixed cubes cover.
  std::vector<uint64_t> done(onw.size(), 0);
  std::vector<char> essential(cover.size(), 0);
  for (size_t j = 0; j < cover.size(); ++j) {
    bool alone = false;
    for_each_word_in(on, cover[j], [&](uint64_t w, uint64_t bits) {
      if (!alone && cov.exactly_one(w, bits)) alone = true;
    });
    essential[j] = alone;
  }
  auto mark = [&](CubeWord c) { for_each_word_in(on, c, [&](uint64_t w, uint64_t bits) { done[w] |= bits; }); };
  for (CubeWord c : fixed) mark(c);
  for (size_t j = 0; j < cover.size(); ++j)
    if (essential[j]) mark(cover[j]);

  // Open rows: care minterms not yet covered; numbered by a prefix count over words.
  std::vector<uint32_t> row_base(onw.size() + 1, 0);
  for (size_t w = 0; w < onw.size(); ++w) row_base[w + 1] = row_base[w] + uint32_t(std::popcount(onw[w] & ~done[w]));
  const uint32_t rows = row_base[onw.size()];

  Cover kept;
  std::vector<uint32_t> cand;  // partially redundant cubes
  for (size_t j = 0; j < cover.size(); ++j) {
    if (essential[j])
      kept.push_back(cover[j]);
    else
      cand.push_back(uint32_t(j));
  }
  if (rows == 0 || cand.empty()) {
    cover = std::move(kept);
    return;
  }
  std::vector<uint32_t> col_start{0}, col_rows;
  std::vector<uint32_t> cols;  // cover index of each column
  std::vector<double> tiebreak;
  for (uint32_t j : cand) {
    size_t before = col_rows.size();
    for_each_word_in(on, cover[j], [&](uint64_t w, uint64_t bits) {
      uint64_t open = onw[w] & ~done[w];
      for (uint64_t b = bits & open; b; b &= b - 1) {
        int bit = std::countr_zero(b);
        col_rows.push_back(row_base[w] + uint32_t(std::popcount(open & ((uint64_t{1} << bit) - 1))));
      }
    });
    if (col_rows.size() == before) continue;  // totally redundant
    cols.push_back(j);
    col_start.push_back(uint32_t(col_rows.size()));
    tiebreak.push_back(-double(literals(cover[j])));  // prefer bigger cubes
  }
  auto pick = solve_cover(rows, uint32_t(cols.size()), std::move(col_start), std::move(col_rows), tiebreak, search,
                          local_steps);
  for (uint32_t k : pick) kept.push_back(cover[cols[k]]);
  cover = std::move(kept);
}

}  // namespace egtmin::logic
