// SPDX-License-Identifier: GPL-3.0-or-later
// The paper's size comparison (section 3.3): per balance, our cover file against the Syzygy WDL
// file as shipped and recompressed with xz -9e (liblzma in-process, preset 9 | extreme); and what
// probing at speed keeps on disk: the cover's probe layout (probe/probe_layout.hpp), which probes
// on its own (the cover file is what it is made from, and what the linear probe scans).
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "chess/balance.hpp"
#include "probe/probe_layout.hpp"
#include "store/cover_kind.hpp"
#include "util/progress.hpp"
#include "util/result.hpp"

namespace egtmin::bench {

struct SizeRow {
  Balance balance;
  bool has_cover = false;
  uint64_t cover_bytes = 0;  // DATA/covers/NAME.egtc (or .egtcr)
  uint64_t cubes = 0;        // the cover's, or as its layout counts them when the layout is alone
  // The cover's probe layout (NAME.egtl or NAME.egtlr): beside its cover, when it is made from
  // that cover file, of this egtmin's layout version and intact (any other is rebuilt on open and
  // not counted); without it, when it opens on its own.
  bool has_layout = false;
  uint64_t layout_bytes = 0;
  probe::LayoutParts layout_parts;  // where the layout's bytes go
  // What the fast probe needs on disk: the layout alone.
  uint64_t probe_ready_bytes() const { return layout_bytes; }
  bool has_syzygy = false;
  uint64_t syzygy_bytes = 0;     // NAME.rtbw
  uint64_t syzygy_xz_bytes = 0;  // that file through xz -9e
};

struct SizeReport {
  std::vector<SizeRow> rows;
  uint64_t total_bytes = 0, syzygy_bytes = 0, syzygy_xz_bytes = 0;
  // The same sums over balances that have both files, so ratios compare like with like.
  uint64_t both_cover_bytes = 0, both_syzygy_bytes = 0, both_syzygy_xz_bytes = 0;
  // Probe-ready bytes (layouts) over the balances with a current layout, and the Syzygy bytes of
  // those of them with a Syzygy file.
  uint64_t probe_ready_bytes = 0, ready_both_bytes = 0, ready_both_syzygy_bytes = 0;
  probe::LayoutParts probe_ready_parts;  // the layouts' bytes by part
  // Balances with neither a cover nor a layout of its own; covers without a current layout.
  int missing_covers = 0, missing_layouts = 0;
};

// Every canonical balance of 3 to `pieces` pieces (Syzygy has no KvK file), plus KvK's cover.
// `kind`: which of a balance's covers to report (NAME.egtc or the capture-resolved NAME.egtcr).
Result<SizeReport> size_report(const std::filesystem::path& data_dir, const std::filesystem::path& syzygy_dir,
                               int pieces, const Progress& progress = no_progress(),
                               store::CoverKind kind = store::CoverKind::Standalone);

// xz -9e of a buffer, as the xz tool writes it (CRC-64 check); its size in bytes.
Result<uint64_t> xz_size(const std::vector<uint8_t>& bytes);

}  // namespace egtmin::bench
