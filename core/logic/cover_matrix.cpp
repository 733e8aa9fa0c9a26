// SPDX-License-Identifier: GPL-3.0-or-later
#include "logic/cover_matrix.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <utility>

namespace egtmin::logic {

namespace {

// 2^64 / golden ratio: the usual odd constant of multiplicative hashing and boost's
// hash_combine, which spreads the row hashes of merge_equal_rows over all 64 bits.
constexpr uint64_t kHashSeed = 0x9e3779b97f4a7c15ull;

}  // namespace

void CoverMatrix::transpose() {
  row_start.assign(rows + 1, 0);
  for (uint32_t r : col_rows) ++row_start[r + 1];
  for (uint32_t r = 0; r < rows; ++r) row_start[r + 1] += row_start[r];
  row_cols.resize(col_rows.size());
  std::vector<uint32_t> at(row_start.begin(), row_start.end() - 1);
  const size_t entries = col_rows.size();
  for (uint32_t j = 0; j < cols; ++j)
    for (uint32_t k = col_start[j]; k < col_start[j + 1]; ++k) {
      prefetch_ahead(at.data(), col_rows.data(), k, entries);  // a row's cursor: a cache miss each
      row_cols[at[col_rows[k]]++] = j;
    }
  std::vector<uint32_t>().swap(row_xor);
}

void merge_equal_rows(CoverMatrix& m, RowLists lists) {
  std::vector<uint32_t> degree(m.rows, 0);
  for (uint32_t r : m.col_rows) ++degree[r];
  struct RowSum {
    uint64_t hash;
    uint32_t xor_cols;
  };
  std::vector<RowSum> sum(m.rows);
  for (uint32_t r = 0; r < m.rows; ++r) sum[r] = {kHashSeed ^ degree[r], 0};
  const size_t entries = m.col_rows.size();
  for (uint32_t j = 0; j < m.cols; ++j)
    for (uint32_t k = m.col_start[j]; k < m.col_start[j + 1]; ++k) {
      prefetch_ahead(sum.data(), m.col_rows.data(), k, entries);  // a row's sums: a cache miss each
      RowSum& s = sum[m.col_rows[k]];
      s.hash ^= j + kHashSeed + (s.hash << 6) + (s.hash >> 2);  // boost::hash_combine
      s.xor_cols ^= j;
    }
  // Each row's hash beside its number, sorted (hash, then row): the sort reads no other array.
  std::vector<std::pair<uint64_t, uint32_t>> order(m.rows);
  for (uint32_t r = 0; r < m.rows; ++r) order[r] = {sum[r].hash, r};
  std::sort(order.begin(), order.end());

  // The column lists of the rows whose hash another row has: numbered in `order`, flagged in a
  // bit set that the pass over the columns reads from the caches.
  std::vector<uint64_t> shared_bits((size_t(m.rows) + 63) / 64, 0);
  std::vector<uint32_t> slot(m.rows, UINT32_MAX), shared_start{0};
  for (size_t i = 0; i < order.size(); ++i) {
    const bool shared = (i > 0 && order[i - 1].first == order[i].first) ||
                        (i + 1 < order.size() && order[i + 1].first == order[i].first);
    if (!shared) continue;
    const uint32_t r = order[i].second;
    shared_bits[r >> 6] |= uint64_t{1} << (r & 63);
    slot[r] = uint32_t(shared_start.size() - 1);
    shared_start.push_back(shared_start.back() + degree[r]);
  }
  std::vector<uint32_t> shared_cols(shared_start.back());
  {
    std::vector<uint32_t> at(shared_start.begin(), shared_start.end() - 1);
    for (uint32_t j = 0; j < m.cols; ++j)
      for (uint32_t k = m.col_start[j]; k < m.col_start[j + 1]; ++k) {
        const uint32_t r = m.col_rows[k];
        if ((shared_bits[r >> 6] >> (r & 63)) & 1) shared_cols[at[slot[r]]++] = j;
      }
  }
  auto same = [&](uint32_t a, uint32_t b) {
    const uint32_t sa = slot[a], sb = slot[b];
    return degree[a] == degree[b] && std::memcmp(&shared_cols[shared_start[sa]], &shared_cols[shared_start[sb]],
                                                 degree[a] * sizeof(uint32_t)) == 0;
  };
  std::vector<uint32_t> keep_as(m.rows, UINT32_MAX);
  uint32_t kept = 0;
  std::vector<uint32_t> reps;
  for (size_t i = 0; i < order.size();) {
    size_t e = i;
    while (e < order.size() && order[e].first == order[i].first) ++e;
    // Within a hash bucket, compare against the representatives found so far.
    reps.clear();
    for (size_t t = i; t < e; ++t) {
      uint32_t r = order[t].second;
      bool dup = false;
      for (uint32_t q : reps)
        if (same(q, r)) {
          dup = true;
          break;
        }
      if (!dup) {
        reps.push_back(r);
        keep_as[r] = kept++;
      }
    }
    i = e;
  }
  std::vector<uint32_t>().swap(shared_cols);
  std::vector<uint32_t>().swap(slot);

  if (kept == m.rows) {
    std::iota(keep_as.begin(), keep_as.end(), 0u);  // nothing merged: the rows keep their numbers
  } else {
    std::vector<uint32_t> start(m.cols + 1, 0), rows;
    rows.reserve(m.col_rows.size());
    for (uint32_t j = 0; j < m.cols; ++j) {
      for (uint32_t k = m.col_start[j]; k < m.col_start[j + 1]; ++k)
        if (keep_as[m.col_rows[k]] != UINT32_MAX) rows.push_back(keep_as[m.col_rows[k]]);
      start[j + 1] = uint32_t(rows.size());
    }
    m.col_start = std::move(start);
    m.col_rows = std::move(rows);
  }
  if (lists == RowLists::Keep) {
    m.rows = kept;
    m.transpose();
    return;
  }
  m.row_start.assign(size_t(kept) + 1, 0);
  m.row_xor.assign(kept, 0);
  for (uint32_t r = 0; r < m.rows; ++r)
    if (keep_as[r] != UINT32_MAX) {
      m.row_start[keep_as[r] + 1] = degree[r];
      m.row_xor[keep_as[r]] = sum[r].xor_cols;
    }
  for (uint32_t r = 0; r < kept; ++r) m.row_start[r + 1] += m.row_start[r];
  m.rows = kept;
  m.row_cols.clear();
}

}  // namespace egtmin::logic
