// SPDX-License-Identifier: GPL-3.0-or-later
// Making probe layout files: a built cover's layout serialized and written atomically; reading
// them is in probe_layout.cpp.
#include <lzma.h>

#include <algorithm>
#include <cstring>

#include "probe/capture_freedom.hpp"
#include "probe/probe_layout.hpp"
#include "util/atomic_file.hpp"
#include "util/byte_io.hpp"
#include "util/mapped_file.hpp"

namespace egtmin::probe {

namespace fs = std::filesystem;

namespace {

Status write_layout(const fs::path& path, const std::vector<uint8_t>& bytes) {
  if (auto st = write_file_atomically(path, bytes); !st) return st;
  // The writes left the file cached in small pages; its first mapping reads it in huge ones.
  if (bytes.size() >= MappedFile::kHugePage) MappedFile::forget_cached_pages(path);
  return ok_status();
}

}  // namespace

std::vector<uint8_t> serialize_layout(const LoadedCover& lc, const CoverIdentity& id, RegionCubes cubes,
                                      Framing framing) {
  const bool framed = cubes == RegionCubes::Framed && lc.region.built();
  ByteWriter w;
  w.put(lc.file.balance.name());
  w.put(int32_t(lc.file.inputs));
  // The cover's kind (bits 4-5) and implied output (bits 6-7) ride in the scheme byte's high bits,
  // as in the cover file (0 for standalone covers storing every output: their layouts are as before).
  w.put(uint8_t(uint8_t(lc.file.canon) | uint8_t(lc.file.kind) << 4 | uint8_t(lc.file.implied) << 6));
  w.put(lc.file.passes);
  w.put(uint64_t(lc.cube_count()));
  lc.index.save_state(w);
  lc.region.save_state(w);
  // Aligned to the payload's start, which is on a cache line of the file (kLayoutHeaderBytes).
  w.put_aligned(lc.index.hot_words());
  w.put_aligned(!lc.region.built() ? std::span<const uint64_t>{}
                : framed           ? lc.region.framed_hot_words()
                                   : lc.region.hot_words());
  w.put_aligned(lc.rules.words());
  if (framed) w.put_aligned(lc.region.framed_words(framing));
  const std::vector<uint8_t>& payload = w.bytes();

  // Sized once, then filled: header and payload (also keeps GCC 12 from a false -Warray-bounds on
  // growing a 64-byte vector by insert).
  std::vector<uint8_t> out(kLayoutHeaderBytes + payload.size(), 0);
  std::memcpy(out.data(), kLayoutMagic.data(), kLayoutMagic.size());
  auto put = [&](size_t at, auto v) { std::memcpy(out.data() + at, &v, sizeof(v)); };
  put(8, kLayoutVersion);
  put(12, framed ? kLayoutFramedRegions : 0u);
  put(16, id.bytes);
  put(24, id.crc64);
  put(32, uint64_t(payload.size()));
  put(40, lzma_crc64(payload.data(), payload.size(), 0));
  if (!payload.empty()) std::memcpy(out.data() + kLayoutHeaderBytes, payload.data(), payload.size());
  return out;
}

Status save_layout(const fs::path& path, const LoadedCover& lc, const CoverIdentity& id, RegionCubes cubes,
                   Framing framing) {
  return write_layout(path, serialize_layout(lc, id, cubes, framing));
}

std::optional<size_t> chosen_framing(LayoutBytes bytes, uint64_t plain_bytes, std::span<const uint64_t> framed_bytes) {
  for (const uint64_t most : {bytes.target, std::max(bytes.target, bytes.ceiling)}) {
    if (plain_bytes <= most) return std::nullopt;
    for (size_t i = 0; i < framed_bytes.size(); ++i)
      if (framed_bytes[i] <= most) return i;
  }
  const auto smallest = std::min_element(framed_bytes.begin(), framed_bytes.end());
  if (smallest == framed_bytes.end() || *smallest >= plain_bytes) return std::nullopt;
  return size_t(smallest - framed_bytes.begin());
}

Status make_layout(const fs::path& cover_path, int threads, CheckEvasions evasions, std::optional<LayoutBytes> bound) {
  auto id = cover_identity(cover_path);
  if (!id) return id.error();
  auto cover = store::load_cover(cover_path);
  if (!cover) return cover.error();
  // A capture-resolved cover's regions need not answer what its capture search decides: found by
  // probing the covers beside it that the search reaches (DATA/covers holds them all), once, for
  // every plan of the regions below.
  const fs::path data_dir = cover_path.parent_path().parent_path();
  std::optional<std::optional<RegionFreedom>> found;
  // The layout's bytes in the form the bound keeps, its regions leaving the positions in check to
  // the search where that spares at least `min_searched` bytes per thousand of them.
  auto layout_bytes = [&](store::CoverFile file, uint32_t min_searched) -> Result<std::vector<uint8_t>> {
    auto lc = CoverProber::build(std::move(file), CoverProber::kDefaultCopies, RegionPolicy::Auto, threads,
                                 [&](const Encoding& enc, const CoverCanon& canon) -> const RegionFreedom* {
                                   if (!found) found = capture_freedom(data_dir, enc, canon, threads, evasions);
                                   if (!*found) return nullptr;
                                   (*found)->min_bytes_per_thousand_searched = min_searched;
                                   return &**found;
                                 });
    if (!lc) return lc.error();
    std::vector<uint8_t> bytes = serialize_layout(**lc, *id);
    if (bound && bytes.size() > bound->target && (*lc)->region.built()) {
      // Framed the fastest way first, until one fits the target.
      std::vector<std::vector<uint8_t>> framed;
      std::vector<uint64_t> sizes;
      for (const Framing framing : RegionFrames::kFramings) {
        framed.push_back(serialize_layout(**lc, *id, RegionCubes::Framed, framing));
        sizes.push_back(framed.back().size());
        if (sizes.back() <= bound->target) break;
      }
      if (const auto kept = chosen_framing(*bound, bytes.size(), sizes)) bytes = std::move(framed[*kept]);
    }
    return bytes;
  };
  auto bytes = layout_bytes(std::move(*cover), kEvasionSearchMinBytesPerThousand);
  if (!bytes) return bytes.error();
  const bool searched_evasions = found && *found && !(*found)->evasions.empty();
  if (bound && evasions == CheckEvasions::Searched && searched_evasions &&
      bytes->size() > std::max(bound->target, bound->ceiling)) {
    // Rare (a layout over its ceiling): the cover read again rather than copied for every layout.
    cover = store::load_cover(cover_path);
    if (!cover) return cover.error();
    auto fewer = layout_bytes(std::move(*cover), kEvasionSearchMinBytesPerThousandOverCeiling);
    if (!fewer) return fewer.error();
    if (fewer->size() < bytes->size()) bytes = std::move(fewer);
  }
  return write_layout(layout_path(cover_path), *bytes);
}

}  // namespace egtmin::probe
