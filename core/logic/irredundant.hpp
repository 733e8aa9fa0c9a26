// SPDX-License-Identifier: GPL-3.0-or-later
// The covering solver behind irredundant (logic/passes.hpp declares the pass itself).
#pragma once

#include <cstdint>
#include <vector>

#include "logic/care_function.hpp"
#include "logic/cover.hpp"
#include "logic/passes.hpp"

namespace egtmin::logic {

// A small set cover: choose columns of a 0/1 matrix (column j covers rows
// col_rows[col_start[j] .. col_start[j+1])) so that every row some column covers is covered, with
// as few columns as the heuristic finds: forced columns, a weighted greedy, then local search
// (redundant columns dropped, one column swapped in for two or more). col_tiebreak (optional, one
// per column) breaks greedy ties, higher first. Returns the chosen columns, ascending.
// `search` chooses how many greedy starts: see CoverSearch. local_steps > 0 adds the dominance
// reduction and that many swaps of a row-weighting local search (logic/irredundant.cpp).
enum class CoverSearch {
  Quick,     // one greedy start and a short local search (what expand uses on intermediate covers)
  Thorough,  // several jittered starts and an iterated greedy, as many as the matrix's size allows
};
std::vector<uint32_t> solve_cover(uint32_t rows, uint32_t cols, std::vector<uint32_t> col_start,
                                  std::vector<uint32_t> col_rows, const std::vector<double>& col_tiebreak = {},
                                  CoverSearch search = CoverSearch::Thorough, uint64_t local_steps = 0);

// irredundant (logic/passes.hpp) with a chosen covering search.
void irredundant_with(Cover& cover, const Cover& fixed, const CareFunction& f, Output o, CoverSearch search,
                      uint64_t local_steps = 0);
// Swaps of the row-weighting local search irredundant runs on a cover of `cubes` cubes.
uint64_t irredundant_steps(size_t cubes, Effort effort, FunctionScope scope = FunctionScope::Whole);

}  // namespace egtmin::logic
