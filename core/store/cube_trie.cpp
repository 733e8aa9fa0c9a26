// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/cube_trie.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "chess/types.hpp"
#include "util/bits.hpp"

namespace egtmin::store {

namespace {

constexpr int kMaxFields = 11;  // 5 pieces

int field_bits(int f) { return f == 0 ? 4 : 6; }

// Field values are stored as codes: the values whose pairs are all legal (01, 10, 11) first, as
// base-3 numbers in the PCN order 1 < 0 < don't care (so codes sort like the values), then the
// illegal ones (a 00 pair: no output, or an empty cube) after them, so that every word has a code
// and the reader can name the problem. Legal 3-input fields get codes 0..26, field 0 0..8.
struct CodeTable {
  std::array<uint8_t, 64> code{}, value{};
  explicit CodeTable(int pairs) {
    const int n = 1 << (2 * pairs);
    int next = 0;
    for (int pass = 0; pass < 2; ++pass)
      for (int v = 0; v < n; ++v) {
        bool legal = true;
        for (int k = 0; k < pairs; ++k) legal = legal && ((v >> (2 * k)) & 3) != 0;
        if (legal != (pass == 0)) continue;
        code[size_t(v)] = uint8_t(next);
        value[size_t(next++)] = uint8_t(v);
      }
  }
};
const CodeTable kCodes2(2), kCodes3(3);
const CodeTable& codes(int f) { return f == 0 ? kCodes2 : kCodes3; }
int field_shift(int f) { return f == 0 ? 60 : 56 - 2 * (1 + 3 * (f - 1)); }

// Bits below the last input: inputs n..30, always 11.
logic::CubeWord rest_mask(int inputs) {
  const int below = 62 - 2 * inputs;
  return below <= 0 ? 0 : (logic::CubeWord{1} << below) - 1;
}

// The sort key: the fields in `order`, first field in the highest bits.
struct KeyLayout {
  int m = 0;
  int total_bits = 0;
  std::array<int, kMaxFields> key_shift{};  // where field order[j] sits in the key
  std::array<uint8_t, 64> field_at_bit{};   // key bit -> position j in the order
  KeyLayout(std::span<const uint8_t> order) : m(int(order.size())) {
    for (int j = 0; j < m; ++j) total_bits += field_bits(order[j]);
    int top = total_bits;
    for (int j = 0; j < m; ++j) {
      top -= field_bits(order[j]);
      key_shift[j] = top;
      for (int b = 0; b < field_bits(order[j]); ++b) field_at_bit[top + b] = uint8_t(j);
    }
  }
  // Field codes, not values: a code table keeps the order, so keys sort as the fields do.
  uint64_t key(logic::CubeWord c, std::span<const uint8_t> order) const {
    uint64_t k = 0;
    for (int j = 0; j < m; ++j) k |= uint64_t(codes(order[j]).code[trie_field(c, order[j])]) << key_shift[j];
    return k;
  }
  uint32_t field(uint64_t key, int j, std::span<const uint8_t> order) const {
    return uint32_t(key >> key_shift[j]) & ((1u << field_bits(order[j])) - 1);
  }
  // First position j where two different keys differ.
  int depth(uint64_t a, uint64_t b) const { return field_at_bit[highest_bit(a ^ b)]; }
};

}  // namespace

int trie_field_count(int inputs) {
  if (inputs < 7 || inputs > logic::kMaxInputs || (inputs - 1) % kSquareBits != 0) return 0;
  return 1 + 2 * ((inputs - 1) / kSquareBits);
}

uint32_t trie_field(logic::CubeWord c, int f) { return uint32_t(c >> field_shift(f)) & ((1u << field_bits(f)) - 1); }

bool trie_representable(logic::CubeWord c, int inputs) {
  const logic::CubeWord rest = rest_mask(inputs);
  return (c & rest) == rest;
}

bool trie_order_valid(std::span<const uint8_t> order, int inputs) {
  const int m = trie_field_count(inputs);
  if (m == 0 || int(order.size()) != m) return false;
  uint32_t seen = 0;
  for (uint8_t f : order) {
    if (f >= m || (seen >> f) & 1) return false;
    seen |= 1u << f;
  }
  return true;
}

namespace {

std::vector<uint8_t> encode_planes(const std::vector<uint64_t>& keys, const KeyLayout& L,
                                   std::span<const uint8_t> order) {
  const int m = L.m;

  std::vector<uint8_t> depths(keys.size());
  std::array<std::vector<uint8_t>, kMaxFields> branch, fresh;
  for (size_t i = 0; i < keys.size(); ++i) {
    const int d = i == 0 ? 0 : keys[i] == keys[i - 1] ? m : L.depth(keys[i], keys[i - 1]);
    depths[i] = uint8_t(d);
    for (int j = d; j < m; ++j) {
      const uint32_t code = L.field(keys[i], j, order);
      if (j == d && i > 0)
        branch[j].push_back(uint8_t(code - L.field(keys[i - 1], j, order) - 1));
      else
        fresh[j].push_back(uint8_t(code));
    }
  }
  std::vector<uint8_t> out = std::move(depths);
  for (int j = 0; j < m; ++j) {
    out.insert(out.end(), branch[j].begin(), branch[j].end());
    out.insert(out.end(), fresh[j].begin(), fresh[j].end());
  }
  return out;
}

Result<std::vector<uint64_t>> decode_planes(std::span<const uint8_t> raw, uint64_t count, const KeyLayout& L,
                                            std::span<const uint8_t> order) {
  const int m = L.m;
  if (raw.size() < count)
    return Error{"layout has " + std::to_string(raw.size()) + " bytes, fewer than its " + std::to_string(count) +
                 " depth bytes"};
  std::array<uint64_t, kMaxFields + 1> at_depth{};
  for (uint64_t i = 0; i < count; ++i) {
    if (raw[i] > m)
      return Error{"cube " + std::to_string(i) + " has depth " + std::to_string(raw[i]) + ", above " +
                   std::to_string(m)};
    ++at_depth[raw[i]];
  }
  if (count > 0 && raw[0] != 0) return Error{"the first cube has depth " + std::to_string(raw[0]) + ", not 0"};
  // Field j: a branch byte for each later cube of depth j, a fresh byte for each cube of depth < j
  // and for the first cube.
  std::array<size_t, kMaxFields> branch_at{}, fresh_at{};
  const uint64_t first = count > 0 ? 1 : 0;
  uint64_t total = count, shallower = 0;  // shallower: later cubes of depth < j
  for (int j = 0; j < m; ++j) {
    const uint64_t branches = at_depth[j] - (j == 0 ? first : 0);
    branch_at[j] = size_t(total);
    fresh_at[j] = size_t(total + branches);
    total += branches + shallower + first;
    shallower += branches;
  }
  if (total != raw.size())
    return Error{"planes hold " + std::to_string(raw.size() - count) + " bytes, the depths call for " +
                 std::to_string(total - count)};

  std::vector<uint64_t> keys(count);
  uint64_t key = 0;
  for (uint64_t i = 0; i < count; ++i) {
    const int d = raw[i];
    for (int j = d; j < m; ++j) {
      const uint32_t limit = 1u << field_bits(order[j]);
      uint32_t code = 0;
      if (j == d && i > 0) {
        code = L.field(key, j, order) + 1 + raw[branch_at[j]++];
        if (code >= limit) return Error{"cube " + std::to_string(i) + ": field step past the largest value"};
      } else {
        code = raw[fresh_at[j]++];
        if (code >= limit)
          return Error{"cube " + std::to_string(i) + ": field code " + std::to_string(code) + " too large"};
      }
      key = (key & ~(uint64_t(limit - 1) << L.key_shift[j])) | (uint64_t(code) << L.key_shift[j]);
    }
    keys[i] = key;
  }
  return keys;
}

// Rows: each cube's fields from its depth on, one byte each: the field's position in the order
// less one in the top 3 bits, the code (or, for the depth's field, the step from the previous
// cube's code less one) in the low 5 bits. Field 0 only starts a row (the first, and each change
// of output or side to move); its code c is written as (c / 5) << 5 | (27 + c % 5), values no
// other field uses. Only for up to 9 fields (4 pieces), legal codes and no repeated cube.
constexpr int kRowsMaxFields = 9;
constexpr uint32_t kLegalCodes = 27;

bool rows_representable(const std::vector<uint64_t>& keys, const KeyLayout& L, std::span<const uint8_t> order) {
  if (L.m > kRowsMaxFields) return false;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i > 0 && keys[i] == keys[i - 1]) return false;
    for (int j = 0; j < L.m; ++j)
      if (order[j] != 0 && L.field(keys[i], j, order) >= kLegalCodes) return false;
  }
  return true;
}

std::vector<uint8_t> encode_rows(const std::vector<uint64_t>& keys, const KeyLayout& L,
                                 std::span<const uint8_t> order) {
  const int m = L.m;
  std::vector<uint8_t> out;
  out.reserve(keys.size() * 4);
  for (size_t i = 0; i < keys.size(); ++i) {
    const int d = i == 0 ? 0 : L.depth(keys[i], keys[i - 1]);
    for (int j = d; j < m; ++j) {
      const uint32_t code = L.field(keys[i], j, order);
      if (j == 0)
        out.push_back(uint8_t((code / 5) << 5 | (kLegalCodes + code % 5)));
      else if (j == d)
        out.push_back(uint8_t((j - 1) << 5 | (code - L.field(keys[i - 1], j, order) - 1)));
      else
        out.push_back(uint8_t((j - 1) << 5 | code));
    }
  }
  return out;
}

Result<std::vector<uint64_t>> decode_rows(std::span<const uint8_t> raw, uint64_t count, const KeyLayout& L,
                                          std::span<const uint8_t> order) {
  const int m = L.m;
  if (m > kRowsMaxFields) return Error{"row layout with " + std::to_string(m) + " fields"};
  std::vector<uint64_t> keys(count);
  uint64_t key = 0;
  size_t at = 0;
  auto set = [&](int j, uint32_t code) {
    key = (key & ~(uint64_t((1u << field_bits(order[j])) - 1) << L.key_shift[j])) | (uint64_t(code) << L.key_shift[j]);
  };
  auto cube = [](uint64_t i) { return "cube " + std::to_string(i) + ": "; };
  for (uint64_t i = 0; i < count; ++i) {
    if (at >= raw.size()) return Error{"layout ends after " + std::to_string(i) + " cubes"};
    const uint32_t tag = raw[at] >> 5, low = raw[at] & 31;
    ++at;
    int j = 0;
    if (low >= kLegalCodes) {
      const uint32_t code = tag * 5 + (low - kLegalCodes);
      if (code >= (1u << field_bits(order[0]))) return Error{cube(i) + "bad first field code " + std::to_string(code)};
      if (i > 0 && code <= L.field(key, 0, order)) return Error{cube(i) + "cubes are not in the layout's order"};
      set(0, code);
      j = 1;
    } else {
      if (i == 0) return Error{"the first cube does not start at field 0"};
      const int d = int(tag) + 1;
      if (d >= m) return Error{cube(i) + "depth " + std::to_string(d) + " beyond the last field"};
      const uint32_t code = L.field(key, d, order) + 1 + low;
      if (code >= kLegalCodes) return Error{cube(i) + "field step past the largest value"};
      set(d, code);
      j = d + 1;
    }
    for (; j < m; ++j) {
      if (at >= raw.size()) return Error{cube(i) + "layout ends inside the cube"};
      if (uint32_t(raw[at] >> 5) != uint32_t(j - 1) || (raw[at] & 31) >= kLegalCodes)
        return Error{cube(i) + "byte " + std::to_string(at) + " is not field " + std::to_string(j) + "'s"};
      set(j, raw[at++] & 31);
    }
    keys[i] = key;
  }
  if (at != raw.size()) return Error{"layout has " + std::to_string(raw.size() - at) + " bytes after the last cube"};
  return keys;
}

}  // namespace

std::optional<std::vector<uint8_t>> trie_encode(std::span<const logic::CubeWord> cubes, int inputs,
                                                std::span<const uint8_t> order, TrieLayout layout) {
  if (!trie_order_valid(order, inputs)) throw std::invalid_argument("trie_encode: bad field order");
  const KeyLayout L(order);
  std::vector<uint64_t> keys(cubes.size());
  for (size_t i = 0; i < cubes.size(); ++i) keys[i] = L.key(cubes[i], order);
  std::sort(keys.begin(), keys.end());
  if (layout == TrieLayout::Planes) return encode_planes(keys, L, order);
  if (!rows_representable(keys, L, order)) return std::nullopt;
  return encode_rows(keys, L, order);
}

Result<std::vector<logic::CubeWord>> trie_decode(std::span<const uint8_t> raw, uint64_t count, int inputs,
                                                 std::span<const uint8_t> order, TrieLayout layout) {
  if (!trie_order_valid(order, inputs)) return Error{"bad field order"};
  const KeyLayout L(order);
  auto keys = layout == TrieLayout::Planes ? decode_planes(raw, count, L, order) : decode_rows(raw, count, L, order);
  if (!keys) return keys.error();
  std::vector<logic::CubeWord> cubes(count);
  const logic::CubeWord rest = rest_mask(inputs);
  for (uint64_t i = 0; i < count; ++i) {
    logic::CubeWord c = rest;
    for (int j = 0; j < L.m; ++j)
      c |= logic::CubeWord(codes(order[j]).value[L.field((*keys)[i], j, order)]) << field_shift(order[j]);
    cubes[i] = c;
  }
  return cubes;
}

}  // namespace egtmin::store
