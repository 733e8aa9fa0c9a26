// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/proof_run.hpp"

#include <algorithm>
#include <memory>
#include <mutex>

#include "probe/probe.hpp"
#include "run/minimize_run.hpp"
#include "store/cover_file.hpp"
#include "table/capture_resolve.hpp"
#include "table/successor_tables.hpp"
#include "table/table_store.hpp"
#include "util/defaults.hpp"

namespace egtmin::run {

uint64_t BalanceProof::failures() const {
  uint64_t n = 0;
  if (self_check) n += self_check->failures;
  if (syzygy) n += syzygy->mismatches;
  if (cover) n += cover->mismatches;
  if (probe) n += probe->mismatches;
  return n;
}

Result<std::vector<BalanceProof>> run_proof(const ProofRequest& request, const ProofEvents& events,
                                            const Progress& progress) {
  if (request.balances.empty()) return Error{"no balance to prove"};
  if (!request.self_check && !request.syzygy && !request.check_cover && !request.check_probe)
    return Error{"nothing to prove: ask for the self-check, Syzygy, the cover or the probe"};
  const int threads = resolve_threads(request.threads);
  const size_t n = request.balances.size();
  // One bar: each balance an equal share, each of its proofs an equal share of that.
  const int proofs =
      int(request.self_check) + int(request.syzygy != nullptr) + int(request.check_cover) + int(request.check_probe);

  // Tables first, through the run pipeline (plan, memory check, dependencies, self-checked when made).
  {
    MinimizeRequest tables;
    tables.balances = request.balances;
    tables.threads = request.threads;
    tables.data_dir = request.data_dir;
    tables.memory_limit = request.memory_limit;
    auto made = run_minimize(tables, {}, progress);
    if (!made) return made.error();
  }

  TableStore store(request.data_dir);
  std::vector<BalanceProof> out;
  for (size_t i = 0; i < n; ++i) {
    const Balance b = request.balances[i].canonical();
    BalanceProof proof;
    proof.balance = b;
    int step = 0;
    auto part = [&](Stage stage, std::string_view what) {
      const double base = (double(i) + double(step++) / proofs) / double(n);
      const std::string label = b.name() + ": " + std::string(what);
      // Some checks report their phases each from 0, some from several threads: the bar keeps the
      // furthest point reached.
      struct Reached {
        std::mutex mutex;
        double fraction = 0;
      };
      auto reached = std::make_shared<Reached>();
      return Progress(progress, [&progress, stage, base, label, proofs, n, reached](const ProgressEvent& e) {
        std::lock_guard lock(reached->mutex);
        reached->fraction = std::max(reached->fraction, std::clamp(e.fraction, 0.0, 1.0));
        progress.report(stage, base + reached->fraction / (double(proofs) * double(n)), label);
      });
    };
    auto table = store.get(b);
    if (!table) {
      proof.error = table.error().message;
    } else {
      if (request.self_check) {
        SelfCheckOptions so;
        so.threads = threads;
        proof.self_check = self_check(**table, store.lookup(), {}, so, part(Stage::SelfCheck, "self-check"));
      }
      if (request.syzygy && !progress.cancelled()) {
        const Progress p = part(Stage::Verify, "against Syzygy");
        if (request.syzygy->has_wdl(b)) {
          VerifyOptions vo;
          vo.threads = threads;
          vo.stride = request.syzygy_stride;
          proof.syzygy = verify_against_syzygy(**table, *request.syzygy, vo, p);
        }
      }
      if ((request.check_cover || request.check_probe) && !progress.cancelled()) {
        const auto path = store::cover_path(request.data_dir, b, request.kind);
        auto cover = store::load_cover(path, &b);
        if (!cover) {
          proof.error = cover.error().message + " (make the cover first: egtmin-cli minimize " + b.name() + ")";
        } else {
          proof.cover_cubes = cover->cubes.size();
          // A capture-resolved cover is checked against the table it was minimized from: the
          // positions a capture reaches left open (the probe check below covers those).
          std::optional<CaptureResolution> resolved;
          if (cover->kind == store::CoverKind::CaptureResolved && request.check_cover) {
            // The rule minimize used: the partial cases only with an implied output (minimize_run).
            const CaptureRule rule =
                cover->implied == logic::Output::None ? CaptureRule::WinsOnly : CaptureRule::ValueReached;
            auto r = resolve_captures(**table, store.lookup(), threads, no_progress(), rule);
            if (r)
              resolved = std::move(*r);
            else
              proof.error = r.error().message;
          }
          if (request.check_cover && proof.error.empty())
            proof.cover = logic::check_cover(resolved ? resolved->table : **table, cover->cubes, cover->canon,
                                             cover->rule_draws, cover->implied, request.cover_sample,
                                             request.cover_seed, threads, part(Stage::Check, "cover"));
          if (request.check_probe && !progress.cancelled()) {
            const Progress p = part(Stage::Check, "indexed probe");
            if (cover->kind == store::CoverKind::CaptureResolved && request.successors == SuccessorValues::Tables) {
              // The balance's own cover, its search answered by the tables it was generated from.
              const SuccessorTables reached(b, store.lookup());
              probe::CoverProber prober;
              prober.answer_uncovered([&](const Position& after) { return reached.value_stm(after); });
              if (const std::optional<Balance> missing = reached.missing())
                proof.error =
                    "the table of " + missing->name() + ", which " + b.name() + "'s captures reach, is not there";
              else if (auto s = prober.add_file(path); !s)
                proof.error = s.error().message;
              else
                proof.probe = probe::check_probe(**table, prober, threads, p, request.probe_scope);
            } else if (cover->kind == store::CoverKind::CaptureResolved) {
              // The capture search probes the balances captures and promotions reach: their
              // covers, and no others (a cover elsewhere in DATA that lacks one of its own
              // successors says nothing about this one).
              const store::CoverKind kinds[] = {store::CoverKind::CaptureResolved, store::CoverKind::Standalone};
              probe::CoverProber prober;
              if (auto s = prober.add_reaching(request.data_dir, b, kinds, probe::CoverProber::LayoutPolicy::Use,
                                               probe::CoverProber::kDefaultCopies, probe::RegionPolicy::Auto, threads);
                  !s)
                proof.error = s.error().message;
              else
                proof.probe = probe::check_probe(**table, prober, threads, p, request.probe_scope);
            } else {
              probe::CoverProber prober;
              if (auto s = prober.add_file(path); !s)
                proof.error = s.error().message;
              else
                proof.probe = probe::check_probe(**table, prober, threads, p, request.probe_scope);
            }
          }
        }
      }
    }
    if (progress.cancelled()) return Error{"cancelled"};
    if (events.balance_done) events.balance_done(proof);
    out.push_back(std::move(proof));
    if (b.pieces() >= 5) store.unload_all();  // hundreds of MB each
  }
  return out;
}

}  // namespace egtmin::run
