// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench_pipeline.hpp"

#include <cstdio>

#include "bench/pipeline_bench.hpp"
#include "util/host.hpp"

namespace egtmin::cli {

namespace {

struct Args {
  Common common;
  std::vector<std::string> sample;
  std::string syzygy;
  int project_pieces = 5;
};

std::string names(const std::vector<Balance>& list) {
  std::string s;
  for (const Balance& b : list) s += (s.empty() ? "" : ", ") + b.name();
  return s;
}

nlohmann::json stage_json(const bench::PipelineStage& s) {
  return {{"balance", s.balance.name()},
          {"stage", name_of(s.stage)},
          {"seconds", s.figures.seconds},
          {"cpu_seconds", s.figures.cpu_seconds},
          {"peak_bytes", s.figures.peak_bytes},
          {"slots", s.slots},
          {"ran_here", s.ran_here}};
}

int run(const Args& a) {
  bench::PipelineRequest req;
  for (const std::string& name : a.sample) {
    auto b = Balance::parse(name);
    if (!b) return fail("--sample: " + b.error().message);
    if (auto s = check_supported(*b); !s) return fail("--sample: " + s.error().message);
    req.sample.push_back(b->canonical());
  }
  req.data_dir = a.common.data_dir();
  req.syzygy_dir = a.syzygy;
  req.threads = a.common.threads;
  req.project_pieces = a.project_pieces;
  auto progress = make_progress(a.common);
  auto report = bench::run_pipeline_bench(req, *progress);
  end_progress(a.common);
  if (!report) return fail(report.error().message);
  const std::string host = describe_host();
  if (a.common.json) {
    nlohmann::json stages = nlohmann::json::array(), projection = nlohmann::json::array();
    for (const bench::PipelineStage& s : report->stages) stages.push_back(stage_json(s));
    for (const bench::ProjectedStage& p : report->projection) {
      nlohmann::json from = nlohmann::json::array();
      for (const Balance& b : p.from) from.push_back(b.name());
      projection.push_back({{"stage", name_of(p.stage)},
                            {"pawns", p.kind.pawns},
                            {"lone_king", p.kind.lone_king},
                            {"seconds_per_slot", p.seconds_per_slot},
                            {"from", from},
                            {"balances", p.balances},
                            {"slots", p.slots},
                            {"seconds", p.seconds}});
    }
    print_json({{"sample", names(report->sample)},
                {"stages", stages},
                {"project_pieces", report->project_pieces},
                {"projection", projection},
                {"projected_seconds", report->projected_seconds},
                {"largest_peak", stage_json(report->largest_peak)},
                {"errors", report->errors},
                {"machine", host}});
  } else {
    std::printf("%-8s %-11s %10s %10s %9s %15s\n", "balance", "stage", "wall s", "CPU s", "peak GB", "table slots");
    for (const bench::PipelineStage& s : report->stages)
      std::printf("%-8s %-11s %10.1f %10.1f %9.2f %15llu%s\n", s.balance.name().c_str(),
                  std::string(name_of(s.stage)).c_str(), s.figures.seconds, s.figures.cpu_seconds,
                  double(s.figures.peak_bytes) / 1e9, (unsigned long long)s.slots,
                  s.ran_here ? "" : "  (done before: from its record)");
    std::printf(
        "\nProjection for every %d-piece balance: per stage and kind, the sample's seconds per table slot times "
        "the slots of that kind's balances; stages one after another.\n",
        report->project_pieces);
    for (const bench::ProjectedStage& p : report->projection)
      std::printf("  %-11s %-9s %-14s %.3g s/slot (from %s) x %llu slots of %zu balances = %.0f s\n",
                  std::string(name_of(p.stage)).c_str(), p.kind.pawns ? "pawns" : "no pawns",
                  p.kind.lone_king ? "lone king" : "on each side", p.seconds_per_slot, names(p.from).c_str(),
                  (unsigned long long)p.slots, p.balances, p.seconds);
    std::printf("Projected: %.1f h on a %s; largest peak %.2f GB (%s %s)\n", report->projected_seconds / 3600.0,
                host.c_str(), double(report->largest_peak.figures.peak_bytes) / 1e9,
                report->largest_peak.balance.name().c_str(), std::string(name_of(report->largest_peak.stage)).c_str());
  }
  for (const std::string& e : report->errors) fail(e);
  return report->errors.empty() ? int(kOk) : int(kFailure);
}

}  // namespace

Command add_bench_pipeline(CLI::App* bench) {
  auto a = std::make_shared<Args>();
  auto* sub = bench->add_subcommand(
      "pipeline",
      "A sample of balances through the capture-resolved batch end to end, and the projection for a whole piece count");
  sub->add_option("--sample", a->sample,
                  "Balances of the sample (default " + names(bench::default_pipeline_sample()) + ")");
  sub->add_option("--syzygy", a->syzygy, "Syzygy directory: each table is also compared with its WDL file");
  sub->add_option("--project", a->project_pieces, "Project for every balance of this many pieces (default 5)")
      ->check(CLI::Range(3, 5));
  sub->footer(
      "The sample runs as `batch SAMPLE --covers capture-resolved` does in the data directory: what is\n"
      "missing (the balances the sample's capture searches reach, first) is made, what is done is taken\n"
      "from its record and marked so. Measure with nothing else running.\n"
      "Example:\n  egtmin-cli bench pipeline --data /scratch/egtmin --syzygy ../shared/syzygy");
  add_common(sub, a->common);
  return {sub, [a] { return run(*a); }};
}

}  // namespace egtmin::cli
