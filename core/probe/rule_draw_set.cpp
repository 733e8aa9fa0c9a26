// SPDX-License-Identifier: GPL-3.0-or-later
// Making and attaching a RuleDrawSet (probe/rule_draw_set.hpp); looking up is in the header.
#include "probe/rule_draw_set.hpp"

#include <algorithm>
#include <string>

namespace egtmin::probe {

namespace {

// Bits of block [begin, end)'s gaps under Rice parameter k (its first index is in the head).
uint64_t code_bits(std::span<const uint32_t> v, size_t begin, size_t end, int k) {
  uint64_t bits = 0;
  for (size_t i = begin + 1; i < end; ++i) bits += ((uint64_t(v[i]) - v[i - 1] - 1) >> k) + 1 + uint64_t(k);
  return bits;
}

struct BitWriter {
  std::vector<uint64_t> words;
  uint64_t pos = 0;
  void put(uint64_t v, int n) {  // n <= 32
    for (int i = 0; i < n; ++i, ++pos) {
      if (pos / 64 >= words.size()) words.push_back(0);
      words[pos / 64] |= (v >> i & 1) << (pos % 64);
    }
  }
  void zeros(uint64_t n) {
    pos += n;
    words.resize((pos + 63) / 64, 0);
  }
};

}  // namespace

Result<RuleDrawSet> RuleDrawSet::build(std::span<const uint32_t> ascending) {
  RuleDrawSet s;
  const uint64_t n = ascending.size();
  if (n == 0) return s;
  for (size_t i = 1; i < n; ++i)
    if (ascending[i] <= ascending[i - 1]) return Error{"the rule's draws are not ascending and distinct"};
  const uint64_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<uint64_t> heads(blocks);
  BitWriter stream;
  for (uint64_t b = 0; b < blocks; ++b) {
    const size_t begin = size_t(b * kBlock), end = size_t(std::min(n, (b + 1) * kBlock));
    int best = 0;
    uint64_t best_bits = code_bits(ascending, begin, end, 0);
    for (int k = 1; k < (1 << kParameterBits); ++k)
      if (const uint64_t bits = code_bits(ascending, begin, end, k); bits < best_bits) best = k, best_bits = bits;
    if (stream.pos >= (uint64_t{1} << 32)) return Error{"the rule's draws take more than 2^32 bits"};
    heads[b] = uint64_t(ascending[begin]) | stream.pos << 32;
    stream.put(uint64_t(best), kParameterBits);
    for (size_t i = begin + 1; i < end; ++i) {
      const uint64_t gap = uint64_t(ascending[i]) - ascending[i - 1] - 1;
      stream.zeros(gap >> best);
      stream.put(1, 1);
      stream.put(gap, best);
    }
  }
  s.owned_.reserve(2 + blocks + stream.words.size());
  s.owned_.push_back(n);
  s.owned_.push_back(stream.words.size());
  s.owned_.insert(s.owned_.end(), heads.begin(), heads.end());
  s.owned_.insert(s.owned_.end(), stream.words.begin(), stream.words.end());
  return s;
}

Result<RuleDrawSet> RuleDrawSet::attach(std::span<const uint64_t> words) {
  RuleDrawSet s;
  if (words.empty()) return s;
  if (words.size() < 2) return Error{"the rule's draws: no room for their counts"};
  const uint64_t n = words[0], stream_words = words[1];
  if (n == 0 || n > (uint64_t{1} << 32)) return Error{"the rule's draws: a count of " + std::to_string(n)};
  const uint64_t blocks = (n + kBlock - 1) / kBlock;
  if (stream_words > words.size() || words.size() - 2 != blocks + stream_words)
    return Error{"the rule's draws: their parts do not add up"};
  // The heads are what the binary search trusts: first indices ascending, offsets inside the stream.
  for (uint64_t b = 0; b < blocks; ++b) {
    const uint64_t h = words[2 + b];
    if ((h >> 32) >= stream_words * 64 || (b > 0 && uint32_t(h) <= uint32_t(words[1 + b])))
      return Error{"the rule's draws: damaged block " + std::to_string(b)};
  }
  s.attached_ = words;
  return s;
}

}  // namespace egtmin::probe
