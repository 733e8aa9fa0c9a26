// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/size_report.hpp"

#include "probe/probe_layout.hpp"
#include "store/cover_file.hpp"
#include "store/xz.hpp"
#include "util/atomic_file.hpp"

namespace egtmin::bench {

namespace fs = std::filesystem;

Result<uint64_t> xz_size(const std::vector<uint8_t>& bytes) {
  auto out = store::xz_compress(bytes);
  if (!out) return out.error();
  return uint64_t(out->size());
}

Result<SizeReport> size_report(const fs::path& data_dir, const fs::path& syzygy_dir, int pieces,
                               const Progress& progress, store::CoverKind kind) {
  SizeReport rep;
  const auto balances = Balance::all_up_to(pieces);
  for (size_t i = 0; i < balances.size(); ++i) {
    const Balance& b = balances[i];
    progress.report(Stage::Sizes, double(i) / double(balances.size()), b.name());
    SizeRow row;
    row.balance = b;
    const fs::path cover = store::cover_path(data_dir, b, kind);
    const fs::path layout = probe::layout_path(cover);
    std::error_code ec;
    if (fs::exists(cover, ec)) {
      auto c = store::load_cover(cover, &b);
      if (!c) return c.error();
      row.has_cover = true;
      row.cover_bytes = fs::file_size(cover, ec);
      row.cubes = c->cubes.size();
      auto id = probe::cover_identity(cover);
      if (!id) return id.error();
      // Counted when it opens beside its cover as the prober would open it; one that does not (stale,
      // another cover's, damaged) the prober makes again.
      if (auto opened = probe::open_layout(layout, *id, cover)) {
        row.has_layout = true;
        row.layout_bytes = fs::file_size(layout, ec);
        row.layout_parts = probe::layout_parts(**opened);
      }
    } else if (fs::exists(layout, ec)) {
      // The layout alone: counted when it opens as the prober would open it.
      auto alone = probe::open_layout(layout, std::nullopt, {});
      if (!alone) return alone.error();
      if ((*alone)->file.balance != b) return Error{layout.string() + ": the layout of another balance"};
      row.has_layout = true;
      row.layout_bytes = fs::file_size(layout, ec);
      row.cubes = (*alone)->cube_count();
      row.layout_parts = probe::layout_parts(**alone);
    }
    const fs::path rtbw = syzygy_dir / (b.name() + ".rtbw");
    if (b.pieces() >= 3 && fs::exists(rtbw, ec)) {
      auto bytes = read_file(rtbw);
      if (!bytes) return bytes.error();
      auto xz = xz_size(*bytes);
      if (!xz) return Error{rtbw.string() + ": " + xz.error().message};
      row.has_syzygy = true;
      row.syzygy_bytes = bytes->size();
      row.syzygy_xz_bytes = *xz;
    }
    if (!row.has_cover && !row.has_layout && b.pieces() >= 2) ++rep.missing_covers;
    if (row.has_cover && !row.has_layout) ++rep.missing_layouts;
    if (row.has_layout) {
      rep.probe_ready_bytes += row.probe_ready_bytes();
      rep.probe_ready_parts += row.layout_parts;
      if (row.has_syzygy) {
        rep.ready_both_bytes += row.probe_ready_bytes();
        rep.ready_both_syzygy_bytes += row.syzygy_bytes;
      }
    }
    rep.total_bytes += row.cover_bytes;
    rep.syzygy_bytes += row.syzygy_bytes;
    rep.syzygy_xz_bytes += row.syzygy_xz_bytes;
    if (row.has_cover && row.has_syzygy) {
      rep.both_cover_bytes += row.cover_bytes;
      rep.both_syzygy_bytes += row.syzygy_bytes;
      rep.both_syzygy_xz_bytes += row.syzygy_xz_bytes;
    }
    rep.rows.push_back(row);
  }
  progress.report(Stage::Sizes, 1.0);
  return rep;
}

}  // namespace egtmin::bench
