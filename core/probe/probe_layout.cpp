// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/probe_layout.hpp"

#include <lzma.h>

#include <array>
#include <cstring>
#include <fstream>

#include "table/encoding.hpp"
#include "util/atomic_file.hpp"
#include "util/byte_io.hpp"
#include "util/mapped_file.hpp"

namespace egtmin::probe {

namespace fs = std::filesystem;

namespace {

// Header (64 bytes, so the payload and its aligned arrays start on a cache line):
//   0  8  magic
//   8  4  version
//  12  4  zero
//  16  8  the cover file's size
//  24  8  the cover file's CRC-64
//  32  8  payload bytes
//  40  8  payload CRC-64
//  48 16  zero
constexpr std::array<char, 8> kMagic = {'E', 'G', 'T', 'L', 'A', 'Y', 'T', '\n'};
constexpr size_t kHeader = 64;

template <class T>
T read_at(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

}  // namespace

fs::path layout_path(const fs::path& cover_path) {
  fs::path p = cover_path;
  // Each kind of cover has its own layout: NAME.egtc's is NAME.egtl, NAME.egtcr's NAME.egtlr.
  p.replace_extension(cover_path.extension() == store::cover_extension(store::CoverKind::CaptureResolved) ? ".egtlr"
                                                                                                          : ".egtl");
  return p;
}

Result<CoverIdentity> cover_identity(const fs::path& cover_path) {
  std::ifstream in(cover_path, std::ios::binary);
  if (!in) return Error{cover_path.string() + ": cannot read"};
  CoverIdentity id;
  std::vector<char> buf(size_t{1} << 20);
  while (in) {
    in.read(buf.data(), std::streamsize(buf.size()));
    const size_t n = size_t(in.gcount());
    id.crc64 = lzma_crc64(reinterpret_cast<const uint8_t*>(buf.data()), n, id.crc64);
    id.bytes += n;
  }
  if (in.bad()) return Error{cover_path.string() + ": read error"};
  return id;
}

std::vector<uint8_t> serialize_layout(const LoadedCover& lc, const CoverIdentity& id) {
  ByteWriter w;
  w.put(lc.file.balance.name());
  w.put(int32_t(lc.file.inputs));
  // The cover's kind (bits 4-5) and implied output (bits 6-7) ride in the scheme byte's high bits,
  // as in the cover file (0 for standalone covers storing every output: their layouts are as before).
  w.put(uint8_t(uint8_t(lc.file.canon) | uint8_t(lc.file.kind) << 4 | uint8_t(lc.file.implied) << 6));
  w.put(lc.file.passes);
  w.put(lc.file.rule_draws);
  w.put(uint64_t(lc.cube_count()));
  lc.index.save_state(w);
  lc.region.save_state(w);
  // Aligned to the payload's start, which is on a cache line of the file (kHeader).
  w.put_aligned(lc.index.hot_words());
  w.put_aligned(lc.region.built() ? lc.region.hot_words() : std::span<const uint64_t>{});
  const std::vector<uint8_t>& payload = w.bytes();

  // Sized once, then filled: header and payload (also keeps GCC 12 from a false -Warray-bounds on
  // growing a 64-byte vector by insert).
  std::vector<uint8_t> out(kHeader + payload.size(), 0);
  std::memcpy(out.data(), kMagic.data(), kMagic.size());
  auto put = [&](size_t at, auto v) { std::memcpy(out.data() + at, &v, sizeof(v)); };
  put(8, kLayoutVersion);
  put(16, id.bytes);
  put(24, id.crc64);
  put(32, uint64_t(payload.size()));
  put(40, lzma_crc64(payload.data(), payload.size(), 0));
  if (!payload.empty()) std::memcpy(out.data() + kHeader, payload.data(), payload.size());
  return out;
}

Status save_layout(const fs::path& path, const LoadedCover& lc, const CoverIdentity& id) {
  const std::vector<uint8_t> bytes = serialize_layout(lc, id);
  if (auto st = write_file_atomically(path, bytes); !st) return st;
  // The writes left the file cached in small pages; its first mapping reads it in huge ones.
  if (bytes.size() >= MappedFile::kHugePage) MappedFile::forget_cached_pages(path);
  return ok_status();
}

Status make_layout(const fs::path& cover_path) {
  auto id = cover_identity(cover_path);
  if (!id) return id.error();
  auto cover = store::load_cover(cover_path);
  if (!cover) return cover.error();
  auto lc = CoverProber::build(std::move(*cover), CoverProber::kDefaultCopies, RegionPolicy::Auto);
  if (!lc) return lc.error();
  return save_layout(layout_path(cover_path), **lc, *id);
}

Result<std::unique_ptr<LoadedCover>> open_layout(const fs::path& path, const CoverIdentity& id,
                                                 const fs::path& cover_path) {
  auto mapped = MappedFile::open(path);
  if (!mapped) return mapped.error();
  const std::span<const uint8_t> bytes = mapped->bytes();
  const std::string where = path.string() + ": ";
  if (bytes.size() < kHeader || std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0)
    return Error{where + "not a probe layout file"};
  const uint8_t* h = bytes.data();
  if (read_at<uint32_t>(h + 8) != kLayoutVersion)
    return Error{where + "layout version " + std::to_string(read_at<uint32_t>(h + 8)) + ", this egtmin reads " +
                 std::to_string(kLayoutVersion)};
  if (read_at<uint64_t>(h + 16) != id.bytes || read_at<uint64_t>(h + 24) != id.crc64)
    return Error{where + "made from another cover file"};
  const uint64_t payload_bytes = read_at<uint64_t>(h + 32);
  if (payload_bytes != bytes.size() - kHeader) return Error{where + "truncated or padded"};
  const std::span<const uint8_t> payload = bytes.subspan(kHeader);
  if (lzma_crc64(payload.data(), payload.size(), 0) != read_at<uint64_t>(h + 40))
    return Error{where + "checksum mismatch (corrupted)"};

  auto lc = std::make_unique<LoadedCover>();
  ByteReader r(payload, kHeader);
  std::string name;
  int32_t inputs = 0;
  uint8_t canon = 0;
  uint64_t cubes = 0;
  r.get(name);
  r.get(inputs);
  r.get(canon);
  r.get(lc->file.passes);
  r.get(lc->file.rule_draws);
  r.get(cubes);
  const auto balance = Balance::parse(name);
  if (!r.ok() || !balance || balance->pieces() < 2 || balance->pieces() > 5 ||
      inputs != inputs_for(balance->pieces()) || (canon & 15) > uint8_t(CanonScheme::Full) ||
      ((canon >> 4) & 3) > uint8_t(store::CoverKind::CaptureResolved))
    return Error{where + "damaged description of the cover"};
  lc->file.balance = *balance;
  lc->file.inputs = inputs;
  lc->file.canon = CanonScheme(canon & 15);
  lc->file.kind = store::CoverKind((canon >> 4) & 3);
  lc->file.implied = logic::Output(canon >> 6);
  lc->encoding = Encoding(*balance);
  lc->canon = CoverCanon(lc->encoding, lc->file.canon);
  lc->index.load_state(r);
  lc->region.load_state(r);
  const std::span<const uint64_t> index_words = r.view_aligned(), region_words = r.view_aligned();
  if (!r.ok() || !r.at_end()) return Error{where + "damaged (its parts do not add up)"};
  if (!lc->index.attach_hot_words(index_words) || !lc->region.attach_hot_words(region_words))
    return Error{where + "damaged index"};
  lc->set_lazy_cubes(cover_path, cubes);
  lc->layout = std::move(*mapped);
  return lc;
}

}  // namespace egtmin::probe
