// SPDX-License-Identifier: GPL-3.0-or-later
// Probe layout files (DATA/covers/NAME.egtl): what the indexed probe of one cover reads, built
// once from the cover file and stored beside it, so that opening a cover for probing maps a file
// instead of decoding millions of cubes and rebuilding their index, which is long at 5 pieces.
//
// Read-only and memory-mapped: the hot words (front line, tree or region directory and cubes) are
// used where they lie in the mapping, so opening costs two checksums and no copy, pages no probe
// touches cost no memory, and processes probing the same covers share the pages. The file names
// the cover it was built from (its size and CRC-64): beside a cover, a layout of another or older
// cover is not used, and the prober builds and writes a new one.
//
// A layout also probes on its own, without its cover file: it holds everything the indexed probe
// and the capture search read (the cover's description, its 50-move-rule draws, the index), so
// the layouts alone are what a user keeps on disk to probe at speed, and a cover file is what a
// layout is made from, what the linear probe scans and what names the cube that answered. Without
// the cover to compare against, the layout's own checksum is the check. Format (little-endian,
// x86-64 layout of the fields): docs/file-format.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include "probe/cover_prober.hpp"
#include "probe/layout_bytes.hpp"
#include "probe/region_frames.hpp"
#include "store/cover_kind.hpp"
#include "util/result.hpp"

namespace egtmin::probe {

// Version 16 may hold its regions' directory and cubes in frames (kLayoutFramedRegions); without
// them its payload is version 14's and 15's byte for byte, so layouts of versions 14 and 15 are as
// current as a version-16 one (kOldestCurrentLayoutVersion), except a version-15 layout with framed
// regions, whose frames held the cubes alone (kUnreadFramedLayoutVersion): that one is not read,
// and is made again from its cover as a missing one is. Version 14 may hold leaves of input rows
// (CubeIndex, LeafRows::Inputs), version 12 the rule's draws as rows (RuleDraws); layouts of
// versions 11 and 12, which have neither, read the same and are still read. Version 13's leaves of
// input rows kept each block's header among its rows, behind offsets, and are not read
// (kUnreadLayoutVersion): such a layout is made again as well.
inline constexpr uint32_t kLayoutVersion = 16;
inline constexpr uint32_t kOldestCurrentLayoutVersion = 14;
inline constexpr uint32_t kOldestLayoutVersion = 11;
inline constexpr uint32_t kUnreadLayoutVersion = 13;
inline constexpr uint32_t kUnreadFramedLayoutVersion = 15;
// The header's flags (version 15 on; zero before): the region index is in frames (RegionFrames),
// stored after the rule's draws.
inline constexpr uint32_t kLayoutFramedRegions = 1;

// The file's header (64 bytes, so the payload and its aligned arrays start on a cache line):
//   0  8  magic
//   8  4  version
//  12  4  flags (kLayoutFramedRegions)
//  16  8  the cover file's size
//  24  8  the cover file's CRC-64
//  32  8  payload bytes
//  40  8  payload CRC-64
//  48 16  zero
inline constexpr std::array<char, 8> kLayoutMagic = {'E', 'G', 'T', 'L', 'A', 'Y', 'T', '\n'};
inline constexpr size_t kLayoutHeaderBytes = 64;

// NAME.egtc -> NAME.egtl, NAME.egtcr -> NAME.egtlr, in the same directory.
std::filesystem::path layout_path(const std::filesystem::path& cover_path);
// Whether the cover at `cover_path` can be probed: its file, or else its layout, is on disk.
bool probeable(const std::filesystem::path& cover_path);
// The covers of `kind` that `dir` can probe, in name order: each cover file, and each layout
// whose cover file is not there, named by its cover's path (CoverProber::load then opens the
// layout alone). `ec` says why the directory could not be read.
std::vector<std::filesystem::path> probeable_covers(const std::filesystem::path& dir, store::CoverKind kind,
                                                    std::error_code& ec);

// Which cover file a layout belongs to.
struct CoverIdentity {
  uint64_t bytes = 0;
  uint64_t crc64 = 0;  // of the whole file (lzma_crc64)
  bool operator==(const CoverIdentity&) const = default;
};
Result<CoverIdentity> cover_identity(const std::filesystem::path& cover_path);

// The layout's bytes for a cover built in memory (CoverProber::build), its region index stored as
// `cubes` says (Framed only where it has a region index; then framed as `framing` says), and the
// file written atomically.
std::vector<uint8_t> serialize_layout(const LoadedCover& lc, const CoverIdentity& id,
                                      RegionCubes cubes = RegionCubes::Plain,
                                      Framing framing = RegionFrames::kFramings[0]);
Status save_layout(const std::filesystem::path& path, const LoadedCover& lc, const CoverIdentity& id,
                   RegionCubes cubes = RegionCubes::Plain, Framing framing = RegionFrames::kFramings[0]);

// Builds the default index of the cover file at `cover_path` and writes its layout beside it
// (what minimize does after saving a cover), its regions planned on `threads` threads (0: one per
// core; the same layout for any number). A capture-resolved cover's regions leave to its capture
// search what the search decides when the covers it reaches are beside it (capture_freedom.hpp),
// and answer as the cover does otherwise; with CheckEvasions::Searched, also the positions in
// check the evasion search decides, where the balance's table is beside them. `bytes`: what the
// layout should take: where the fast form (plain cubes) takes more than its target, its region
// index is framed (none: always the fast form), as chosen_framing says; where no form comes within
// the ceiling either, with CheckEvasions::Searched, the regions are planned again leaving the
// positions in check to the search wherever that spares bytes
// (kEvasionSearchMinBytesPerThousandOverCeiling), and the smaller layout is kept.
Status make_layout(const std::filesystem::path& cover_path, int threads = 1,
                   CheckEvasions evasions = kDefaultCheckEvasions, std::optional<LayoutBytes> bytes = std::nullopt);
// Which form make_layout keeps, given the layout's bytes plain and framed in the first of
// RegionFrames::kFramings (fastest to decode first; none: the plain form). The forms go fastest
// first, the plain one before every framing: the first within `bytes.target`; when none is, the
// first within `bytes.ceiling`; when none is, the one of fewest bytes. Why: the bound is what the
// user asked the layout to keep to, and a faster probe is worth bytes only within it; over the
// ceiling too, every byte framing takes off counts.
std::optional<size_t> chosen_framing(LayoutBytes bytes, uint64_t plain_bytes, std::span<const uint64_t> framed_bytes);

// Where a layout's bytes go: the front line and tree (CubeIndex hot words), the region directory
// and cubes (plain or framed), the 50-move rule's draws, and the rest (header, the cover's description, the
// indexes' fields, alignment).
struct LayoutParts {
  uint64_t index = 0, regions = 0, rule_draws = 0, rest = 0;
  LayoutParts& operator+=(const LayoutParts& o) {
    index += o.index, regions += o.regions, rule_draws += o.rule_draws, rest += o.rest;
    return *this;
  }
};
// The parts of a cover opened from its layout (from_layout()).
LayoutParts layout_parts(const LoadedCover& lc);

// Whether the file at `path` is a layout this egtmin reads made from the cover of identity `id`
// (its header alone: what opening it checks before the payload's checksum), and one it would make
// no smaller: an older version's is made again where it holds what a newer one may store in
// fewer bytes: the rule's draws (rows, version 12) or a five-piece cover's one leaf (input rows,
// arranged in fewer rows by version 14). Version 14's are current (kOldestCurrentLayoutVersion).
bool layout_is_current(const std::filesystem::path& path, const CoverIdentity& id);

// What the layout file at `path` is, from its header: its bytes, format version and how it stores
// its region cubes (all zero, and Plain, when it is missing or not a layout this egtmin reads).
struct LayoutOnDisk {
  uint64_t bytes = 0;
  uint32_t version = 0;
  RegionCubes cubes = RegionCubes::Plain;
};
LayoutOnDisk layout_on_disk(const std::filesystem::path& path);
// How the layout at `path` stores its region cubes (Plain when it cannot be read).
inline RegionCubes layout_cubes(const std::filesystem::path& path) { return layout_on_disk(path).cubes; }

// The cover ready to probe from its layout: indexes in place in the mapping, the cubes left in the
// cover file at `cover_path` until something asks for them (LoadedCover::cubes). `id`: the cover
// file's identity, which the layout must name; nothing when the cover file is not on disk (an
// empty `cover_path`: no cubes to load, the layout's checksum the only check). Errors say why the
// layout cannot be used (missing, another cover's, another version, truncated, corrupted); beside
// its cover none of them is fatal to a prober, which then builds from the cover.
Result<std::unique_ptr<LoadedCover>> open_layout(const std::filesystem::path& path,
                                                 const std::optional<CoverIdentity>& id,
                                                 const std::filesystem::path& cover_path);
// The same from a layout's bytes, which must outlive the cover (its indexes point into them), with
// the cubes' file unnamed; errors start with `where`. Every offset the hot path follows is checked,
// so a layout accepted here answers every probe from inside its bytes (fuzz/fuzz_layout.cpp).
Result<std::unique_ptr<LoadedCover>> parse_layout(std::span<const uint8_t> bytes,
                                                  const std::optional<CoverIdentity>& id, const std::string& where);

}  // namespace egtmin::probe
