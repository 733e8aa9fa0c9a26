// SPDX-License-Identifier: GPL-3.0-or-later
// The 0/1 matrix of irredundant's covering problem (logic/irredundant.cpp), the merge of its equal
// rows, and the per-row counts of a cover of it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace egtmin::logic {

// How many entries of a row's or column's list ahead the dominance tests ask for the signature
// they will read there: on 5-piece matrices each is a read from memory, and asked for this far
// ahead they overlap. Far enough to hide one read behind the tests between, near enough to stay
// in the cache. (The greedy's and the local search's scans, prefetched alike, gained nothing:
// docs/measured.md.)
constexpr uint32_t kPrefetchAhead = 64;

// Asks for values[list[k + kPrefetchAhead]] when that entry is still in the list (it ends at `end`).
template <class T>
[[gnu::always_inline]] inline void prefetch_ahead(const T* values, const uint32_t* list, size_t k, size_t end) {
  if (k + kPrefetchAhead < end) __builtin_prefetch(&values[list[k + kPrefetchAhead]]);
}

// Whether a covering matrix keeps each row's list of columns beside each column's list of rows.
// Only the dominance reduction and rwls read the rows' lists. The greedy and its swaps need a
// row's degree and, for a row with one column, that column, which the matrix has without them:
// at five pieces, where neither runs, building the lists (a transpose, a cache miss an entry) was
// most of merging the equal rows.
enum class RowLists { Keep, Drop };

// A 0/1 covering matrix: compressed sparse columns, each row's degree, and its column lists
// (compressed sparse rows) when kept.
struct CoverMatrix {
  uint32_t rows = 0, cols = 0;
  std::vector<uint32_t> col_start, col_rows;  // column j: rows col_rows[col_start[j] .. col_start[j+1])
  std::vector<uint32_t> row_start;            // row r: row_start[r+1] - row_start[r] columns,
  std::vector<uint32_t> row_cols;             // row_cols[row_start[r] ..) with RowLists::Keep,
  std::vector<uint32_t> row_xor;              // else the XOR of its columns' numbers

  uint32_t degree(uint32_t r) const { return row_start[r + 1] - row_start[r]; }
  // The column of a row with a single one.
  uint32_t only_column(uint32_t r) const { return row_cols.empty() ? row_xor[r] : row_cols[row_start[r]]; }

  // Builds the rows' lists from the columns' (and drops row_xor).
  void transpose();
};

// Merges rows with identical column sets (keeps one of each), then gives the matrix its rows'
// lists or their XORs, as asked. Each row's hash is taken from the columns alone: visited in
// column order, a row's columns come in the order its list holds them. Only the rows that share
// their hash with another get lists to compare (at five pieces, about 1 % of them merge).
void merge_equal_rows(CoverMatrix& m, RowLists lists);

// How many chosen columns cover each row and the XOR of their numbers (so the one column of a
// row covered once), with the two facts the greedy's and the local search's scans ask of every
// entry (is the row covered; by exactly one column) kept as bits beside them. Why: at five pieces
// a part's matrix has millions of rows, so the counts (8 bytes a row) are read from memory at
// each entry, while the bits (1/32 of the bytes) stay in the caches; only the updates, far fewer
// than the scans, touch the counts.
class RowCounts {
 public:
  explicit RowCounts(uint32_t rows) : n_(rows), covered_(words(rows), 0), once_(words(rows), 0) {}
  uint32_t operator[](uint32_t r) const { return n_[r].count; }
  bool covered(uint32_t r) const { return (covered_[r >> 6] >> (r & 63)) & 1; }
  bool once(uint32_t r) const { return (once_[r >> 6] >> (r & 63)) & 1; }
  // The chosen column covering r, when once(r).
  uint32_t sole_column(uint32_t r) const { return n_[r].xor_cols; }
  void add(uint32_t r, uint32_t column) {
    const uint32_t now = ++n_[r].count;
    n_[r].xor_cols ^= column;
    if (now <= 2) {  // 0 -> 1: covered, once; 1 -> 2: no longer once
      covered_[r >> 6] |= bit(r);
      once_[r >> 6] ^= bit(r);
    }
  }
  void remove(uint32_t r, uint32_t column) {
    const uint32_t now = --n_[r].count;
    n_[r].xor_cols ^= column;
    if (now == 0) covered_[r >> 6] &= ~bit(r);
    if (now <= 1) once_[r >> 6] ^= bit(r);  // 2 -> 1: once; 1 -> 0: no longer
  }

 private:
  struct Slot {
    uint32_t count = 0, xor_cols = 0;
  };
  static size_t words(uint32_t rows) { return (size_t(rows) + 63) / 64; }
  static uint64_t bit(uint32_t r) { return uint64_t{1} << (r & 63); }
  std::vector<Slot> n_;
  std::vector<uint64_t> covered_, once_;
};

}  // namespace egtmin::logic
