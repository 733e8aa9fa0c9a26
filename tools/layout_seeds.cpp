// SPDX-License-Identifier: GPL-3.0-or-later
// The layout fuzz target's seeds (fuzz/corpus/layout): one layout of each shape the reader and
// the hot path have, made from covers on disk at the current layout version, so that mutants reach
// the indexes past the version check. The shapes: a front line with its leaf (KQvK, KQvKR), a
// 3-piece, a 4-piece and a 5-piece region index (KPvK, KRPvK, KQQvKB, regions forced), and a
// standalone cover's layout with the 50-move rule's draws and regions (KQvKR-rule.egtl), and the
// 5-piece regions with their cubes in zstd frames (KQQvKB-framed.egtlr). Regions end in position
// lists where those take fewer words, as in every layout.
//
//   egtmin_layout_seeds DATA_DIR OUT_DIR [FILE...]
//
// With FILEs, only those seeds are written.
//
// Reads the capture-resolved covers DATA_DIR/covers/NAME.egtcr (and the covers beside them, for
// what the capture search decides) and KQvKR's standalone cover NAME.egtc.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "probe/capture_freedom.hpp"
#include "probe/probe_layout.hpp"
#include "store/cover_file.hpp"

using namespace egtmin;
using namespace egtmin::probe;
namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: egtmin_layout_seeds DATA_DIR OUT_DIR [FILE...]\n");
    return 2;
  }
  const fs::path data = argv[1], out = argv[2];
  const std::vector<std::string> only(argv + 3, argv + argc);
  struct Seed {
    const char* name;
    store::CoverKind kind;
    RegionPolicy regions;
    const char* file;
    RegionCubes cubes = RegionCubes::Plain;
  };
  const std::vector<Seed> seeds{
      {"KQvK", store::CoverKind::CaptureResolved, RegionPolicy::Auto, "KQvK.egtlr"},
      {"KQvKR", store::CoverKind::CaptureResolved, RegionPolicy::Auto, "KQvKR.egtlr"},
      {"KPvK", store::CoverKind::CaptureResolved, RegionPolicy::Always, "KPvK.egtlr"},
      {"KRPvK", store::CoverKind::CaptureResolved, RegionPolicy::Always, "KRPvK.egtlr"},
      {"KQQvKB", store::CoverKind::CaptureResolved, RegionPolicy::Always, "KQQvKB.egtlr"},
      {"KQvKR", store::CoverKind::Standalone, RegionPolicy::Always, "KQvKR-rule.egtl"},
      {"KQQvKB", store::CoverKind::CaptureResolved, RegionPolicy::Always, "KQQvKB-framed.egtlr", RegionCubes::Framed},
  };
  for (const Seed& s : seeds) {
    if (!only.empty() && std::find(only.begin(), only.end(), s.file) == only.end()) continue;
    const auto balance = Balance::parse(s.name);
    const fs::path path = store::cover_path(data, *balance, s.kind);
    auto id = cover_identity(path);
    auto cover = store::load_cover(path, &*balance);
    if (!id || !cover) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), (!id ? id.error() : cover.error()).message.c_str());
      return 1;
    }
    std::optional<RegionFreedom> freedom;
    auto lc = CoverProber::build(std::move(*cover), CoverProber::kDefaultCopies, s.regions, 1,
                                 [&](const Encoding& enc, const CoverCanon& canon) -> const RegionFreedom* {
                                   freedom = capture_freedom(data, enc, canon, 1);
                                   return freedom ? &*freedom : nullptr;
                                 });
    if (!lc) {
      std::fprintf(stderr, "%s: %s\n", s.name, lc.error().message.c_str());
      return 1;
    }
    if (auto saved = save_layout(out / s.file, **lc, *id, s.cubes); !saved) {
      std::fprintf(stderr, "%s: %s\n", s.file, saved.error().message.c_str());
      return 1;
    }
    std::printf("%s: %llu bytes\n", s.file, (unsigned long long)fs::file_size(out / s.file));
  }
  return 0;
}
