// SPDX-License-Identifier: GPL-3.0-or-later
#include "logic/check.hpp"

#include <algorithm>

#include <atomic>
#include <mutex>
#include <random>

#include "logic/care_function.hpp"
#include "logic/passes.hpp"
#include "util/parallel.hpp"

namespace egtmin::logic {

namespace {

// Sampling gives up after this many draws per requested position: far more than any table with a
// fair share of legal indices needs, so only a table with (almost) no legal positions hits it.
constexpr uint64_t kMaxTriesPerSample = 1000;
// Progress every 4096 sampled positions (each is a linear scan of the cover), and every 16 chunks
// of the exhaustive check: frequent enough for a smooth bar, rare enough to cost nothing.
constexpr uint64_t kSampleReportEvery = 4096;
constexpr uint64_t kReportEveryChunks = 16;

}  // namespace

CheckReport check_cover(const Table& table, const Cover& cover, CanonScheme scheme,
                        std::span<const uint32_t> rule_draws, Output implied, uint64_t sample, uint64_t seed,
                        int threads, const Progress& progress) {
  CheckReport rep;
  const Encoding& enc = table.encoding();
  const int n = enc.bits();
  CoverCanon canon(enc, scheme);
  std::mutex mu;
  auto note = [&](uint64_t idx, Wdl want, Wdl got) {
    std::lock_guard lock(mu);
    if (rep.first_mismatch.empty())
      rep.first_mismatch = "index " + std::to_string(idx) + ": table " + std::string(name_of(want)) + ", cover " +
                           (got == Wdl::Illegal ? std::string("no matching cube") : std::string(name_of(got)));
  };

  if (sample > 0) {
    std::mt19937_64 rng(seed);
    uint64_t tries = 0;
    while (rep.positions < sample && tries < sample * kMaxTriesPerSample) {
      ++tries;
      uint64_t idx = rng() & (enc.size() - 1);
      Wdl want = table.value(idx);
      if (want == Wdl::Illegal) continue;
      ++rep.positions;
      auto r = canon.canonical(enc.decode(idx));
      const uint64_t ri = enc.encode(r.placement);
      const Output o = output_at(cover, minterm_fast(ri, n), implied);
      Wdl got = o != Output::None ? value_of(o, in_rule_draws(rule_draws, ri)) : Wdl::Illegal;
      if (got != Wdl::Illegal && r.negate) got = negate(got);
      if (got != want) {
        ++rep.mismatches;
        note(idx, want, got);
      }
      if (rep.positions % kSampleReportEvery == 0)
        progress.report(Stage::Check, double(rep.positions) / double(sample), "sample");
    }
    return rep;
  }

  rep.exhaustive = true;
  // The representatives that are care positions, and the first-match output painted onto them.
  CareFunction care = CareFunction::from_table(table, scheme, threads, progress);
  BitTree reps(n);
  for (size_t w = 0; w < reps.words().size(); ++w)
    reps.words()[w] = care.on_slot(0).words()[w] | care.on_slot(1).words()[w] | care.on_slot(2).words()[w];
  reps.finish();
  BitTree painted(n);
  // 2 bits per index; what no cube paints keeps the implied output (0, Output::None, if none).
  std::vector<uint8_t> value(size_t(1) << std::max(0, n - 2), uint8_t(0x55 * unsigned(implied)));
  for (CubeWord c : cover) {
    uint8_t o = uint8_t(output_of(c));
    for_each_in(reps, c, [&](uint64_t idx) {
      if (painted.test(idx)) return;
      painted.set(idx);
      const int shift = int(idx & 3) * 2;
      value[idx >> 2] = uint8_t((value[idx >> 2] & ~(3 << shift)) | o << shift);
    });
  }
  constexpr uint64_t kChunk = uint64_t{1} << 16;
  std::atomic<uint64_t> positions{0}, mismatches{0};
  const ChunkReports reports{Stage::Check, {}, kReportEveryChunks};
  // The cover answers through canonical representatives, and the table stores one value per
  // representative (its slot): every legal position's pair (table value, cover value) is its
  // representative's, so visiting the table's slots checks them all, each slot counting the
  // positions it stands for. Sequential in the painted values too, where walking every index
  // jumped to its representative's (a cache miss a position on 5-piece tables).
  const Symmetry& sym = table.symmetry();
  auto check_slots = [&](uint64_t s0, uint64_t s1, int) {
    uint64_t pos = 0, bad = 0;
    table.for_each_representative(s0, s1, [&](uint64_t, const Placement& p, Wdl want) {
      pos += sym.class_size(p);
      const bool swapped = canon.swaps_colors(p);
      const uint64_t ri = enc.encode(swapped ? canon.canonical(p).placement : p);
      Wdl got = value_of(Output((value[ri >> 2] >> ((ri & 3) * 2)) & 3), in_rule_draws(rule_draws, ri));
      if (got != Wdl::Illegal && swapped) got = negate(got);
      if (got != want) {
        ++bad;
        note(enc.encode(p), want, got);
      }
    });
    positions += pos;
    mismatches += bad;
  };
  auto check_indices = [&](uint64_t i0, uint64_t i1, int) {
    uint64_t pos = 0, bad = 0;
    for (uint64_t idx = i0; idx < i1; ++idx) {
      Placement p = enc.decode(idx);
      Wdl want = table.value(p);
      if (want == Wdl::Illegal) continue;
      ++pos;
      auto r = canon.canonical(p);
      uint64_t ri = enc.encode(r.placement);
      Wdl got = value_of(Output((value[ri >> 2] >> ((ri & 3) * 2)) & 3), in_rule_draws(rule_draws, ri));
      if (got != Wdl::Illegal && r.negate) got = negate(got);
      if (got != want) {
        ++bad;
        note(idx, want, got);
      }
    }
    positions += pos;
    mismatches += bad;
  };
  // Without board symmetry (CanonScheme::None) every index is its own representative.
  if (scheme == CanonScheme::None)
    parallel_for(enc.size(), threads, kChunk, progress, reports, check_indices);
  else
    parallel_for(sym.domain_size(), threads, kChunk, progress, reports, check_slots);
  rep.positions = positions;
  rep.mismatches = mismatches;
  return rep;
}

}  // namespace egtmin::logic
