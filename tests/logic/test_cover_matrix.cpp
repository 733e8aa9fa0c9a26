// SPDX-License-Identifier: GPL-3.0-or-later
// The covering matrix of irredundant: merging its equal rows with and without the rows' lists, and
// the per-row counts of a cover, against plain sets.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "logic/cover_matrix.hpp"

namespace egtmin::logic {
namespace {

// A random matrix whose rows are drawn from a few column sets, so many rows are equal.
CoverMatrix random_matrix(std::mt19937_64& rng, uint32_t rows, uint32_t cols) {
  std::vector<std::vector<uint32_t>> sets(rows / 3 + 1);
  for (auto& s : sets) {
    for (uint32_t j = 0; j < cols; ++j)
      if (rng() % 5 == 0) s.push_back(j);
    if (s.empty()) s.push_back(uint32_t(rng() % cols));
  }
  std::vector<std::vector<uint32_t>> col(cols);
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t j : sets[rng() % sets.size()]) col[j].push_back(r);
  CoverMatrix m;
  m.rows = rows;
  m.cols = cols;
  m.col_start = {0};
  for (auto& c : col) {
    m.col_rows.insert(m.col_rows.end(), c.begin(), c.end());
    m.col_start.push_back(uint32_t(m.col_rows.size()));
  }
  return m;
}

// Each row's column set, read from the columns.
std::vector<std::set<uint32_t>> rows_of(const CoverMatrix& m) {
  std::vector<std::set<uint32_t>> rows(m.rows);
  for (uint32_t j = 0; j < m.cols; ++j)
    for (uint32_t k = m.col_start[j]; k < m.col_start[j + 1]; ++k) rows[m.col_rows[k]].insert(j);
  return rows;
}

TEST(LogicCoverMatrix, MergingEqualRowsKeepsOneOfEachWithOrWithoutRowLists) {
  std::mt19937_64 rng(2024);
  for (int trial = 0; trial < 30; ++trial) {
    const CoverMatrix original = random_matrix(rng, 20 + uint32_t(rng() % 300), 3 + uint32_t(rng() % 40));
    const auto before = rows_of(original);
    const std::set<std::set<uint32_t>> distinct(before.begin(), before.end());
    CoverMatrix kept = original, dropped = original;
    merge_equal_rows(kept, RowLists::Keep);
    merge_equal_rows(dropped, RowLists::Drop);
    // The same merged columns either way, one row for each distinct set.
    EXPECT_EQ(kept.col_start, dropped.col_start) << "trial " << trial;
    EXPECT_EQ(kept.col_rows, dropped.col_rows) << "trial " << trial;
    ASSERT_EQ(dropped.rows, distinct.size()) << "trial " << trial;
    const auto after = rows_of(dropped);
    EXPECT_EQ(std::set<std::set<uint32_t>>(after.begin(), after.end()), distinct) << "trial " << trial;
    // Degrees and lone columns without the lists; the lists themselves with them.
    ASSERT_TRUE(dropped.row_cols.empty());
    for (uint32_t r = 0; r < dropped.rows; ++r) {
      ASSERT_EQ(dropped.degree(r), after[r].size()) << "trial " << trial << " row " << r;
      ASSERT_EQ(kept.degree(r), after[r].size()) << "trial " << trial << " row " << r;
      EXPECT_TRUE(std::equal(after[r].begin(), after[r].end(), kept.row_cols.begin() + kept.row_start[r]));
      if (after[r].size() == 1) {
        EXPECT_EQ(dropped.only_column(r), *after[r].begin()) << "trial " << trial << " row " << r;
        EXPECT_EQ(kept.only_column(r), *after[r].begin()) << "trial " << trial << " row " << r;
      }
    }
  }
}

TEST(LogicCoverMatrix, MergingKeepsRowNumbersWhenNoRowsAreEqual) {
  CoverMatrix m;
  m.rows = 3;
  m.cols = 2;
  m.col_start = {0, 2, 4};
  m.col_rows = {0, 1, 1, 2};  // rows {0}, {0, 1}, {1}
  const CoverMatrix original = m;
  merge_equal_rows(m, RowLists::Drop);
  EXPECT_EQ(m.col_rows, original.col_rows);
  EXPECT_EQ(m.only_column(0), 0u);
  EXPECT_EQ(m.degree(1), 2u);
  EXPECT_EQ(m.only_column(2), 1u);
}

TEST(LogicCoverMatrix, RowCountsFollowAddsAndRemovesAndNameTheSoleColumn) {
  std::mt19937_64 rng(7);
  const uint32_t rows = 300, cols = 50;
  RowCounts counts(rows);
  std::vector<std::multiset<uint32_t>> held(rows);  // the columns covering each row
  for (int step = 0; step < 20000; ++step) {
    const uint32_t r = uint32_t(rng() % rows);
    if (!held[r].empty() && rng() % 2 == 0) {
      auto it = std::next(held[r].begin(), long(rng() % held[r].size()));
      counts.remove(r, *it);
      held[r].erase(it);
    } else {
      const uint32_t j = uint32_t(rng() % cols);
      counts.add(r, j);
      held[r].insert(j);
    }
    ASSERT_EQ(counts[r], held[r].size()) << "step " << step;
    ASSERT_EQ(counts.covered(r), !held[r].empty()) << "step " << step;
    ASSERT_EQ(counts.once(r), held[r].size() == 1) << "step " << step;
    if (held[r].size() == 1) {
      ASSERT_EQ(counts.sole_column(r), *held[r].begin()) << "step " << step;
    }
  }
}

}  // namespace
}  // namespace egtmin::logic
