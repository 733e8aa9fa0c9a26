// SPDX-License-Identifier: GPL-3.0-or-later
// CubeIndex read back from a probe layout and queried outside the hot path; building an index and
// saving its state are in cube_index_build.cpp.
#include "probe/cube_index.hpp"

namespace egtmin::probe {

void CubeIndex::load_state(ByteReader& r) {
  visit_state([&](auto& field) { r.get(field); });
}

bool CubeIndex::attach_hot_words(std::span<const uint64_t> hot_words) {
  if (hot_words.size() != front_words_ + node_words_ + slice_words_ || front_blocks_ < 0 ||
      front_cubes_.size() > kFront || groups_ > kMaxGroups || front_groups_ > kMaxFrontGroups ||
      front_rows_ > front_words_)
    return false;
  own_ = {};
  words_ = hot_words.data();
  return true;
}

double CubeIndex::leaf_blocks_per_query(std::span<const uint64_t> queries) const {
  if (queries.empty()) return 0;
  double blocks = 0;
  for (uint64_t q : queries) {
    if (front_match(q).hits) continue;
    const Match m = match(q);
    blocks += double(m.hit.hits ? m.hit.block + 1 : m.blocks);
  }
  return blocks / double(queries.size());
}

}  // namespace egtmin::probe
