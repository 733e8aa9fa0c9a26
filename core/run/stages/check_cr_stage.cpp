// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/stages/check_cr_stage.hpp"

#include <cstdio>

#include "probe/probe_layout.hpp"
#include "run/proof_run.hpp"
#include "run/run_plan.hpp"
#include "store/cover_file.hpp"

namespace egtmin::run {

namespace {

probe::LayoutOnDisk proved_layout(const std::filesystem::path& data_dir, const Balance& b) {
  return probe::layout_on_disk(probe::layout_path(store::cover_path(data_dir, b, store::CoverKind::CaptureResolved)));
}

}  // namespace

void Stage<BatchStage::CheckCr>::run(StageContext& c, Results& r) {
  if (!successor_covers_there(c)) return;
  c.store.unload_all();  // the proof loads what it needs
  ProofRequest p;
  p.balances = {c.balance};
  p.data_dir = c.request.data_dir;
  p.threads = c.threads;
  p.self_check = false;  // the table stage proved the table
  p.check_cover = false;
  p.check_probe = true;
  p.kind = store::CoverKind::CaptureResolved;
  p.successors = c.request.successors;
  p.memory_limit = c.request.memory_limit;
  std::optional<BalanceProof> probed, cubes;
  // One proof: its error, or the balance's result.
  auto prove = [&](const ProofRequest& request, std::optional<BalanceProof>& out) {
    auto run = run_proof(request, {}, c.progress);
    if (!run) {
      if (!c.progress.cancelled()) c.error = run.error().message;
    } else if (run->empty()) {
      c.error = "no result";
    } else {
      out = std::move(run->front());
      if (!out->error.empty()) c.error = out->error;
    }
  };
  c.figures = measured([&] {
    prove(p, probed);
    if (!c.error.empty() || c.progress.cancelled() || !probed->probe || probed->probe->mismatches == 0) return;
    ProofRequest diagnose = p;
    diagnose.check_cover = true;
    diagnose.check_probe = false;
    prove(diagnose, cubes);
  });
  if (!c.error.empty() || c.progress.cancelled()) return;
  if (!probed->probe) {
    c.error = "the probe was not checked";
    return;
  }
  r.probed_positions = probed->probe->positions;
  r.successors = p.successors;
  r.checked_positions = cubes && cubes->cover ? cubes->cover->positions : 0;
  const uint64_t cube_mismatches = cubes && cubes->cover ? cubes->cover->mismatches : 0;
  r.mismatches = probed->probe->mismatches + cube_mismatches;
  if (r.mismatches > 0) {
    c.error = std::to_string(probed->probe->mismatches) +
              " mismatches of the probe (first: " + probed->probe->first_mismatch +
              "); the cubes alone: " + std::to_string(cube_mismatches) +
              (cube_mismatches > 0 ? " (first: " + cubes->cover->first_mismatch + ")"
                                   : ", so the capture search or the index is wrong");
    return;
  }
  const probe::LayoutOnDisk proved = proved_layout(c.request.data_dir, c.balance);
  r.layout_bytes = proved.bytes;
  r.layout_version = proved.version;
  r.layout_framed = proved.cubes == probe::RegionCubes::Framed;
  c.figures.done = true;
}

bool Stage<BatchStage::CheckCr>::outputs_there(const std::filesystem::path& data_dir, const Balance& b,
                                               const Results& r) {
  const probe::LayoutOnDisk now = proved_layout(data_dir, b);
  return now.bytes == r.layout_bytes && now.version == r.layout_version &&
         (now.cubes == probe::RegionCubes::Framed) == r.layout_framed;
}

std::string Stage<BatchStage::CheckCr>::summary(const StageFigures& f, const Results& r) {
  char line[200];
  std::snprintf(line, sizeof line,
                "%llu positions through the capture search and the %llu-byte probe layout, %llu mismatches in %.1f s, "
                "peak %.2f GB",
                (unsigned long long)r.probed_positions, (unsigned long long)r.layout_bytes,
                (unsigned long long)r.mismatches, f.seconds, double(f.peak_bytes) / 1e9);
  return line;
}

uint64_t Stage<BatchStage::CheckCr>::expected_memory_bytes(const Balance& b, int cpus) {
  return minimize_peak_bytes(b, cpus, store::CoverKind::CaptureResolved);
}

}  // namespace egtmin::run
