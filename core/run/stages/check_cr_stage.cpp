// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/stages/check_cr_stage.hpp"

#include <cstdio>

#include "run/proof_run.hpp"
#include "run/run_plan.hpp"

namespace egtmin::run {

void Stage<BatchStage::CheckCr>::run(StageContext& c, Results& r) {
  if (!successor_covers_there(c)) return;
  c.store.unload_all();  // the proof loads what it needs
  ProofRequest p;
  p.balances = {c.balance};
  p.data_dir = c.request.data_dir;
  p.threads = c.threads;
  p.self_check = false;  // the table stage proved the table
  p.check_cover = true;
  p.check_probe = true;
  p.kind = store::CoverKind::CaptureResolved;
  p.memory_limit = c.request.memory_limit;
  std::optional<BalanceProof> proof;
  c.figures = measured([&] {
    auto run = run_proof(p, {}, c.progress);
    if (!run) {
      if (!c.progress.cancelled()) c.error = run.error().message;
      return;
    }
    if (!run->empty()) proof = std::move(run->front());
  });
  if (!c.error.empty() || c.progress.cancelled()) return;
  if (!proof) {
    c.error = "no result";
    return;
  }
  r.checked_positions = proof->cover ? proof->cover->positions : 0;
  r.probed_positions = proof->probe ? proof->probe->positions : 0;
  r.mismatches = proof->failures();
  if (!proof->error.empty()) {
    c.error = proof->error;
    return;
  }
  if (!proof->cover || !proof->probe) {
    c.error = "the cubes and the probe were not both checked";
    return;
  }
  if (r.mismatches > 0) {
    const logic::CheckReport& first = proof->cover->mismatches > 0 ? *proof->cover : *proof->probe;
    c.error = std::to_string(proof->cover->mismatches) + " mismatches of the cubes, " +
              std::to_string(proof->probe->mismatches) + " of the probe (first: " + first.first_mismatch + ")";
    return;
  }
  c.figures.done = true;
}

std::string Stage<BatchStage::CheckCr>::summary(const StageFigures& f, const Results& r) {
  char line[200];
  std::snprintf(line, sizeof line,
                "%llu positions by the cubes, %llu through the capture search, %llu mismatches in %.1f s, peak %.2f GB",
                (unsigned long long)r.checked_positions, (unsigned long long)r.probed_positions,
                (unsigned long long)r.mismatches, f.seconds, double(f.peak_bytes) / 1e9);
  return line;
}

uint64_t Stage<BatchStage::CheckCr>::expected_memory_bytes(const Balance& b, int cpus) {
  return minimize_peak_bytes(b, cpus, store::CoverKind::CaptureResolved);
}

}  // namespace egtmin::run
