// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/ablation.hpp"

#include <algorithm>
#include <system_error>

#include "bench/probe_bench.hpp"
#include "logic/pass_sequence.hpp"
#include "probe/probe.hpp"

namespace egtmin::bench {

namespace fs = std::filesystem;

const std::vector<AblationIdea>& ablation_ideas() {
  static const std::vector<AblationIdea> ideas = {
      {"default", "the default covers: canon,compact,expand,irredundant, the output with the most cubes implied",
       [](run::MinimizeRequest&) {}},
      {"all-outputs", "every output's cubes stored (minimize --implied none)",
       [](run::MinimizeRequest& r) { r.implied = run::ImpliedOutput::None; }},
      {"capture-resolved", "values a capture or promotion reaches left to the probe's capture search",
       [](run::MinimizeRequest& r) { r.kind = store::CoverKind::CaptureResolved; }},
      {"board-canon", "the board's symmetries only as don't-cares, not the colour swap (--canon board)",
       [](run::MinimizeRequest& r) { r.canon = CanonScheme::Board; }},
      {"split-stm", "each side to move minimized on its own (--split 0)",
       [](run::MinimizeRequest& r) { r.split = std::vector<int>{0}; }},
      {"espresso", "the passes iterated: canon,compact,espresso (reduce, expand, irredundant while it improves)",
       [](run::MinimizeRequest& r) {
         if (auto p = logic::parse_passes("canon,compact,espresso")) r.passes = *p;
       }},
      {"effort-high", "more primes in expand and a longer covering search (--effort high, several times the CPU)",
       [](run::MinimizeRequest& r) { r.effort = logic::Effort::High; }},
  };
  return ideas;
}

std::vector<std::string> default_ablation_ideas() {
  std::vector<std::string> names;
  for (const AblationIdea& i : ablation_ideas())
    if (i.name != "effort-high") names.push_back(i.name);
  return names;
}

namespace {

// WORK/IDEA with tables/ linked to the data directory's (made first when missing).
Status prepare_dir(const fs::path& dir, const fs::path& data_dir) {
  std::error_code ec;
  fs::create_directories(dir / "covers", ec);
  if (ec) return Error{"cannot create " + (dir / "covers").string() + ": " + ec.message()};
  fs::create_directories(data_dir / "tables", ec);
  const fs::path link = dir / "tables";
  if (!fs::exists(link)) {
    fs::create_directory_symlink(fs::absolute(data_dir / "tables"), link, ec);
    if (ec) return Error{"cannot link " + link.string() + " to the tables: " + ec.message()};
  }
  return ok_status();
}

}  // namespace

Result<std::vector<AblationRow>> run_ablation(const AblationRequest& request, const Progress& progress) {
  std::vector<const AblationIdea*> chosen;
  for (const std::string& name : request.ideas.empty() ? default_ablation_ideas() : request.ideas) {
    const auto& all = ablation_ideas();
    auto it = std::find_if(all.begin(), all.end(), [&](const AblationIdea& i) { return i.name == name; });
    if (it == all.end()) {
      std::string known;
      for (const AblationIdea& i : all) known += (known.empty() ? "" : ", ") + i.name;
      return Error{"unknown idea '" + name + "' (" + known + ")"};
    }
    chosen.push_back(&*it);
  }
  Syzygy* syzygy = nullptr;
  if (request.syzygy) {
    auto s = Syzygy::open(*request.syzygy);
    if (!s) return s.error();
    syzygy = *s;
  }

  std::vector<AblationRow> rows;
  for (size_t k = 0; k < chosen.size(); ++k) {
    const AblationIdea& idea = *chosen[k];
    const fs::path dir = request.work_dir / idea.name;
    if (auto s = prepare_dir(dir, request.data_dir); !s) return s.error();
    const std::string label = idea.name + " (" + std::to_string(k + 1) + "/" + std::to_string(chosen.size()) + ")";
    Progress part(progress, [&](const ProgressEvent& e) {
      progress.report(e.stage, e.fraction, label + ": " + std::string(e.detail));
    });
    run::MinimizeRequest req;
    req.balances = request.balances;
    req.passes = logic::default_passes();
    req.threads = request.threads;
    req.data_dir = dir;
    idea.apply(req);
    auto run = run::run_minimize(req, {}, part);
    if (!run) return Error{idea.name + ": " + run.error().message};
    AblationRow row;
    row.idea = idea.name;
    row.description = idea.description;
    for (const run::BalanceResult& b : run->balances) {
      if (!b.ok()) return Error{idea.name + ": " + b.error};
      std::error_code ec;
      const uint64_t bytes = fs::file_size(b.cover_path, ec);
      if (ec) return Error{idea.name + ": " + b.cover_path.string() + ": " + ec.message()};
      row.balances.push_back({b.balance.canonical(), bytes, b.cubes, b.seconds});
      row.bytes += bytes;
      row.cubes += b.cubes;
      row.minimize_seconds += b.seconds;
    }
    if (syzygy) {
      auto prober = probe::CoverProber::open(dir, probe::CoverProber::kDefaultCopies, probe::RegionPolicy::Auto,
                                             request.threads, probe::CoverProber::LayoutPolicy::Use, req.kind);
      if (!prober) return Error{idea.name + ": " + prober.error().message};
      ProbeBenchOptions opts;
      opts.pieces = request.probe_pieces;
      opts.positions = request.probe_positions;
      opts.scan_positions = 1000;  // the linear scan is no idea's subject
      auto bench = run_probe_bench(**prober, *syzygy, opts, part);
      if (!bench) return Error{idea.name + ": " + bench.error().message};
      row.probe_positions = bench->positions;
      row.probe_mismatches = bench->mismatches;
      for (const MethodTiming& m : bench->methods) {
        if (m.method == probe::ProbeMethodId::Indexed) row.probe_ns = m.batch_mean_ns;
        if (m.method == probe::ProbeMethodId::Fathom) row.fathom_ns = m.batch_mean_ns;
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace egtmin::bench
