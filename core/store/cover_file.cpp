// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/cover_file.hpp"

#include <lzma.h>

#include <algorithm>
#include <cstring>

#include "store/xz.hpp"
#include "util/atomic_file.hpp"

namespace egtmin::store {

namespace fs = std::filesystem;

namespace {

// Layout (docs/file-format.md), all integers little-endian:
//   0   8  magic "EGTMCOV\x1a"
//   8   2  format version (1)
//   10  1  inputs (1 + 6 * pieces)
//   11  1  canon scheme (0 none, 1 board, 2 full)
//   12  8  cube count
//   20  8  payload length in bytes
//   28  8  CRC-64 (ECMA-182, lzma_crc64) of the payload
//   36  1  balance name length B, then B bytes (ASCII, e.g. "KRvK")
//   .   2  passes length P, then P bytes (ASCII)
//   .   8  CRC-64 of every header byte before it
//   .      payload: an xz stream (CRC-64 check) of cube count * 8 bytes, the cubes ascending, LE
constexpr uint8_t kMagic[8] = {'E', 'G', 'T', 'M', 'C', 'O', 'V', 0x1a};
constexpr uint16_t kVersion = 1;
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

fs::path cover_path(const fs::path& data_dir, const Balance& b) {
  return data_dir / "covers" / (b.canonical().name() + ".egtc");
}

std::vector<uint8_t> serialize_cover(const CoverFile& cover) {
  std::vector<logic::CubeWord> cubes = cover.cubes;
  std::sort(cubes.begin(), cubes.end());
  std::vector<uint8_t> raw;
  raw.reserve(cubes.size() * 8);
  for (logic::CubeWord c : cubes) put_le(raw, c, 8);

  auto xz = xz_compress(raw);
  // The output buffer is sized by lzma_stream_buffer_bound, so only memory exhaustion fails here.
  if (!xz) throw std::bad_alloc();
  std::vector<uint8_t> payload = std::move(*xz);

  const std::string name = cover.balance.canonical().name();
  std::vector<uint8_t> out(kMagic, kMagic + 8);
  put_le(out, kVersion, 2);
  out.push_back(uint8_t(cover.inputs));
  out.push_back(uint8_t(cover.canon));
  put_le(out, cubes.size(), 8);
  put_le(out, payload.size(), 8);
  put_le(out, lzma_crc64(payload.data(), payload.size(), 0), 8);
  out.push_back(uint8_t(name.size()));
  out.insert(out.end(), name.begin(), name.end());
  const size_t passes_len = std::min<size_t>(cover.passes.size(), 0xffff);
  put_le(out, passes_len, 2);
  out.insert(out.end(), cover.passes.begin(), cover.passes.begin() + long(passes_len));
  put_le(out, lzma_crc64(out.data(), out.size(), 0), 8);
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

Status save_cover(const fs::path& path, const CoverFile& cover) {
  for (logic::CubeWord c : cover.cubes)
    if (const char* why = cube_problem(c, cover.inputs))
      return Error{"cannot save " + path.string() + ": cube " + logic::to_text(c, cover.inputs) + " " + why};
  return write_file_atomically(path, serialize_cover(cover));
}

Result<CoverFile> parse_cover(std::span<const uint8_t> bytes, const std::string& origin, const Balance* expected) {
  auto bad = [&](const std::string& what) { return Error{origin + ": " + what}; };
  const size_t size = bytes.size();
  const uint8_t* p = bytes.data();
  if (size < 8 || std::memcmp(p, kMagic, 8) != 0) return bad("not an egtmin cover file (bad magic)");
  if (size < kFixedPart) return bad("truncated header (" + std::to_string(size) + " bytes)");
  const uint64_t version = get_le(p + 8, 2);
  if (version != kVersion)
    return bad("cover format version " + std::to_string(version) + ", this egtmin reads version " +
               std::to_string(kVersion));
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
  if (cover.inputs != 1 + 6 * cover.balance.pieces() || cover.inputs > logic::kMaxInputs)
    return bad("inputs " + std::to_string(cover.inputs) + " do not fit balance " + name);
  if (p[11] > uint8_t(CanonScheme::Full)) return bad("unknown canon scheme " + std::to_string(p[11]));
  cover.canon = CanonScheme(p[11]);
  cover.passes.assign(reinterpret_cast<const char*>(p + passes_at), passes_len);

  const uint64_t count = get_le(p + 12, 8);
  const uint64_t payload_len = get_le(p + 20, 8);
  if (count > kMaxCubes) return bad("implausible cube count " + std::to_string(count));
  if (payload_len != size - payload_at)
    return bad("payload is " + std::to_string(size - payload_at) + " bytes, header says " +
               std::to_string(payload_len) + (payload_len > size - payload_at ? " (truncated file)" : " (trailing bytes)"));
  if (get_le(p + 28, 8) != lzma_crc64(p + payload_at, payload_len, 0)) return bad("payload checksum mismatch (corrupted)");

  std::vector<uint8_t> raw(count * 8);
  size_t in_pos = 0, out_pos = 0;
  uint64_t memlimit = uint64_t{1} << 30;
  lzma_ret r = lzma_stream_buffer_decode(&memlimit, 0, nullptr, p + payload_at, &in_pos, payload_len, raw.data(),
                                         &out_pos, raw.size());
  if (r == LZMA_BUF_ERROR) return bad("payload holds more cubes than the header's " + std::to_string(count));
  if (r != LZMA_OK) return bad("cannot decompress payload (xz error " + std::to_string(int(r)) + ")");
  if (in_pos != payload_len) return bad("trailing bytes after the compressed payload");
  if (out_pos != raw.size())
    return bad("payload holds " + std::to_string(out_pos / 8) + " cubes" + (out_pos % 8 ? " and a partial one" : "") +
               ", header says " + std::to_string(count));

  cover.cubes.resize(count);
  for (uint64_t i = 0; i < count; ++i) {
    logic::CubeWord c = get_le(raw.data() + 8 * i, 8);
    if (const char* why = cube_problem(c, cover.inputs))
      return bad("cube " + std::to_string(i) + " (" + logic::to_text(c, cover.inputs) + ") " + why);
    if (i > 0 && c < cover.cubes[i - 1]) return bad("cubes are not sorted (cube " + std::to_string(i) + ")");
    cover.cubes[i] = c;
  }
  return cover;
}

Result<CoverFile> load_cover(const fs::path& path, const Balance* expected) {
  auto bytes = read_file(path);
  if (!bytes) return bytes.error();
  return parse_cover(*bytes, path.string(), expected);
}

}  // namespace egtmin::store
