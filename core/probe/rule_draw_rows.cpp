// SPDX-License-Identifier: GPL-3.0-or-later
// Making and attaching RuleDrawRows (probe/rule_draw_rows.hpp); looking up is in the header.
#include "probe/rule_draw_rows.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>
#include <string>
#include <utility>

#include "table/encoding.hpp"

namespace egtmin::probe {

namespace {

// Huffman code lengths of `weights` (each at least 1), at most RuleDrawRows::kMaxCodeBits: where
// the tree grows deeper, the rarest weights are raised and the code made again.
std::vector<int> code_lengths(std::vector<uint64_t> weights) {
  const size_t n = weights.size();
  if (n == 1) return {1};
  const uint64_t total = std::accumulate(weights.begin(), weights.end(), uint64_t{0});
  for (int floor_shift = RuleDrawRows::kMaxCodeBits - 2;; --floor_shift) {
    // Nodes: leaves 0..n-1, inner nodes after; each node's parent.
    std::vector<uint64_t> parent(2 * n - 1, 0);
    using Node = std::pair<uint64_t, size_t>;
    std::priority_queue<Node, std::vector<Node>, std::greater<>> heap;
    for (size_t i = 0; i < n; ++i) heap.push({weights[i], i});
    size_t next = n;
    while (heap.size() > 1) {
      const Node a = heap.top();
      heap.pop();
      const Node b = heap.top();
      heap.pop();
      parent[a.second] = parent[b.second] = next;
      heap.push({a.first + b.first, next++});
    }
    std::vector<int> depth(2 * n - 1, 0);
    for (size_t i = 2 * n - 2; i-- > 0;) depth[i] = depth[parent[i]] + 1;
    std::vector<int> lengths(depth.begin(), depth.begin() + ptrdiff_t(n));
    if (*std::max_element(lengths.begin(), lengths.end()) <= RuleDrawRows::kMaxCodeBits) return lengths;
    const uint64_t floor = std::max<uint64_t>(1, total >> floor_shift);
    for (uint64_t& w : weights) w = std::max(w, floor);
  }
}

struct MsbWriter {
  std::vector<uint64_t> words;
  uint64_t pos = 0;
  // The low `n` bits of `code`, its most significant first.
  void put(uint64_t code, int n) {
    for (int i = n - 1; i >= 0; --i, ++pos) {
      if (pos / 64 >= words.size()) words.push_back(0);
      words[pos / 64] |= (code >> i & 1) << (pos % 64);
    }
  }
};

}  // namespace

RuleDrawRows::Rows RuleDrawRows::rows_of(std::span<const uint32_t> indices, int pieces, int slot) {
  const unsigned shift = unsigned(square_shift(pieces, slot));
  const uint64_t low = (uint64_t{1} << shift) - 1;
  // Each index's row and its bit; rows in key order.
  std::vector<std::pair<uint32_t, uint64_t>> bits;
  bits.reserve(indices.size());
  for (uint32_t i : indices)
    bits.push_back({uint32_t((uint64_t(i) >> (shift + kSquareBits)) << shift | (i & low)),
                    uint64_t{1} << (i >> shift & kSquareMask)});
  std::sort(bits.begin(), bits.end());
  Rows rows;
  for (const auto& [key, bit] : bits) {
    if (rows.keys.empty() || rows.keys.back() != key) rows.keys.push_back(key), rows.masks.push_back(0);
    rows.masks.back() |= bit;
  }
  return rows;
}

Result<RuleDrawRows> RuleDrawRows::build(std::span<const uint32_t> ascending, int pieces, int slot) {
  RuleDrawRows s;
  if (ascending.empty()) return s;
  if (slot < 0 || slot >= pieces) return Error{"the rule's draws: no slot " + std::to_string(slot)};
  for (size_t i = 1; i < ascending.size(); ++i)
    if (ascending[i] <= ascending[i - 1]) return Error{"the rule's draws are not ascending and distinct"};
  const unsigned shift = unsigned(square_shift(pieces, slot));
  const auto [keys, row_masks] = rows_of(ascending, pieces, slot);
  auto row_set = RuleDrawSet::build(keys);
  if (!row_set) return row_set.error();
  // The distinct masks, their counts, their code lengths; symbols by length, then mask.
  std::vector<uint64_t> masks = row_masks;
  std::sort(masks.begin(), masks.end());
  masks.erase(std::unique(masks.begin(), masks.end()), masks.end());
  std::vector<uint64_t> weights(masks.size(), 0);
  for (uint64_t m : row_masks) ++weights[size_t(std::lower_bound(masks.begin(), masks.end(), m) - masks.begin())];
  const std::vector<int> lengths = code_lengths(weights);
  std::vector<size_t> order(masks.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return lengths[a] < lengths[b]; });
  std::vector<uint32_t> counts(kMaxCodeBits, 0);
  for (int l : lengths) ++counts[size_t(l - 1)];
  // Canonical codes: each length's codes follow the shorter ones', in symbol order.
  std::vector<uint64_t> code_of(masks.size());
  std::vector<uint64_t> symbol_masks(masks.size());
  {
    uint64_t code = 0;
    int length = 1;
    for (size_t k = 0; k < order.size(); ++k) {
      const size_t m = order[k];
      while (length < lengths[m]) code <<= 1, ++length;
      code_of[m] = code++;
      symbol_masks[k] = masks[m];
    }
  }
  MsbWriter stream;
  std::vector<uint32_t> offsets;
  for (size_t r = 0; r < row_masks.size(); ++r) {
    if (r % kRowsPerOffset == 0) {
      if (stream.pos >= (uint64_t{1} << 32)) return Error{"the rule's draws take more than 2^32 bits as rows"};
      offsets.push_back(uint32_t(stream.pos));
    }
    const size_t m = size_t(std::lower_bound(masks.begin(), masks.end(), row_masks[r]) - masks.begin());
    stream.put(code_of[m], lengths[m]);
  }
  auto pack32 = [](const std::vector<uint32_t>& v, std::vector<uint64_t>& out) {
    for (size_t i = 0; i < v.size(); i += 2)
      out.push_back(uint64_t(v[i]) | (i + 1 < v.size() ? uint64_t(v[i + 1]) << 32 : 0));
  };
  std::vector<uint64_t>& w = s.owned_;
  const std::span<const uint64_t> row_words = row_set->words();
  w.reserve(kFixedWords + row_words.size() + symbol_masks.size() + kMaxCodeBits / 2 + (offsets.size() + 1) / 2 +
            stream.words.size());
  w.push_back(kTag | uint64_t(shift) << 32 | ascending.size());
  w.push_back(row_words.size());
  w.push_back(masks.size());
  w.push_back(stream.words.size());
  w.insert(w.end(), row_words.begin(), row_words.end());
  w.insert(w.end(), symbol_masks.begin(), symbol_masks.end());
  pack32(counts, w);
  pack32(offsets, w);
  w.insert(w.end(), stream.words.begin(), stream.words.end());
  return s;
}

Result<RuleDrawRows> RuleDrawRows::build_smallest(std::span<const uint32_t> ascending, int pieces) {
  Result<RuleDrawRows> best = RuleDrawRows{};
  for (int slot = 0; slot < pieces; ++slot) {
    auto s = build(ascending, pieces, slot);
    if (!s) return s.error();
    if (slot == 0 || s->words().size() < best->words().size()) best = std::move(s);
  }
  return best;
}

Result<RuleDrawRows> RuleDrawRows::attach(std::span<const uint64_t> words) {
  RuleDrawRows s;
  if (words.empty()) return s;
  auto bad = [](const std::string& what) { return Error{"the rule's draws as rows: " + what}; };
  if (words.size() < kFixedWords || !(words[0] & kTag)) return bad("no room for their counts");
  const uint64_t n = uint32_t(words[0]), shift = words[0] >> 32 & 63, row_words = words[1], distinct = words[2],
                 stream_words = words[3];
  if (n == 0 || (words[0] & ~kTag) >> 38 != 0 || shift % kSquareBits != 0 || shift + kSquareBits > 31)
    return bad("a damaged first word");
  if (row_words > words.size() || distinct > words.size() || stream_words > words.size())
    return bad("their parts do not add up");
  auto rows = RuleDrawSet::attach(words.subspan(kFixedWords, std::min<size_t>(row_words, words.size() - kFixedWords)));
  if (!rows) return rows.error();
  if (rows->empty() || distinct == 0) return bad("no rows");
  const uint64_t blocks = (rows->size() + kRowsPerOffset - 1) / kRowsPerOffset;
  if (words.size() != kFixedWords + row_words + distinct + kMaxCodeBits / 2 + (blocks + 1) / 2 + stream_words)
    return bad("their parts do not add up");
  const uint64_t* counts_words = words.data() + kFixedWords + row_words + distinct;
  uint64_t codes = 0;
  for (int l = 0; l < kMaxCodeBits; ++l) codes += uint32_t(counts_words[l / 2] >> (32 * (l % 2)));
  if (codes != distinct) return bad("a code table that does not number the masks");
  const uint64_t* offsets_words = counts_words + kMaxCodeBits / 2;
  for (uint64_t b = 0; b < blocks; ++b)
    if ((offsets_words[b / 2] >> (32 * (b % 2)) & 0xFFFFFFFFu) > stream_words * 64)
      return bad("an offset past the stream");
  s.attached_ = words;
  return s;
}

}  // namespace egtmin::probe
