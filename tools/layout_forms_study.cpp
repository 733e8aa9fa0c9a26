// SPDX-License-Identifier: GPL-3.0-or-later
// What a cover's probe layout costs in each of the indexed probe's forms, and which one the
// default (RegionPolicy::Auto) takes: per cover file, the layout bytes with the regions
// (RegionPolicy::Always: the front line and a region index), with the front line (one block)
// and one leaf of the cover's cubes (no copies: the tree with a budget of one copy a cube,
// RegionPolicy::Never), and the default's (whose one leaf has a front line of at most 4 blocks);
// the one leaf's blocks scanned per probe, on average over 20,000 random legal positions'
// representatives (0 for those the front line answers); and the probe-ready bytes (the default
// layout, which probes without its cover file) against the balance's Syzygy WDL file when one is given.
//
//   egtmin_layout_forms_study [--sizes TSV] COVER_FILE...
//
// TSV: lines of "bytes<TAB>NAME.rtbw" (docs/syzygy-wdl-sizes.tsv). Nothing is written; each layout
// is built in memory on two threads, as a prober builds it.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "probe/probe_layout.hpp"
#include "store/cover_file.hpp"

using namespace egtmin;
using namespace egtmin::probe;

namespace {

std::map<std::string, uint64_t> read_sizes(const char* tsv) {
  std::map<std::string, uint64_t> sizes;
  std::ifstream in(tsv);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name;
    uint64_t bytes = 0;
    if (fields >> bytes >> name && name.size() > 5) sizes[name.substr(0, name.size() - 5)] = bytes;
  }
  return sizes;
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, uint64_t> syzygy;
  int first = 1;
  if (argc > 2 && std::strcmp(argv[1], "--sizes") == 0) {
    syzygy = read_sizes(argv[2]);
    first = 3;
  }
  if (first >= argc) {
    std::fprintf(stderr, "usage: egtmin_layout_forms_study [--sizes TSV] COVER_FILE...\n");
    return 2;
  }
  std::printf("%-8s %9s %12s %12s %12s %11s %8s %12s %9s\n", "balance", "cubes", "regions B", "one leaf B", "default B",
              "leaf blocks", "default", "ready B", "/ Syzygy");
  for (int i = first; i < argc; ++i) {
    const std::filesystem::path path = argv[i];
    auto id = cover_identity(path);
    if (!id) {
      std::fprintf(stderr, "%s\n", id.error().message.c_str());
      return 1;
    }
    auto layout_bytes = [&](double copies, RegionPolicy regions) -> Result<std::unique_ptr<LoadedCover>> {
      auto cover = store::load_cover(path);
      if (!cover) return cover.error();
      return CoverProber::build(std::move(*cover), copies, regions, 2);
    };
    auto with_regions = layout_bytes(CoverProber::kDefaultCopies, RegionPolicy::Always);
    auto one_leaf = layout_bytes(1.0, RegionPolicy::Never);
    auto automatic = layout_bytes(CoverProber::kDefaultCopies, RegionPolicy::Auto);
    for (const auto* built : {&with_regions, &one_leaf, &automatic})
      if (!*built) {
        std::fprintf(stderr, "%s: %s\n", argv[i], built->error().message.c_str());
        return 1;
      }
    const LoadedCover& leaf = **one_leaf;
    std::vector<uint64_t> queries;
    std::mt19937_64 rng(77);
    const uint64_t mask = leaf.encoding.size() - 1;
    while (queries.size() < 20000) {
      const Placement p = leaf.encoding.decode(rng() & mask);
      if (leaf.encoding.is_legal(p)) queries.push_back(leaf.encoding.encode(leaf.canon.canonical(p).placement));
    }
    const size_t region_bytes = serialize_layout(**with_regions, *id).size(),
                 leaf_bytes = serialize_layout(leaf, *id).size(),
                 default_bytes = serialize_layout(**automatic, *id).size();
    const std::string name = leaf.file.balance.name();
    const uint64_t ready = default_bytes;  // a layout probes without its cover file
    const auto s = syzygy.find(name);
    std::printf("%-8s %9zu %12zu %12zu %12zu %11.2f %8s %12llu %9s\n", name.c_str(), leaf.cube_count(), region_bytes,
                leaf_bytes, default_bytes, leaf.index.leaf_blocks_per_query(queries),
                (*automatic)->region.built() ? "regions" : "one leaf", (unsigned long long)ready,
                s == syzygy.end() ? "-" : std::to_string(double(ready) / double(s->second)).substr(0, 5).c_str());
  }
  return 0;
}
