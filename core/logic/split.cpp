// SPDX-License-Identifier: GPL-3.0-or-later
#include "logic/split.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <string>

#include "logic/pass_state.hpp"

namespace egtmin::logic {

namespace {

// Index bit of input i in a function of n inputs (input 0 is the most significant).
int index_bit(int input, int n) { return n - 1 - input; }

// The word-index bits (index bits 6 and up, shifted down by 6) of the split inputs.
uint64_t split_word_mask(const Split& split, int n) {
  uint64_t m = 0;
  for (int i : split.inputs) m |= uint64_t{1} << (index_bit(i, n) - 6);
  return m;
}

// The split inputs' values as the word-index bits they occupy (value's bit k, most significant
// first, is split input k).
uint64_t part_word_bits(const Split& split, uint64_t value, int n) {
  uint64_t out = 0;
  const size_t k = split.inputs.size();
  for (size_t j = 0; j < k; ++j)
    if ((value >> (k - 1 - j)) & 1) out |= uint64_t{1} << (index_bit(split.inputs[j], n) - 6);
  return out;
}

}  // namespace

bool splittable(const CareFunction& f, int input) {
  return input >= 0 && input < f.inputs() && index_bit(input, f.inputs()) >= 6;
}

CareFunction split_part(const CareFunction& f, const Split& split, uint64_t value) {
  const int n = f.inputs();
  const int m = n - int(split.inputs.size());
  const uint64_t free_mask = ((uint64_t{1} << (n - 6)) - 1) & ~split_word_mask(split, n);
  const uint64_t fixed = part_word_bits(split, value, n);
  const uint64_t words = uint64_t{1} << (m - 6);
  auto part_words = [&](const std::vector<uint64_t>& from) {
    std::vector<uint64_t> to(words);
    // Word j of the part is the whole function's word with j's bits scattered over the free
    // word-index bits (lowest first, as BMI2's pdep) and the split inputs' bits set: for j = 0, 1,
    // 2, ... the scattered bits follow one another by an increment carried across the other bits.
    uint64_t at = 0;
    for (uint64_t j = 0; j < words; ++j) {
      to[j] = from[at | fixed];
      at = ((at | ~free_mask) + 1) & free_mask;
    }
    return to;
  };
  std::array<std::vector<uint64_t>, kOutputs> out;
  for (int s = 0; s < kOutputs; ++s) out[s] = part_words(f.on_slot(s).words());
  std::vector<uint64_t> capped;
  if (f.has_at_most_draw()) capped = part_words(f.at_most_draw().words());
  // Split on input 0, a part has one side to move: it must know which ("at most a draw" forbids
  // the side to move's win).
  int side = f.fixed_side();
  if (side < 0 && !split.inputs.empty() && split.inputs.front() == 0)
    side = int((value >> (split.inputs.size() - 1)) & 1);
  return CareFunction::from_words(m, f.scheme(), std::move(out), std::move(capped), side);
}

CubeWord unsplit(CubeWord c, const Split& split, uint64_t value, int n) {
  CubeWord out = 0;
  const size_t k = split.inputs.size();
  int from = 0;  // the part's input that fills the next unsplit input
  size_t j = 0;  // the next split input
  for (int i = 0; i < kMaxInputs; ++i) {
    CubeWord pair;
    if (i >= n) {
      pair = 3;  // beyond the width: don't care
    } else if (j < k && split.inputs[j] == i) {
      pair = ((value >> (k - 1 - j)) & 1) ? 1 : 2;
      ++j;
    } else {
      pair = (c >> pair_shift(from++)) & 3;
    }
    out |= pair << pair_shift(i);
  }
  return with_output(out, output_of(c));
}

std::vector<uint64_t> part_care_counts(const CareFunction& f, const Split& split) {
  const int n = f.inputs();
  std::vector<uint64_t> counts(split.parts(), 0);
  const auto& care = f.care_words();
  // Which part a word belongs to: its split bits gathered, most significant input first.
  std::vector<int> bits;
  for (int i : split.inputs) bits.push_back(index_bit(i, n) - 6);
  for (uint64_t w = 0; w < care.size(); ++w) {
    if (!care[w]) continue;
    uint64_t part = 0;
    for (int b : bits) part = (part << 1) | ((w >> b) & 1);
    counts[part] += uint64_t(std::popcount(care[w]));
  }
  return counts;
}

double input_agreement(const CareFunction& f, int input) {
  const uint64_t flip = uint64_t{1} << (index_bit(input, f.inputs()) - 6);
  const auto& care = f.care_words();
  uint64_t pairs = 0, same = 0;
  for (uint64_t w = 0; w < care.size(); ++w) {
    if (w & flip) continue;  // each pair once
    pairs += uint64_t(std::popcount(care[w] & care[w | flip]));
    for (int s = 0; s < kOutputs; ++s) {
      const auto& on = f.on_slot(s).words();
      same += uint64_t(std::popcount(on[w] & on[w | flip]));
    }
  }
  return pairs ? double(same) / double(pairs) : 1.0;  // no pairs: one side is empty, splitting gains nothing
}

Split choose_split(const CareFunction& f, uint64_t limit, int max_inputs) {
  Split split;
  if (f.care_count() <= limit) return split;
  std::vector<int> candidates;
  std::vector<double> agreement(size_t(f.inputs()), 1.0);
  for (int i = 0; i < f.inputs(); ++i)
    if (splittable(f, i)) {
      candidates.push_back(i);
      agreement[size_t(i)] = input_agreement(f, i);
    }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](int a, int b) { return agreement[size_t(a)] < agreement[size_t(b)]; });
  for (int i : candidates) {
    if (int(split.inputs.size()) >= max_inputs) break;
    split.inputs.insert(std::upper_bound(split.inputs.begin(), split.inputs.end(), i), i);
    const auto counts = part_care_counts(f, split);
    if (*std::max_element(counts.begin(), counts.end()) <= limit) break;
  }
  return split;
}

Result<std::optional<std::vector<int>>> parse_split(std::string_view text) {
  if (text == "auto") return std::optional<std::vector<int>>{};
  std::vector<int> inputs;
  if (text == "none") return std::optional<std::vector<int>>{inputs};
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = std::min(text.find(',', start), text.size());
    const std::string_view item = text.substr(start, end - start);
    int v = 0;
    const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || ptr != item.data() + item.size() || v < 0 || v >= kMaxInputs)
      return Error{"split: \"" + std::string(item) + "\" is not an input number 0-" + std::to_string(kMaxInputs - 1) +
                   " (give auto, none, or inputs such as 0,16,7)"};
    inputs.push_back(v);
    start = end + 1;
  }
  if (inputs.size() > size_t(kMaxSplitInputs))
    return Error{"split: at most " + std::to_string(kMaxSplitInputs) + " inputs"};
  return std::optional<std::vector<int>>{inputs};
}

}  // namespace egtmin::logic
