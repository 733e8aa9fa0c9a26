// SPDX-License-Identifier: GPL-3.0-or-later
#include "logic/pass_state.hpp"

#include <bit>

namespace egtmin::logic {

Cover minterm_cover(const CareFunction& f) {
  Cover out;
  out.reserve(f.care_count());
  const int n = f.inputs();
  for (int s = 0; s < kOutputs; ++s) {
    Output o = slot_output(s);
    const auto& words = f.on(o).words();
    for (uint64_t w = 0; w < words.size(); ++w)
      for (uint64_t bits = words[w]; bits; bits &= bits - 1)
        out.push_back(minterm_fast((w << 6) | uint64_t(std::countr_zero(bits)), n, o));
  }
  return out;
}

void PassState::list_minterms() {
  if (!minterms_pending) return;
  split(minterm_cover(f));
  minterms_pending = false;
}

void PassState::split(const Cover& all) {
  for (auto& c : work) c.clear();
  for (CubeWord c : all) work[output_slot(output_of(c))].push_back(c);
}

Cover PassState::joined() const {
  Cover out;
  for (int s = 0; s < kOutputs; ++s) {
    out.insert(out.end(), fixed[s].begin(), fixed[s].end());
    out.insert(out.end(), work[s].begin(), work[s].end());
  }
  return out;
}

uint64_t PassState::cubes() const {
  if (minterms_pending) return f.care_count();
  uint64_t n = 0;
  for (int s = 0; s < kOutputs; ++s) n += work[s].size() + fixed[s].size();
  return n;
}

uint64_t PassState::literals() const {
  if (minterms_pending) return f.care_count() * uint64_t(f.inputs());
  uint64_t n = 0;
  for (int s = 0; s < kOutputs; ++s) n += literal_count(work[s]) + literal_count(fixed[s]);
  return n;
}

}  // namespace egtmin::logic
