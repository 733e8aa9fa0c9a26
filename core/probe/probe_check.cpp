// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/probe_check.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>

#include "util/parallel.hpp"

namespace egtmin::probe {

Placement member_to_probe(const Symmetry& sym, uint64_t slot, const Placement& rep) {
  return sym.image(rep, unsigned((slot * 0x9E3779B97F4A7C15ull) >> 61) % unsigned(sym.group()));
}

logic::CheckReport check_probe(const Table& table, const CoverProber& prober, int threads, const Progress& progress,
                               ProbeCheckScope scope) {
  const Encoding& enc = table.encoding();
  const Symmetry& sym = table.symmetry();
  logic::CheckReport report;
  report.exhaustive = true;
  constexpr uint64_t kChunk = uint64_t{1} << 20;
  std::atomic<uint64_t> positions{0}, mismatches{0};
  std::mutex first_mutex;
  uint64_t first_index = UINT64_MAX;
  const std::string detail = "probe " + table.balance().name();
  // One probe of placement p (legal, of value `white` for White); false when it disagrees.
  auto probe_one = [&](const Placement& p, Wdl white) {
    const Wdl want = p.stm == White ? white : negate(white);
    const Wdl got = prober.probe_wdl(enc.position(p), Method::Indexed);
    if (got == want) return true;
    const uint64_t i = enc.encode(p);
    std::lock_guard lock(first_mutex);
    if (i < first_index) {
      first_index = i;
      report.first_mismatch = "index " + std::to_string(i) + " (" + enc.position(p).fen() + "): table " +
                              std::string(name_of(want)) + ", probe " + std::string(name_of(got));
    }
    return false;
  };
  if (scope == ProbeCheckScope::EveryPlacement) {
    parallel_for(enc.size(), threads, kChunk, progress, {Stage::Check, detail}, [&](uint64_t begin, uint64_t end, int) {
      uint64_t n = 0, bad = 0;
      for (uint64_t i = begin; i < end; ++i) {
        const Placement p = enc.decode(i);
        if (!enc.is_legal(p)) continue;
        ++n;
        bad += !probe_one(p, table.value(p));
      }
      positions += n;
      mismatches += bad;
    });
  } else {
    // The table's slots in order: the table says which are legal, and sequential reads of it.
    parallel_for(sym.domain_size(), threads, kChunk, progress, {Stage::Check, detail},
                 [&](uint64_t begin, uint64_t end, int) {
                   uint64_t n = 0, bad = 0;
                   table.for_each_representative(begin, end, [&](uint64_t s, const Placement& p, Wdl white) {
                     n += sym.class_size(p);
                     bad += !probe_one(member_to_probe(sym, s, p), white);
                   });
                   positions += n;
                   mismatches += bad;
                 });
  }
  report.positions = positions;
  report.mismatches = mismatches;
  return report;
}

}  // namespace egtmin::probe
