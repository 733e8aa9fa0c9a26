// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/cover_file.hpp"

#include <lzma.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "store/cube_trie.hpp"
#include "store/xz.hpp"
#include "table/encoding.hpp"
#include "util/atomic_file.hpp"

namespace egtmin::store {

namespace fs = std::filesystem;

namespace {

// Layout (docs/file-format.md), all integers little-endian:
//   0   8  magic "EGTMCOV\x1a"
//   8   2  format version (3: standalone; 4: the kind beside the scheme; 5: the implied output
//          too; versions 1 and 2, without the rule's draws, are refused)
//   10  1  inputs (1 + 6 * pieces)
//   11  1  canon scheme (0 none, 1 board, 2 full) in bits 0-3; version 4: the cover's kind in
//          bits 4-7 (1: capture-resolved); version 5: the kind in bits 4-5 and the implied output
//          (0 none, 1 White wins, 2 draw, 3 White loses) in bits 6-7
//   12  8  cube count
//   20  8  payload length in bytes
//   28  8  CRC-64 (ECMA-182, lzma_crc64) of the payload
//   36  1  balance name length B, then B bytes (ASCII, e.g. "KRvK")
//   .   2  passes length P, then P bytes (ASCII)
//   .   8  CRC-64 of every header byte before it
//   .      payload (since version 2): layout byte (1), field count m, m bytes of field order, the
//          raw layout's length as a LEB128 number, then a raw LZMA2 stream of the layout
//          (store/cube_trie.hpp)
//   .      the rule's draws: 8 count D, 8 length L, 8 CRC-64 of the L bytes that follow, which are
//          the raw length as a LEB128 number and a raw LZMA2 stream of D LEB128 numbers, the gaps
//          between successive indices (the first from 0)
constexpr uint8_t kMagic[8] = {'E', 'G', 'T', 'M', 'C', 'O', 'V', 0x1a};
constexpr uint16_t kVersion = 5;
constexpr uint16_t kFirstWithRuleDraws = 3;
// Each cover is written in the oldest version that holds it: standalone covers with every output
// stored as version 3, which every egtmin since the rule's values reads; capture-resolved ones as
// version 4, covers with an implied output as version 5. An older egtmin then says the file is
// newer rather than giving values without the capture search or the implied output.
constexpr uint16_t kStandaloneVersion = 3;
constexpr uint16_t kKindVersion = 4;
constexpr int kKindShift = 4;
constexpr int kImpliedShift = 6;
constexpr size_t kFixedPart = 37;  // up to and including the balance name length
// Cubes beyond this are refused before allocating: 2^31 cubes would be 16 GiB, far beyond any
// cover (the worst is one cube per care position of a 5-piece balance, < 2^31).
constexpr uint64_t kMaxCubes = uint64_t{1} << 31;

void put_le(std::vector<uint8_t>& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(uint8_t(v >> (8 * i)));
}
uint64_t get_le(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

void put_leb128(std::vector<uint8_t>& out, uint64_t v) {
  do {
    const uint8_t b = uint8_t(v & 0x7f);
    v >>= 7;
    out.push_back(uint8_t(b | (v ? 0x80 : 0)));
  } while (v);
}

// Reads a LEB128 number at `at`, or nothing when it runs past the end or is longer than 9 bytes.
std::optional<uint64_t> get_leb128(std::span<const uint8_t> in, size_t& at) {
  uint64_t v = 0;
  for (int shift = 0; shift <= 56; shift += 7) {  // up to 9 bytes: 63 bits
    if (at >= in.size()) return std::nullopt;
    const uint8_t b = in[at++];
    v |= uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  return std::nullopt;
}

// Why a cube cannot be in a cover of `inputs` inputs, or nullptr when it can.
const char* cube_problem(logic::CubeWord c, int inputs) {
  if (logic::output_of(c) == logic::Output::None) return "has no output";
  logic::CubeWord in = c & logic::kInputMask;
  if (((in | (in >> 1)) & logic::kLowBits) != logic::kLowBits) return "is empty (an input pair is 00)";
  for (int i = inputs; i < logic::kMaxInputs; ++i)
    if ((c & logic::pair_mask(i)) != logic::pair_mask(i)) return "fixes an input beyond the balance's width";
  return nullptr;
}

}  // namespace

fs::path cover_path(const fs::path& data_dir, const Balance& b, CoverKind kind) {
  return data_dir / "covers" / (b.canonical().name() + std::string(cover_extension(kind)));
}

std::vector<std::vector<uint8_t>> candidate_orders(int inputs) {
  std::vector<std::vector<uint8_t>> out;
  const int m = trie_field_count(inputs);
  if (m == 0) return out;
  std::vector<int> pieces(size_t(m - 1) / 2);
  std::iota(pieces.begin(), pieces.end(), 0);
  do {
    std::vector<uint8_t> together{0}, ranks_first{0}, files_first{0};
    for (int p : pieces) together.insert(together.end(), {uint8_t(1 + 2 * p), uint8_t(2 + 2 * p)});
    for (int p : pieces) ranks_first.push_back(uint8_t(1 + 2 * p));
    for (int p : pieces) ranks_first.push_back(uint8_t(2 + 2 * p));
    for (int p : pieces) files_first.push_back(uint8_t(2 + 2 * p));
    for (int p : pieces) files_first.push_back(uint8_t(1 + 2 * p));
    out.push_back(std::move(together));
    out.push_back(std::move(ranks_first));
    out.push_back(std::move(files_first));
  } while (std::next_permutation(pieces.begin(), pieces.end()));
  return out;
}

namespace {

// The v2 payload for one layout and field order: layout byte, order, raw length, LZMA2 stream.
std::vector<uint8_t> v2_payload(TrieLayout layout, std::span<const uint8_t> order, uint64_t raw_size,
                                std::span<const uint8_t> lzma) {
  std::vector<uint8_t> out{uint8_t(layout), uint8_t(order.size())};
  out.insert(out.end(), order.begin(), order.end());
  put_leb128(out, raw_size);
  out.insert(out.end(), lzma.begin(), lzma.end());
  return out;
}

std::vector<uint8_t> compressed(std::span<const uint8_t> raw, const Lzma2Options& o) {
  auto c = lzma2_raw_compress(raw, o);
  // The options are valid and the output buffer is sized for the worst case: only memory
  // exhaustion fails here.
  if (!c) throw std::bad_alloc();
  return std::move(*c);
}

}  // namespace

std::vector<uint8_t> encode_payload(std::span<const logic::CubeWord> cubes, int inputs) {
  if (trie_field_count(inputs) == 0)
    throw std::invalid_argument("cover with " + std::to_string(inputs) + " inputs: not 1 + 6 x pieces");
  for (logic::CubeWord c : cubes)
    if (!trie_representable(c, inputs))
      throw std::invalid_argument("cube " + logic::to_text(c, inputs) + " fixes an input beyond the cover's width");
  // Try every candidate order in the row layout (the planes when rows cannot hold the cubes; for
  // small covers both). Above 16 KiB, rank them with LZMA2's fastest preset and compress only the
  // best three at 9e: on the 36 covers of 2-4 pieces that finds the order compressing all 72 at
  // 9e finds, at a fraction of the cost (docs/measured.md). Above 512 KiB (5-piece covers: 360
  // orders), the ranking runs on an evenly spread sample of the cubes of about 256 KiB. Ties go to
  // the earlier candidate, so the bytes depend on the cover alone.
  constexpr size_t kSmall = 16 * 1024;
  constexpr size_t kSampleAbove = 512 * 1024, kSampleSize = 256 * 1024;
  constexpr size_t kFinalists = 3;
  enum class Preset { Rank, Final };  // LZMA2's fastest preset to rank orders, 9e for the file
  auto options = [](TrieLayout layout, Preset preset) {
    Lzma2Options o;
    if (preset == Preset::Rank) o = {.preset = 1, .extreme = false};
    o.lc = layout == TrieLayout::Rows ? 3 : 0;  // rows: the previous byte's field tag as context
    return o;
  };
  // The row layout when it can hold the cubes, else the planes.
  auto encode = [&](std::span<const logic::CubeWord> cs, const std::vector<uint8_t>& order) {
    auto rows = trie_encode(cs, inputs, order, TrieLayout::Rows);
    if (rows) return std::pair{TrieLayout::Rows, std::move(*rows)};
    return std::pair{TrieLayout::Planes, *trie_encode(cs, inputs, order, TrieLayout::Planes)};
  };
  std::vector<uint8_t> best;
  auto keep = [&](TrieLayout layout, const std::vector<uint8_t>& order, const std::vector<uint8_t>& raw) {
    auto p = v2_payload(layout, order, raw.size(), compressed(raw, options(layout, Preset::Final)));
    if (best.empty() || p.size() < best.size()) best = std::move(p);
  };

  const auto orders = candidate_orders(inputs);
  const size_t first_size = encode(cubes, orders.front()).second.size();
  if (first_size <= kSmall) {
    for (const auto& order : orders) {
      auto [layout, raw] = encode(cubes, order);
      if (layout == TrieLayout::Rows)
        keep(TrieLayout::Planes, order, *trie_encode(cubes, inputs, order, TrieLayout::Planes));
      keep(layout, order, raw);
    }
    return best;
  }
  std::vector<logic::CubeWord> sample;
  std::span<const logic::CubeWord> ranked = cubes;
  if (first_size > kSampleAbove) {
    std::vector<logic::CubeWord> all(cubes.begin(), cubes.end());
    std::sort(all.begin(), all.end());
    const size_t step = (first_size + kSampleSize - 1) / kSampleSize;
    for (size_t i = 0; i < all.size(); i += step) sample.push_back(all[i]);
    ranked = sample;
  }
  std::vector<std::pair<size_t, size_t>> finalists;  // (rank, order index), by rank then index
  for (size_t k = 0; k < orders.size(); ++k) {
    auto [layout, raw] = encode(ranked, orders[k]);
    const size_t rank = compressed(raw, options(layout, Preset::Rank)).size();
    auto at = std::upper_bound(finalists.begin(), finalists.end(), rank,
                               [](size_t r, const std::pair<size_t, size_t>& f) { return r < f.first; });
    finalists.insert(at, {rank, k});
    if (finalists.size() > kFinalists) finalists.pop_back();
  }
  for (const auto& [rank, k] : finalists) {
    auto [layout, raw] = encode(cubes, orders[k]);
    keep(layout, orders[k], raw);
  }
  return best;
}

namespace {

std::vector<uint8_t> encode_rule_draws(std::span<const uint32_t> draws) {
  std::vector<uint8_t> raw;
  uint32_t last = 0;
  for (uint32_t d : draws) {
    put_leb128(raw, d - last);
    last = d;
  }
  std::vector<uint8_t> out;
  put_leb128(out, raw.size());
  if (raw.empty()) return out;
  auto packed = lzma2_raw_compress(raw);
  if (!packed) throw std::runtime_error("cannot compress the rule's draws: " + packed.error().message);
  out.insert(out.end(), packed->begin(), packed->end());
  return out;
}

Result<std::vector<uint32_t>> decode_rule_draws(std::span<const uint8_t> in, uint64_t count, int inputs) {
  size_t at = 0;
  const auto raw_size = get_leb128(in, at);
  if (!raw_size) return Error{"the rule's draws: bad length"};
  // Each gap takes one to five bytes: check before allocating.
  if (*raw_size < count || *raw_size > count * 5)
    return Error{"the rule's draws: " + std::to_string(*raw_size) + " bytes cannot hold " + std::to_string(count) +
                 " indices"};
  std::vector<uint8_t> raw(*raw_size);
  if (!raw.empty())
    if (auto s = lzma2_raw_decompress(in.subspan(at), raw); !s)
      return Error{"the rule's draws: cannot decompress: " + s.error().message};
  std::vector<uint32_t> draws;
  draws.reserve(count);
  size_t r = 0;
  uint64_t last = 0;
  const uint64_t limit = uint64_t{1} << inputs;
  for (uint64_t i = 0; i < count; ++i) {
    const auto gap = get_leb128(raw, r);
    if (!gap) return Error{"the rule's draws end early (index " + std::to_string(i) + ")"};
    if (i > 0 && *gap == 0) return Error{"the rule's draws repeat an index"};
    last += *gap;
    if (last >= limit) return Error{"the rule's draws hold an index beyond the balance"};
    draws.push_back(uint32_t(last));
  }
  if (r != raw.size()) return Error{"the rule's draws have trailing bytes"};
  return draws;
}

}  // namespace

std::vector<uint8_t> serialize_cover(const CoverFile& cover) {
  std::vector<uint8_t> payload = encode_payload(cover.cubes, cover.inputs);
  const size_t count = cover.cubes.size();
  const std::string name = cover.balance.canonical().name();
  std::vector<uint8_t> out(kMagic, kMagic + 8);
  const bool resolved = cover.kind == CoverKind::CaptureResolved;
  const bool implied = cover.implied != logic::Output::None;
  put_le(out, implied ? kVersion : resolved ? kKindVersion : kStandaloneVersion, 2);
  out.push_back(uint8_t(cover.inputs));
  out.push_back(
      uint8_t(uint8_t(cover.canon) | uint8_t(cover.kind) << kKindShift | uint8_t(cover.implied) << kImpliedShift));
  put_le(out, count, 8);
  put_le(out, payload.size(), 8);
  put_le(out, lzma_crc64(payload.data(), payload.size(), 0), 8);
  out.push_back(uint8_t(name.size()));
  out.insert(out.end(), name.begin(), name.end());
  const size_t passes_len = std::min<size_t>(cover.passes.size(), 0xffff);
  put_le(out, passes_len, 2);
  out.insert(out.end(), cover.passes.begin(), cover.passes.begin() + long(passes_len));
  put_le(out, lzma_crc64(out.data(), out.size(), 0), 8);
  out.insert(out.end(), payload.begin(), payload.end());
  const std::vector<uint8_t> rule = encode_rule_draws(cover.rule_draws);
  put_le(out, cover.rule_draws.size(), 8);
  put_le(out, rule.size(), 8);
  put_le(out, lzma_crc64(rule.data(), rule.size(), 0), 8);
  out.insert(out.end(), rule.begin(), rule.end());
  return out;
}

Status save_cover(const fs::path& path, const CoverFile& cover) {
  if (trie_field_count(cover.inputs) == 0)
    return Error{"cannot save " + path.string() + ": " + std::to_string(cover.inputs) +
                 " inputs is not 1 + 6 x pieces"};
  for (logic::CubeWord c : cover.cubes)
    if (const char* why = cube_problem(c, cover.inputs))
      return Error{"cannot save " + path.string() + ": cube " + logic::to_text(c, cover.inputs) + " " + why};
  return write_file_atomically(path, serialize_cover(cover));
}

Result<std::vector<logic::CubeWord>> decode_payload(std::span<const uint8_t> payload, uint64_t count, int inputs) {
  const int m = trie_field_count(inputs);
  const size_t size = payload.size();
  if (size < 2) return Error{"payload of " + std::to_string(size) + " bytes is too short"};
  if (payload[0] != uint8_t(TrieLayout::Planes) && payload[0] != uint8_t(TrieLayout::Rows))
    return Error{"unknown payload layout " + std::to_string(payload[0])};
  const TrieLayout layout = TrieLayout(payload[0]);
  if (payload[1] != m)
    return Error{"payload has " + std::to_string(payload[1]) + " fields, " + std::to_string(inputs) + " inputs have " +
                 std::to_string(m)};
  size_t at = 2 + size_t(m);
  if (size < at) return Error{"payload too short for its field order"};
  const std::span<const uint8_t> order = payload.subspan(2, size_t(m));
  if (!trie_order_valid(order, inputs)) return Error{"payload's field order is not a permutation"};
  const auto layout_length = get_leb128(payload, at);
  if (!layout_length) return Error{"payload's layout length is truncated or too long"};
  const uint64_t raw_size = *layout_length;
  // Every cube takes one depth byte and at most one byte per field: check before allocating.
  if (raw_size < count || raw_size > count * uint64_t(m + 1))
    return Error{"payload's layout of " + std::to_string(raw_size) +
                 " bytes does not fit the cube count (header says " + std::to_string(count) + ")"};
  std::vector<uint8_t> raw(raw_size);
  if (auto s = lzma2_raw_decompress(payload.subspan(at), raw); !s)
    return Error{"cannot decompress payload: " + s.error().message};
  auto cubes = trie_decode(raw, count, inputs, order, layout);
  if (!cubes)
    return Error{"payload does not decode to the header's cubes (header says " + std::to_string(count) +
                 "): " + cubes.error().message};
  std::sort(cubes->begin(), cubes->end());
  return cubes;
}

Result<CoverFile> parse_cover(std::span<const uint8_t> bytes, const std::string& origin, const Balance* expected) {
  auto bad = [&](const std::string& what) { return Error{origin + ": " + what}; };
  const size_t size = bytes.size();
  const uint8_t* p = bytes.data();
  if (size < 8 || std::memcmp(p, kMagic, 8) != 0) return bad("not an egtmin cover file (bad magic)");
  if (size < kFixedPart) return bad("truncated header (" + std::to_string(size) + " bytes)");
  const uint64_t version = get_le(p + 8, 2);
  if (version < kFirstWithRuleDraws)
    return bad("cover format version " + std::to_string(version) +
               " has no values for the 50-move rule (cursed wins, blessed losses); remake it with: egtmin-cli "
               "minimize " +
               std::string(reinterpret_cast<const char*>(p + kFixedPart), std::min<size_t>(p[36], size - kFixedPart)));
  if (version > kVersion)
    return bad("cover format version " + std::to_string(version) + " is newer than this egtmin reads (" +
               std::to_string(kVersion) + ")");
  const size_t name_len = p[36];
  size_t at = kFixedPart + name_len;
  if (size < at + 2) return bad("truncated header (balance name)");
  const size_t passes_len = get_le(p + at, 2);
  const size_t passes_at = at + 2;
  at = passes_at + passes_len;
  if (size < at + 8) return bad("truncated header (passes or header checksum)");
  if (get_le(p + at, 8) != lzma_crc64(p, at, 0)) return bad("header checksum mismatch (corrupted header)");
  const size_t payload_at = at + 8;

  CoverFile cover;
  const std::string name(reinterpret_cast<const char*>(p + kFixedPart), name_len);
  auto balance = Balance::parse(name);
  if (!balance) return bad("bad balance name '" + name + "': " + balance.error().message);
  cover.balance = *balance;
  if (!cover.balance.is_canonical()) return bad("balance " + name + " is not in canonical form");
  if (expected && !(expected->canonical() == cover.balance))
    return bad("holds balance " + name + ", expected " + expected->canonical().name());
  cover.inputs = p[10];
  if (cover.inputs != inputs_for(cover.balance.pieces()) || cover.inputs > logic::kMaxInputs)
    return bad("inputs " + std::to_string(cover.inputs) + " do not fit balance " + name);
  const uint8_t scheme = version >= 4 ? p[11] & ((1u << kKindShift) - 1) : p[11];
  const uint8_t kind = version >= 5 ? (p[11] >> kKindShift) & 3 : version >= 4 ? p[11] >> kKindShift : 0;
  const uint8_t implied = version >= 5 ? p[11] >> kImpliedShift : 0;
  if (scheme > uint8_t(CanonScheme::Full)) return bad("unknown canon scheme " + std::to_string(scheme));
  if (kind > uint8_t(CoverKind::CaptureResolved)) return bad("unknown cover kind " + std::to_string(kind));
  cover.canon = CanonScheme(scheme);
  cover.kind = CoverKind(kind);
  cover.implied = logic::Output(implied);
  cover.passes.assign(reinterpret_cast<const char*>(p + passes_at), passes_len);

  const uint64_t count = get_le(p + 12, 8);
  const uint64_t payload_len = get_le(p + 20, 8);
  if (count > kMaxCubes) return bad("implausible cube count " + std::to_string(count));
  if (payload_len > size - payload_at)
    return bad("payload is " + std::to_string(size - payload_at) + " bytes, header says " +
               std::to_string(payload_len) + " (truncated file)");
  if (get_le(p + 28, 8) != lzma_crc64(p + payload_at, payload_len, 0))
    return bad("payload checksum mismatch (corrupted)");
  const size_t rule_at = payload_at + payload_len;
  if (size - rule_at < 24) return bad("truncated file (no section for the 50-move rule's draws)");
  const uint64_t rule_count = get_le(p + rule_at, 8), rule_len = get_le(p + rule_at + 8, 8);
  if (rule_count > kMaxCubes) return bad("implausible count of the rule's draws " + std::to_string(rule_count));
  if (rule_len != size - rule_at - 24)
    return bad("the rule's draws are " + std::to_string(size - rule_at - 24) + " bytes, the file says " +
               std::to_string(rule_len) + (rule_len > size - rule_at - 24 ? " (truncated file)" : " (trailing bytes)"));
  if (get_le(p + rule_at + 16, 8) != lzma_crc64(p + rule_at + 24, rule_len, 0))
    return bad("checksum mismatch in the rule's draws (corrupted)");
  auto draws = decode_rule_draws({p + rule_at + 24, rule_len}, rule_count, cover.inputs);
  if (!draws) return bad(draws.error().message);
  cover.rule_draws = std::move(*draws);

  auto cubes = decode_payload({p + payload_at, payload_len}, count, cover.inputs);
  if (!cubes) return bad(cubes.error().message);
  cover.cubes = std::move(*cubes);
  for (uint64_t i = 0; i < count; ++i) {
    const logic::CubeWord c = cover.cubes[i];
    if (const char* why = cube_problem(c, cover.inputs))
      return bad("cube " + std::to_string(i) + " (" + logic::to_text(c, cover.inputs) + ") " + why);
    if (i > 0 && c < cover.cubes[i - 1]) return bad("cubes are not sorted (cube " + std::to_string(i) + ")");
  }
  return cover;
}

Result<CoverFile> load_cover(const fs::path& path, const Balance* expected) {
  auto bytes = read_file(path);
  if (!bytes) return bytes.error();
  return parse_cover(*bytes, path.string(), expected);
}

}  // namespace egtmin::store
