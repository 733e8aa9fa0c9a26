// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/probe_check.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>

#include "util/parallel.hpp"

namespace egtmin::probe {

logic::CheckReport check_probe(const Table& table, const CoverProber& prober, int threads, const Progress& progress) {
  const Encoding& enc = table.encoding();
  logic::CheckReport report;
  report.exhaustive = true;
  constexpr uint64_t kChunk = uint64_t{1} << 20;
  std::atomic<uint64_t> positions{0}, mismatches{0};
  std::mutex first_mutex;
  uint64_t first_index = UINT64_MAX;
  const std::string detail = "probe " + table.balance().name();
  parallel_for(enc.size(), threads, kChunk, progress, {Stage::Check, detail}, [&](uint64_t begin, uint64_t end, int) {
    uint64_t n = 0, bad = 0;
    for (uint64_t i = begin; i < end; ++i) {
      const Placement p = enc.decode(i);
      if (!enc.is_legal(p)) continue;
      ++n;
      const Wdl white = table.value(p);
      const Wdl want = p.stm == White ? white : negate(white);
      const Wdl got = prober.probe_wdl(enc.position(p), Method::Indexed);
      if (got == want) continue;
      ++bad;
      std::lock_guard lock(first_mutex);
      if (i < first_index) {
        first_index = i;
        report.first_mismatch = "index " + std::to_string(i) + " (" + enc.position(p).fen() + "): table " +
                                std::string(name_of(want)) + ", probe " + std::string(name_of(got));
      }
    }
    positions += n;
    mismatches += bad;
  });
  report.positions = positions;
  report.mismatches = mismatches;
  return report;
}

}  // namespace egtmin::probe
