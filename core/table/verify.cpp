// SPDX-License-Identifier: GPL-3.0-or-later
#include "table/verify.hpp"

#include <algorithm>
#include <vector>

#include "util/parallel.hpp"

namespace egtmin {

VerifyReport verify_against_syzygy(const Table& table, const Syzygy& syzygy, const VerifyOptions& opts,
                                   const Progress& progress) {
  const Encoding& enc = table.encoding();
  const uint64_t n = enc.size();
  const uint64_t stride = std::max<uint64_t>(1, opts.stride);
  const int threads = resolve_threads(opts.threads);
  syzygy.warm_up(table.balance());
  VerifyReport total;
  total.balance = table.balance().name();
  // Each worker's findings, added up in worker order at the end.
  std::vector<VerifyReport> found(static_cast<size_t>(threads));
  // Indices a worker takes at a time: large enough that the shared counter is rarely touched,
  // small enough that the threads finish together.
  constexpr uint64_t kChunk = uint64_t{1} << 16;
  parallel_for(n, threads, kChunk, progress, {Stage::Verify, total.balance}, [&](uint64_t b, uint64_t e, int worker) {
    VerifyReport& r = found[size_t(worker)];
    for (uint64_t idx = (b + stride - 1) / stride * stride; idx < e; idx += stride) {
      Placement p = enc.decode(idx);
      if (!enc.is_legal(p)) continue;
      ++r.positions;
      Wdl ours = table.value(p);
      auto theirs = syzygy.wdl(enc, p);
      Wdl want = Wdl::Illegal;
      if (theirs) {
        const Wdl stm = to_wdl(*theirs);
        ++r.counts.by_code[size_t(stm)];
        want = p.stm == White ? stm : negate(stm);
      } else {
        ++r.unanswered;
      }
      if (ours != want) {
        ++r.mismatches;
        if (r.examples.size() < 5)
          r.examples.push_back(enc.position(p).fen() + " ours=" + std::string(name_of(ours)) +
                               " syzygy=" + std::string(name_of(want)));
      }
    }
  });
  for (VerifyReport& r : found) {
    total.positions += r.positions;
    total.mismatches += r.mismatches;
    total.unanswered += r.unanswered;
    total.counts += r.counts;
    for (auto& ex : r.examples)
      if (total.examples.size() < 5) total.examples.push_back(ex);
  }
  return total;
}

}  // namespace egtmin
