// SPDX-License-Identifier: GPL-3.0-or-later
#include "logic/care_function.hpp"

#include <algorithm>
#include <atomic>
#include <bit>

#include "util/parallel.hpp"

namespace egtmin::logic {

CareFunction CareFunction::from_table(const Table& t, CanonScheme scheme, int threads, const Progress& progress,
                                      const std::vector<uint64_t>* at_most_draw) {
  CareFunction f;
  const Encoding& enc = t.encoding();
  f.n_ = enc.bits();
  f.scheme_ = scheme;
  for (auto& b : f.on_) b = BitTree(f.n_);
  const bool capped = at_most_draw && !at_most_draw->empty();
  if (capped) f.at_most_draw_ = BitTree(f.n_);
  auto capped_slot = [&](uint64_t slot) { return capped && ((*at_most_draw)[slot >> 6] >> (slot & 63) & 1); };
  CoverCanon canon(enc, scheme);
  const uint64_t words = f.on_[0].words().size();
  if (scheme != CanonScheme::None) {
    // Representatives are canonical under the table's Symmetry, so walking the table's slots
    // (1/8 of the space without pawns, 1/2 with) finds them all without canonicalizing anything.
    const Symmetry& sym = t.symmetry();
    constexpr uint64_t kChunk = uint64_t{1} << 14;
    constexpr uint64_t kSlotReportEvery = 16;  // chunks between progress reports
    auto mark_slots = [&](uint64_t begin, uint64_t end, int) {
      for (uint64_t slot = begin; slot < end; ++slot) {
        const Wdl v = fold(t.at_slot(slot));  // the cover's outputs are win, draw and loss
        if (v == Wdl::Illegal && !capped_slot(slot)) continue;
        Placement p = sym.from_slot(slot);
        if (!canon.is_representative(p)) continue;
        uint64_t idx = enc.encode(p);
        BitTree& into = v == Wdl::Illegal ? f.at_most_draw_ : f.on_[int(v) - 1];
        // Slots of one word can belong to different workers: set bits atomically.
        std::atomic_ref<uint64_t> word(into.words()[idx >> 6]);
        word.fetch_or(uint64_t{1} << (idx & 63), std::memory_order_relaxed);
      }
    };
    parallel_for(t.slots(), threads, kChunk, progress, {Stage::CareSet, {}, kSlotReportEvery}, mark_slots);
    f.finish();
    return f;
  }
  // Scheme none: every index. Workers own disjoint word ranges, so no two threads write the same
  // 64-bit word.
  constexpr uint64_t kChunk = 1024;
  constexpr uint64_t kWordReportEvery = 64;  // chunks between progress reports
  auto fill_words = [&](uint64_t w0, uint64_t w1, int) {
    for (uint64_t w = w0; w < w1; ++w) {
      uint64_t acc[kOutputs] = {0, 0, 0}, acc_capped = 0;
      for (int b = 0; b < 64; ++b) {
        uint64_t idx = (w << 6) | uint64_t(b);
        if (idx >= enc.size()) break;
        const Placement p = enc.decode(idx);
        const uint64_t slot = t.symmetry().canonical_slot(p);
        const Wdl v = fold(t.at_slot(slot));
        if (v != Wdl::Illegal)
          acc[int(v) - 1] |= uint64_t{1} << b;
        else if (capped_slot(slot) && enc.is_legal(p))
          acc_capped |= uint64_t{1} << b;
      }
      for (int s = 0; s < kOutputs; ++s) f.on_[s].words()[w] = acc[s];
      if (capped) f.at_most_draw_.words()[w] = acc_capped;
    }
  };
  parallel_for(words, threads, kChunk, progress, {Stage::CareSet, {}, kWordReportEvery}, fill_words);
  f.finish();
  return f;
}

CareFunction CareFunction::from_values(int n, std::span<const uint8_t> values) {
  CareFunction f;
  f.n_ = n;
  for (auto& b : f.on_) b = BitTree(n);
  for (uint64_t i = 0; i < values.size() && i < (uint64_t{1} << n); ++i)
    if (values[i] >= 1 && values[i] <= 3) f.on_[values[i] - 1].set(i);
  f.finish();
  return f;
}

CareFunction CareFunction::from_words(int n, CanonScheme scheme, std::array<std::vector<uint64_t>, kOutputs> words,
                                      std::vector<uint64_t> at_most_draw, int fixed_side) {
  CareFunction f;
  f.n_ = n;
  f.scheme_ = scheme;
  f.fixed_side_ = fixed_side;
  const uint64_t size = std::max<uint64_t>(1, (uint64_t{1} << n) >> 6);
  for (int s = 0; s < kOutputs; ++s) {
    f.on_[s] = BitTree(n);
    f.on_[s].words() = std::move(words[s]);
    f.on_[s].words().resize(size, 0);
  }
  if (!at_most_draw.empty()) {
    f.at_most_draw_ = BitTree(n);
    f.at_most_draw_.words() = std::move(at_most_draw);
    f.at_most_draw_.words().resize(size, 0);
  }
  f.finish();
  return f;
}

void CareFunction::finish() {
  for (auto& b : on_) b.finish();
  const auto& w0 = on_[0].words();
  care_words_.resize(w0.size());
  uint64_t total = 0;
  for (size_t w = 0; w < w0.size(); ++w) {
    care_words_[w] = on_[0].words()[w] | on_[1].words()[w] | on_[2].words()[w];
    total += std::popcount(care_words_[w]);
  }
  care_total_ = total;
  at_most_draw_count_ = 0;
  at_most_draw_half_ = {false, false};
  if (at_most_draw_.inputs() > 0) {
    at_most_draw_.finish();
    const auto& x = at_most_draw_.words();
    for (size_t w = 0; w < x.size(); ++w) {
      if (!x[w]) continue;
      at_most_draw_count_ += uint64_t(std::popcount(x[w]));
      at_most_draw_half_[size_t(side_of_word(w))] = true;
    }
    if (at_most_draw_count_ == 0) at_most_draw_ = BitTree();  // nothing to test against
  }
}

bool CareFunction::blocked(CubeWord c) const {
  int s = output_slot(output_of(c));
  const BitTree* others[kOutputs];
  int k = 0;
  for (int t = 0; t < kOutputs; ++t)
    if (t != s) others[k++] = &on_[t];
  if (intersects_any(others, k, c)) return true;
  const CubeWord part = side_to_move_win_part(c, output_of(c));
  return part && intersects(at_most_draw_, part);
}

int CareFunction::side_of_word(uint64_t w) const {
  // The side to move is the index's top bit: the first half of the words is White to move.
  return fixed_side_ >= 0 ? fixed_side_ : int(w >= care_words_.size() / 2);
}

CubeWord CareFunction::side_to_move_win_part(CubeWord c, Output o) const {
  if (!has_at_most_draw() || o == Output::Draw || o == Output::None) return 0;
  // White wins is the mover's win with White (0) to move, White loses with Black (1) to move.
  if (fixed_side_ >= 0) return fixed_side_ == (o == Output::Win ? 0 : 1) ? c : 0;
  // Input 0 is the side to move: keep only that value of it.
  const CubeWord may0 = CubeWord{2} << pair_shift(0), may1 = CubeWord{1} << pair_shift(0);
  const CubeWord keep = o == Output::Win ? may0 : may1;
  if (!(c & keep)) return 0;
  return c & ~(o == Output::Win ? may1 : may0);
}

uint64_t CareFunction::forbidden_word(Output o, uint64_t w) const {
  uint64_t off = care_words_[w] & ~on_[output_slot(o)].words()[w];
  if (has_at_most_draw() && o != Output::Draw && side_of_word(w) == (o == Output::Loss ? 1 : 0))
    off |= at_most_draw_.words()[w];
  return off;
}

bool CareFunction::may_imply(Output o) const {
  if (o == Output::Win) return !at_most_draw_half_[0];
  if (o == Output::Loss) return !at_most_draw_half_[1];
  return true;
}

std::vector<uint32_t> rule_draw_indices(const Table& t, CanonScheme scheme) {
  const Encoding& enc = t.encoding();
  std::vector<uint32_t> out;
  if (scheme == CanonScheme::None) {
    for (uint64_t idx = 0; idx < enc.size(); ++idx)
      if (is_rule_draw(t.value(idx))) out.push_back(uint32_t(idx));
    return out;
  }
  // As in from_table: representatives are canonical under the table's Symmetry.
  const CoverCanon canon(enc, scheme);
  const Symmetry& sym = t.symmetry();
  for (uint64_t slot = 0; slot < t.slots(); ++slot) {
    if (!is_rule_draw(t.at_slot(slot))) continue;
    const Placement p = sym.from_slot(slot);
    if (canon.is_representative(p)) out.push_back(uint32_t(enc.encode(p)));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace egtmin::logic
