// SPDX-License-Identifier: GPL-3.0-or-later
// Reading probe layout files (and naming the cover a layout belongs to); making and writing them
// is in probe_layout_write.cpp.
#include "probe/probe_layout.hpp"

#include <lzma.h>

#include <algorithm>
#include <cstring>
#include <fstream>

#include "store/cover_kind.hpp"
#include "table/encoding.hpp"
#include "util/atomic_file.hpp"
#include "util/byte_io.hpp"
#include "util/defaults.hpp"
#include "util/mapped_file.hpp"

namespace egtmin::probe {

namespace fs = std::filesystem;

namespace {

template <class T>
T read_at(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// Why a layout's header (at least kLayoutHeaderBytes at `h`) does not name this egtmin's version
// and the cover of identity `id` (any cover without one); empty when it does.
std::string header_problem(const uint8_t* h, const std::optional<CoverIdentity>& id) {
  if (std::memcmp(h, kLayoutMagic.data(), kLayoutMagic.size()) != 0) return "not a probe layout file";
  if (const uint32_t v = read_at<uint32_t>(h + 8); v < kOldestLayoutVersion || v > kLayoutVersion)
    return "layout version " + std::to_string(v) + ", this egtmin reads " + std::to_string(kOldestLayoutVersion) +
           " to " + std::to_string(kLayoutVersion);
  else if (v == kUnreadLayoutVersion)
    return "layout version " + std::to_string(v) + ", whose leaves of input rows this egtmin lays out otherwise";
  const uint32_t version = read_at<uint32_t>(h + 8), flags = read_at<uint32_t>(h + 12);
  if (version == kUnreadFramedLayoutVersion && flags == kLayoutFramedRegions)
    return "layout version " + std::to_string(version) +
           " with framed region cubes, whose directory this egtmin reads from the frames";
  if (flags & ~(version >= kUnreadFramedLayoutVersion ? kLayoutFramedRegions : 0u))
    return "layout flags " + std::to_string(flags) + " this egtmin does not know";
  if (id && (read_at<uint64_t>(h + 16) != id->bytes || read_at<uint64_t>(h + 24) != id->crc64))
    return "made from another cover file";
  return {};
}

}  // namespace

fs::path layout_path(const fs::path& cover_path) {
  fs::path p = cover_path;
  // Each kind of cover has its own layout: NAME.egtc's is NAME.egtl, NAME.egtcr's NAME.egtlr.
  const bool resolved = cover_path.extension() == store::cover_extension(store::CoverKind::CaptureResolved);
  p.replace_extension(
      store::layout_extension(resolved ? store::CoverKind::CaptureResolved : store::CoverKind::Standalone));
  return p;
}

bool probeable(const fs::path& cover_path) {
  std::error_code ec;
  return fs::exists(cover_path, ec) || fs::exists(layout_path(cover_path), ec);
}

std::vector<fs::path> probeable_covers(const fs::path& dir, store::CoverKind kind, std::error_code& ec) {
  std::vector<fs::path> out;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& f = it->path();
    if (f.extension() == store::cover_extension(kind)) {
      out.push_back(f);
    } else if (f.extension() == store::layout_extension(kind)) {
      fs::path cover = f;
      cover.replace_extension(store::cover_extension(kind));
      std::error_code exists_ec;
      if (!fs::exists(cover, exists_ec)) out.push_back(cover);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
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

LayoutParts layout_parts(const LoadedCover& lc) {
  LayoutParts p;
  p.index = lc.index.hot_words().size_bytes();
  p.regions = lc.region.built() ? lc.region.hot_words().size_bytes() + lc.region.frames_bytes() : 0;
  p.rule_draws = lc.rules.words().size_bytes();
  p.rest = lc.layout.size() - p.index - p.regions - p.rule_draws;
  return p;
}

bool layout_is_current(const fs::path& path, const CoverIdentity& id) {
  std::ifstream in(path, std::ios::binary);
  std::array<uint8_t, kLayoutHeaderBytes> h{};
  if (!in.read(reinterpret_cast<char*>(h.data()), std::streamsize(h.size())) || !header_problem(h.data(), id).empty())
    return false;
  const uint32_t version = read_at<uint32_t>(h.data() + 8);
  if (version >= kOldestCurrentLayoutVersion) return true;
  auto lc = open_layout(path, id, {});
  if (!lc) return false;
  const bool draws_as_set = version < 12 && !(*lc)->rules.empty();
  const bool five_piece_leaf = (*lc)->file.balance.pieces() == 5 && !(*lc)->region.built();
  return !draws_as_set && !five_piece_leaf;
}

LayoutOnDisk layout_on_disk(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<uint8_t, kLayoutHeaderBytes> h{};
  if (!in.read(reinterpret_cast<char*>(h.data()), std::streamsize(h.size())) || !header_problem(h.data(), {}).empty())
    return {};
  std::error_code ec;
  const uint64_t bytes = fs::file_size(path, ec);
  if (ec) return {};
  return {bytes, read_at<uint32_t>(h.data() + 8),
          read_at<uint32_t>(h.data() + 12) & kLayoutFramedRegions ? RegionCubes::Framed : RegionCubes::Plain};
}

Result<std::unique_ptr<LoadedCover>> parse_layout(std::span<const uint8_t> bytes,
                                                  const std::optional<CoverIdentity>& id, const std::string& where) {
  if (bytes.size() < kLayoutHeaderBytes) return Error{where + "not a probe layout file"};
  const uint8_t* h = bytes.data();
  if (std::string problem = header_problem(h, id); !problem.empty()) return Error{where + problem};
  const uint64_t payload_bytes = read_at<uint64_t>(h + 32);
  if (payload_bytes != bytes.size() - kLayoutHeaderBytes) return Error{where + "truncated or padded"};
  const std::span<const uint8_t> payload = bytes.subspan(kLayoutHeaderBytes);
  if (lzma_crc64(payload.data(), payload.size(), 0) != read_at<uint64_t>(h + 40))
    return Error{where + "checksum mismatch (corrupted)"};

  auto lc = std::make_unique<LoadedCover>();
  ByteReader r(payload, kLayoutHeaderBytes);
  std::string name;
  int32_t inputs = 0;
  uint8_t canon = 0;
  uint64_t cubes = 0;
  r.get(name);
  r.get(inputs);
  r.get(canon);
  r.get(lc->file.passes);
  r.get(cubes);
  const auto balance = Balance::parse(name);
  if (!r.ok() || !balance || !is_supported(*balance) || inputs != inputs_for(balance->pieces()) ||
      (canon & 15) > uint8_t(CanonScheme::Full) || ((canon >> 4) & 3) > uint8_t(store::CoverKind::CaptureResolved))
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
  const std::span<const uint64_t> index_words = r.view_aligned(), region_words = r.view_aligned(),
                                  rule_words = r.view_aligned();
  const bool framed = read_at<uint32_t>(h + 12) & kLayoutFramedRegions;
  const std::span<const uint64_t> frame_words = framed ? r.view_aligned() : std::span<const uint64_t>{};
  if (!r.ok() || !r.at_end()) return Error{where + "damaged (its parts do not add up)"};
  std::unique_ptr<RegionFrames> frames;
  if (framed) {
    auto attached = RegionFrames::attach(frame_words);
    if (!attached) return Error{where + attached.error().message};
    frames = std::move(*attached);
  }
  // The indexes must be of this balance's encoding: the hot path reads them with its piece count.
  if (lc->index.inputs() != inputs || !lc->index.attach_hot_words(index_words) ||
      (!region_words.empty() && lc->region.pieces() != balance->pieces()) ||
      !lc->region.attach_hot_words(region_words, std::move(frames)))
    return Error{where + "damaged index"};
  auto rules = RuleDraws::attach(rule_words);
  if (!rules) return Error{where + rules.error().message};
  lc->rules = std::move(*rules);
  lc->set_lazy_cubes({}, cubes);
  return lc;
}

Result<std::unique_ptr<LoadedCover>> open_layout(const fs::path& path, const std::optional<CoverIdentity>& id,
                                                 const fs::path& cover_path) {
  auto mapped = MappedFile::open(path);
  if (!mapped) return mapped.error();
  // The indexes point into the mapping, which moves into the cover with its pages in place.
  auto lc = parse_layout(mapped->bytes(), id, path.string() + ": ");
  if (!lc) return lc.error();
  (*lc)->layout = std::move(*mapped);
  (*lc)->set_lazy_cubes(cover_path, (*lc)->cube_count());  // the count parse_layout read
  return lc;
}

}  // namespace egtmin::probe
