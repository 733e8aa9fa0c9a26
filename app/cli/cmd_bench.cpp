// SPDX-License-Identifier: GPL-3.0-or-later
#include <chrono>
#include <fstream>

#include "bench/ablation.hpp"
#include "bench/probe_bench.hpp"
#include "bench/size_report.hpp"
#include "bench_engine.hpp"
#include "bench_pipeline.hpp"
#include "common.hpp"
#include "probe/probe.hpp"
#include "table/table_store.hpp"
#include "util/host.hpp"

namespace egtmin::cli {

namespace {

// `timed`: Standalone, the standalone covers; CaptureResolved, the capture-resolved ones beside them.
int run_probe_bench(const Common& common, const std::string& syzygy_dir, const bench::ProbeBenchOptions& opts,
                    const std::string& csv, double index_copies, const std::string& regions_name, bool rebuild,
                    store::CoverKind timed) {
  const auto regions = parse_named<probe::RegionPolicy>(regions_name, "region policy");
  if (!regions) return fail("--index-regions: " + regions.error().message);
  auto syz = Syzygy::open(syzygy_dir);
  if (!syz) return fail(syz.error().message);
  const auto load_start = std::chrono::steady_clock::now();
  const auto layouts = rebuild ? probe::CoverProber::LayoutPolicy::Rebuild : probe::CoverProber::LayoutPolicy::Use;
  auto prober = probe::CoverProber::open(common.data_dir(), index_copies, *regions, common.threads, layouts,
                                         store::CoverKind::Standalone);
  if (!prober) return fail(prober.error().message);
  // The capture-resolved covers, timed beside the standalone ones on the same positions.
  std::unique_ptr<probe::CoverProber> resolved;
  if (timed == store::CoverKind::CaptureResolved) {
    auto r = probe::CoverProber::open(common.data_dir(), index_copies, *regions, common.threads, layouts,
                                      store::CoverKind::CaptureResolved);
    if (!r) return fail(r.error().message);
    resolved = std::move(*r);
  }
  const double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
  if ((*prober)->balances().empty())
    return fail("no cover files under " + (common.data_dir() / "covers").string() + " (egtmin-cli minimize --pieces " +
                std::to_string(opts.pieces) + ")");
  double build_s = 0;
  size_t from_layouts = 0;
  for (const Balance& b : (*prober)->balances()) {
    build_s += (*prober)->cover(b)->index_build_seconds;
    from_layouts += (*prober)->cover(b)->from_layout();
  }
  // Named balances without a Syzygy file are checked against their tables.
  TableStore store(common.data_dir());
  const TableLookup tables = store.lookup();
  auto progress = make_progress(common);
  auto res = bench::run_probe_bench(**prober, **syz, opts, *progress, resolved.get(), &tables);
  end_progress(common);
  if (!res) return fail(res.error().message);
  const auto& r = *res;

  if (!csv.empty()) {
    std::ofstream out(csv);
    if (!out) return fail("cannot write " + csv);
    out << "position,fen";
    for (const auto& m : r.methods) out << "," << probe::probe_method_name(m.method) << "_ns";
    out << "\n";
    for (size_t i = 0; i < r.samples.size(); ++i) {
      out << i << "," << bench::to_position(r.samples[i]).fen();
      for (const auto& m : r.methods) {  // empty where a method was timed on a subsample
        out << ",";
        if (i < m.times_ns.size()) out << m.times_ns[i];
      }
      out << "\n";
    }
    if (!out) return fail("cannot write " + csv);
  }

  const bool on_tables = r.checked_against == bench::CheckedAgainst::Tables;
  nlohmann::json j{{"anchor", on_tables ? std::string("table") : std::string(probe::anchor_method().name)},
                   {"host", describe_host()},
                   {"positions", r.positions},
                   {"pieces", opts.pieces},
                   {"seed", opts.seed},
                   {"candidates", r.candidates},
                   {"discarded_illegal", r.discarded_illegal},
                   {"discarded_unavailable", r.discarded_unavailable},
                   {"mismatches", r.mismatches},
                   {"mismatch_examples", r.mismatch_examples},
                   {"timer_overhead_ns", r.timer_overhead_ns},
                   {"index_build_seconds", build_s},
                   {"load_seconds", load_s},
                   {"covers_from_layouts", from_layouts},
                   {"index_copies", index_copies},
                   {"index_regions", std::string(name_of(*regions))},
                   {"region_covers", (*prober)->region_covers()},
                   {"rounds", opts.rounds},
                   {"turns", std::string(name_of(opts.turns))},
                   {"covers", (*prober)->balances().size()}};
  for (const auto& m : r.methods) {
    nlohmann::json& jm = j["methods"][std::string(probe::probe_method_name(m.method))];
    jm = {{"positions", m.positions},
          {"mean_ns", m.per_probe.mean_ns},
          {"sd_ns", m.per_probe.sd_ns},
          {"median_ns", m.per_probe.median_ns},
          {"p99_ns", m.per_probe.p99_ns},
          {"total_s", m.per_probe.total_s},
          {"batch_mean_ns", m.batch_mean_ns},
          {"memory_bytes", m.memory_bytes},
          {"round_batch_mean_ns", m.round_batch_mean_ns}};
  }
  // Each round's ratio of the default method to the anchor (batch means), so the spread between
  // rounds shows how far the machine drifted.
  auto timing = [&r](probe::ProbeMethodId id) -> const bench::MethodTiming* {
    for (const auto& m : r.methods)
      if (m.method == id) return &m;
    return nullptr;
  };
  // Each method's batch mean over the anchor's, round by round (the same positions, in turn).
  const bench::MethodTiming* anchor = timing(probe::anchor_method().id);
  auto round_ratios_of = [&](const bench::MethodTiming& ours) {
    std::vector<double> ratios;
    for (size_t i = 0; anchor && i < ours.round_batch_mean_ns.size() && i < anchor->round_batch_mean_ns.size(); ++i)
      ratios.push_back(ours.round_batch_mean_ns[i] / anchor->round_batch_mean_ns[i]);
    return ratios;
  };
  const bench::MethodTiming* ours = timing(probe::probe_methods().front().id);
  const std::vector<double> round_ratios = ours ? round_ratios_of(*ours) : std::vector<double>{};
  j["round_indexed_to_fathom"] = round_ratios;
  nlohmann::json by_method = nlohmann::json::object();
  for (const auto& m : r.methods)
    if (&m != anchor) by_method[std::string(probe::probe_method_name(m.method))] = round_ratios_of(m);
  j["round_ratios_to_fathom"] = by_method;
  // The named balances one by one: what each keeps on disk and in memory against its Syzygy file.
  auto footprint = [](const probe::CoverProber* p, const Balance& b) {
    const probe::LoadedCover* c = p ? p->cover(b) : nullptr;
    if (!c) return nlohmann::json(nullptr);
    return nlohmann::json{
        {"layout_bytes", c->from_layout() ? nlohmann::json(c->layout.size()) : nlohmann::json(nullptr)},
        {"resident_bytes", p->resident_bytes(b)}};
  };
  j["balances"] = nlohmann::json::array();
  for (const Balance& b : opts.balances) {
    std::error_code ec;
    const auto rtbw = std::filesystem::file_size(std::filesystem::path(syzygy_dir) / (b.name() + ".rtbw"), ec);
    j["balances"].push_back({{"balance", b.name()},
                             {"syzygy_wdl_bytes", ec ? nlohmann::json(nullptr) : nlohmann::json(rtbw)},
                             {"indexed", footprint(prober->get(), b)},
                             {"capture_resolved", footprint(resolved.get(), b)}});
  }
  if (common.json) {
    print_json(j);
  } else {
    std::printf("%llu positions (%d pieces, seed %llu), %llu candidates drawn: %llu illegal, %llu without cover/%s\n",
                (unsigned long long)r.positions, opts.pieces, (unsigned long long)opts.seed,
                (unsigned long long)r.candidates, (unsigned long long)r.discarded_illegal,
                (unsigned long long)r.discarded_unavailable, on_tables ? "table" : "Syzygy");
    std::printf("host: %s\n", describe_host().c_str());
    std::printf("mismatches against %s: %llu\n", on_tables ? "the tables" : "Fathom", (unsigned long long)r.mismatches);
    for (const auto& e : r.mismatch_examples) std::printf("  %s\n", e.c_str());
    std::printf("%-16s %10s %10s %10s %10s %10s %10s %12s %14s\n", "method", "positions", "mean ns", "sd ns",
                "median ns", "p99 ns", "total s", "batch mean", "memory bytes");
    for (const auto& m : r.methods)
      std::printf("%-16s %10llu %10.1f %10.1f %10.0f %10.0f %10.3f %12.1f %14zu\n",
                  std::string(probe::probe_method_name(m.method)).c_str(), (unsigned long long)m.positions,
                  m.per_probe.mean_ns, m.per_probe.sd_ns, m.per_probe.median_ns, m.per_probe.p99_ns,
                  m.per_probe.total_s, m.batch_mean_ns, m.memory_bytes);
    std::printf(
        "per-probe times include the clock's own cost (%.0f ns); batch mean times whole passes.\n"
        "loading: %.2f s (%zu of %zu covers from their layout files, index build %.2f s of CPU time); %d "
        "round(s)\n",
        r.timer_overhead_ns, load_s, from_layouts, (*prober)->balances().size(), build_s, opts.rounds);
    // The default method's ratios, then the capture-resolved covers' when they were timed.
    auto print_ratios = [&](probe::ProbeMethodId id, const std::vector<double>& ratios) {
      std::printf("%s / %s (batch means) per round:", std::string(probe::probe_method_name(id)).c_str(),
                  std::string(probe::anchor_method().name).c_str());
      for (double ratio : ratios) std::printf(" %.4f", ratio);
      std::printf("\n");
    };
    if (anchor) print_ratios(probe::probe_methods().front().id, round_ratios);
    if (const bench::MethodTiming* cr = timing(probe::ProbeMethodId::CaptureResolved); cr && anchor)
      print_ratios(cr->method, round_ratios_of(*cr));
    for (const auto& jb : j["balances"]) {
      std::printf(
          "%s: Syzygy WDL %s bytes", jb["balance"].get<std::string>().c_str(),
          jb["syzygy_wdl_bytes"].is_null() ? "-" : std::to_string(jb["syzygy_wdl_bytes"].get<uint64_t>()).c_str());
      for (const char* kind : {"indexed", "capture_resolved"}) {
        const auto& f = jb[kind];
        if (f.is_null()) continue;
        std::printf("; %s: layout %s bytes, resident %llu bytes", kind,
                    f["layout_bytes"].is_null() ? "-" : std::to_string(f["layout_bytes"].get<uint64_t>()).c_str(),
                    (unsigned long long)f["resident_bytes"].get<uint64_t>());
      }
      std::printf("\n");
    }
  }
  return r.mismatches == 0 ? int(kOk) : int(kFailure);
}

int run_size_bench(const Common& common, const std::string& syzygy_dir, int pieces, store::CoverKind kind) {
  auto progress = make_progress(common);
  auto rep = bench::size_report(common.data_dir(), syzygy_dir, pieces, *progress, kind);
  end_progress(common);
  if (!rep) return fail(rep.error().message);
  auto ratio = [](uint64_t a, uint64_t b) { return b ? double(a) / double(b) : 0.0; };
  auto parts = [](const probe::LayoutParts& p) {
    return nlohmann::json{{"index", p.index}, {"regions", p.regions}, {"rule_draws", p.rule_draws}, {"rest", p.rest}};
  };
  nlohmann::json j{{"total_bytes", rep->total_bytes},
                   {"syzygy_bytes", rep->syzygy_bytes},
                   {"syzygy_xz_bytes", rep->syzygy_xz_bytes},
                   {"ratio_to_syzygy", ratio(rep->total_bytes, rep->syzygy_bytes)},
                   {"ratio_to_syzygy_xz", ratio(rep->total_bytes, rep->syzygy_xz_bytes)},
                   {"both",
                    {{"cover_bytes", rep->both_cover_bytes},
                     {"syzygy_bytes", rep->both_syzygy_bytes},
                     {"syzygy_xz_bytes", rep->both_syzygy_xz_bytes}}},
                   {"missing_covers", rep->missing_covers},
                   {"probe_ready",
                    {{"bytes", rep->probe_ready_bytes},
                     {"with_syzygy_bytes", rep->ready_both_bytes},
                     {"syzygy_bytes", rep->ready_both_syzygy_bytes},
                     {"ratio_to_syzygy", ratio(rep->ready_both_bytes, rep->ready_both_syzygy_bytes)},
                     {"missing_layouts", rep->missing_layouts},
                     {"parts", parts(rep->probe_ready_parts)}}},
                   {"balances", nlohmann::json::array()}};
  for (const auto& row : rep->rows)
    j["balances"].push_back(
        {{"balance", row.balance.name()},
         {"cover_bytes", row.has_cover ? nlohmann::json(row.cover_bytes) : nlohmann::json(nullptr)},
         {"cubes", row.has_cover || row.has_layout ? nlohmann::json(row.cubes) : nlohmann::json(nullptr)},
         {"layout_bytes", row.has_layout ? nlohmann::json(row.layout_bytes) : nlohmann::json(nullptr)},
         {"probe_ready_bytes", row.has_layout ? nlohmann::json(row.probe_ready_bytes()) : nlohmann::json(nullptr)},
         {"layout_parts", row.has_layout ? parts(row.layout_parts) : nlohmann::json(nullptr)},
         {"syzygy_bytes", row.has_syzygy ? nlohmann::json(row.syzygy_bytes) : nlohmann::json(nullptr)},
         {"syzygy_xz_bytes", row.has_syzygy ? nlohmann::json(row.syzygy_xz_bytes) : nlohmann::json(nullptr)}});
  if (common.json) {
    print_json(j);
    return kOk;
  }
  std::printf("%-8s %10s %12s %12s %12s %12s %8s %8s\n", "balance", "cubes", "egtc bytes", "ready bytes", "rtbw bytes",
              "rtbw.xz", "egtc/xz", "ready/rtbw");
  for (const auto& row : rep->rows) {
    auto num = [](bool has, uint64_t v) { return has ? std::to_string(v) : std::string("-"); };
    auto frac = [&](bool has, uint64_t a, uint64_t b) {
      return has ? std::to_string(ratio(a, b)).substr(0, 5) : std::string("-");
    };
    std::printf("%-8s %10s %12s %12s %12s %12s %8s %8s\n", row.balance.name().c_str(),
                num(row.has_cover || row.has_layout, row.cubes).c_str(), num(row.has_cover, row.cover_bytes).c_str(),
                num(row.has_layout, row.probe_ready_bytes()).c_str(), num(row.has_syzygy, row.syzygy_bytes).c_str(),
                num(row.has_syzygy, row.syzygy_xz_bytes).c_str(),
                frac(row.has_cover && row.has_syzygy, row.cover_bytes, row.syzygy_xz_bytes).c_str(),
                frac(row.has_layout && row.has_syzygy, row.probe_ready_bytes(), row.syzygy_bytes).c_str());
  }
  std::printf("total: ours %llu bytes, Syzygy %llu bytes, Syzygy through xz -9e %llu bytes (ours / xz = %.3f)\n",
              (unsigned long long)rep->total_bytes, (unsigned long long)rep->syzygy_bytes,
              (unsigned long long)rep->syzygy_xz_bytes, ratio(rep->total_bytes, rep->syzygy_xz_bytes));
  std::printf(
      "probe-ready (the layouts, which probe without their covers): %llu bytes; where Syzygy has a file, %llu against "
      "its %llu (%.3f)\n",
      (unsigned long long)rep->probe_ready_bytes, (unsigned long long)rep->ready_both_bytes,
      (unsigned long long)rep->ready_both_syzygy_bytes, ratio(rep->ready_both_bytes, rep->ready_both_syzygy_bytes));
  const probe::LayoutParts& p = rep->probe_ready_parts;
  std::printf("  of them: front lines and trees %llu, regions %llu, the 50-move rule's draws %llu, the rest %llu\n",
              (unsigned long long)p.index, (unsigned long long)p.regions, (unsigned long long)p.rule_draws,
              (unsigned long long)p.rest);
  if (rep->missing_covers)
    std::printf("%d balance(s) have no cover or layout yet; totals leave them out\n", rep->missing_covers);
  if (rep->missing_layouts)
    std::printf("%d cover(s) have no current layout (made on their first probe); probe-ready totals leave them out\n",
                rep->missing_layouts);
  return kOk;
}

struct AblationArgs {
  Common common;
  std::vector<std::string> balances;
  int pieces = 0;
  std::string work, syzygy, ideas;
  int probe_pieces = 4;
  uint64_t probe_positions = 200'000;
};

int run_ablation_bench(const AblationArgs& a) {
  auto balances = balances_or_pieces(a.balances, a.pieces, "bench ablation");
  if (!balances) {
    fail(balances.error().message);
    return kUsage;
  }
  bench::AblationRequest req;
  req.balances = *balances;
  req.data_dir = a.common.data_dir();
  req.work_dir = a.work.empty() ? a.common.data_dir() / "ablation" : std::filesystem::path(a.work);
  for (size_t at = 0; at < a.ideas.size();) {
    const size_t comma = std::min(a.ideas.find(',', at), a.ideas.size());
    if (comma > at) req.ideas.push_back(a.ideas.substr(at, comma - at));
    at = comma + 1;
  }
  if (!a.syzygy.empty()) req.syzygy = a.syzygy;
  req.probe_pieces = a.probe_pieces;
  req.probe_positions = a.probe_positions;
  req.threads = a.common.threads;
  auto progress = make_progress(a.common);
  auto rows = bench::run_ablation(req, *progress);
  end_progress(a.common);
  if (!rows) return fail(rows.error().message);
  nlohmann::json j = nlohmann::json::array();
  uint64_t mismatches = 0;
  for (const bench::AblationRow& r : *rows) {
    nlohmann::json jb = nlohmann::json::array();
    for (const bench::AblationBalance& b : r.balances)
      jb.push_back({{"balance", b.balance.name()},
                    {"bytes", b.bytes},
                    {"cubes", b.cubes},
                    {"minimize_seconds", b.minimize_seconds}});
    j.push_back({{"idea", r.idea},
                 {"description", r.description},
                 {"bytes", r.bytes},
                 {"cubes", r.cubes},
                 {"minimize_seconds", r.minimize_seconds},
                 {"probe_positions", r.probe_positions},
                 {"probe_mismatches", r.probe_mismatches},
                 {"indexed_batch_mean_ns", r.probe_ns},
                 {"fathom_batch_mean_ns", r.fathom_ns},
                 {"balances", jb}});
    mismatches += r.probe_mismatches;
  }
  if (a.common.json) {
    print_json({{"ideas", j}, {"work_dir", req.work_dir.string()}});
  } else {
    const uint64_t base = rows->empty() ? 0 : rows->front().bytes;
    std::printf("%-17s %10s %9s %8s %11s %11s %7s\n", "idea", "bytes", "cubes", "min s", "indexed ns", "fathom ns",
                "bytes/1st");
    for (const bench::AblationRow& r : *rows)
      std::printf("%-17s %10llu %9llu %8.1f %11.1f %11.1f %7.3f\n", r.idea.c_str(), (unsigned long long)r.bytes,
                  (unsigned long long)r.cubes, r.minimize_seconds, r.probe_ns, r.fathom_ns,
                  base ? double(r.bytes) / double(base) : 0.0);
  }
  return mismatches == 0 ? int(kOk) : int(kFailure);
}

Command add_bench(CLI::App& app) {
  struct Args {
    Common probe_common, size_common;
    std::string syzygy_probe, syzygy_size, csv;
    bench::ProbeBenchOptions opts{.rounds = 3, .scan_positions = 0, .balances = {}};
    int size_pieces = 4;
    bool size_capture_resolved = false;
    double index_copies = probe::CoverProber::kDefaultCopies;
    std::string index_regions = "auto";
    bool rebuild_index = false;
    bool capture_resolved = false;
    std::vector<std::string> balance_names;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand("bench", "Benchmarks against Syzygy/Fathom: probe times and file sizes");
  sub->require_subcommand(1);
  auto* p =
      sub->add_subcommand("probe", "Time cover probes (linear, indexed) against Fathom on random legal positions");
  p->add_option("--syzygy", a->syzygy_probe, "Syzygy directory (WDL files)")->required();
  p->add_option("--positions", a->opts.positions, "Positions to sample (default 10,000,000)")
      ->check(CLI::PositiveNumber);
  p->add_option("--pieces", a->opts.pieces, "Pieces per position")->check(CLI::Range(3, 5));
  p->add_option("--seed", a->opts.seed, "Random seed (default 1)");
  p->add_option("--csv", a->csv, "Write every per-probe time (of the last round) to this CSV file");
  p->add_option("--rounds", a->opts.rounds,
                "Timing rounds: each times every method once, the methods in turn (default 3)")
      ->check(CLI::Range(1, 100));
  add_enum_option(p, "--turns", a->opts.turns,
                  "How the methods take turns in a round: pass (each probes every position before the next; the "
                  "default) or chunk (every 4,096 positions, which one first rotating, so a drifting machine slows "
                  "all alike; methods that scan covers keep their own passes)");
  p->add_option("--balance", a->balance_names,
                "Only positions of this balance (repeat for several): per-balance figures");
  p->add_option("--scan-positions", a->opts.scan_positions,
                "Check and time the linear scan on the first N positions only (default: all up to 4 pieces, "
                "2,000 at 5, where a scan of millions of cubes takes a millisecond)");
  p->add_option("--index-copies", a->index_copies,
                "Memory budget of the indexed method: cube copies per cube of the cover (default 2)")
      ->check(CLI::Range(1.0, 1024.0));
  p->add_flag("--capture-resolved", a->capture_resolved,
              "Also time the capture-resolved covers (NAME.egtcr; the standalone ones where a balance has none) as "
              "the method capture-resolved: the better of the cubes' value and a one-ply capture search, on the same "
              "positions in the same rounds as the others");
  p->add_flag("--against-tables", a->opts.against_tables,
              "Check every position against the exact tables under --data instead of Fathom, and leave Fathom "
              "out (what --balance names without a Syzygy file get)");
  p->add_flag("--rebuild-index", a->rebuild_index,
              "Build every index from its cover in memory instead of mapping the stored layout files");
  p->add_option("--index-regions", a->index_regions,
                "Region indexes for the indexed method's front misses: auto (the diffuse covers), always or "
                "never (default auto)");
  p->footer(
      "Positions are drawn as in the paper (section 3.4); illegal ones and ones without a cover or a\n"
      "Syzygy file are discarded. Every position is first checked against Fathom (the run fails on any\n"
      "mismatch), then each method is timed over all of them, in --rounds rounds that take the methods\n"
      "in turn, so that a shared machine's slow phases fall on every method alike. --balance names\n"
      "without a Syzygy file are checked against their tables (under --data) instead, and Fathom is not\n"
      "timed in that run.\n"
      "Examples:\n  egtmin-cli bench probe --syzygy ../shared/syzygy --positions 1000000 --json\n"
      "  egtmin-cli bench probe --syzygy ../shared/syzygy --pieces 5 --balance KBBvKP --positions 100000");
  add_common(p, a->probe_common);
  p->get_option("--threads")
      ->description(
          "Threads that load and index the covers (default 0: one per hardware thread); the probes are timed on one");
  auto* s = sub->add_subcommand("size", "Cover file sizes against Syzygy WDL files, as shipped and through xz -9e");
  s->add_option("--syzygy", a->syzygy_size, "Syzygy directory (WDL files)")->required();
  s->add_option("--pieces", a->size_pieces, "Balances of up to this many pieces (default 4)")->check(CLI::Range(3, 5));
  s->add_flag("--capture-resolved", a->size_capture_resolved,
              "Report the capture-resolved covers (NAME.egtcr) instead of the standalone ones");
  s->footer(
      "Example:\n  egtmin-cli bench size --syzygy ../shared/syzygy --json\n"
      "  egtmin-cli bench size --syzygy ../shared/syzygy --capture-resolved");
  add_common(s, a->size_common);
  s->get_option("--threads")
      ->description("Not used: the sizes are measured on one thread (accepted like every command's)");
  auto ab = std::make_shared<AblationArgs>();
  auto* ablation = sub->add_subcommand(
      "ablation", "Each idea that might shrink the covers against the default covers: bytes, cubes, time, probe");
  add_balance_selection(ablation, ab->balances, ab->pieces, "Balances to minimize for every idea");
  ablation->add_option("--work", ab->work,
                       "Directory for each idea's covers, WORK/IDEA/covers (default DATA/ablation)");
  ablation->add_option("--ideas", ab->ideas, "Comma-separated ideas (default: all but effort-high)");
  ablation->add_option("--syzygy", ab->syzygy, "Syzygy directory: time each idea's indexed probe against Fathom");
  ablation->add_option("--probe-pieces", ab->probe_pieces, "Pieces of the timed positions (default 4)")
      ->check(CLI::Range(3, 5));
  ablation->add_option("--probe-positions", ab->probe_positions, "Timed positions per idea (default 200,000)")
      ->check(CLI::PositiveNumber);
  std::string idea_help = "Ideas:\n";
  for (const bench::AblationIdea& i : bench::ablation_ideas())
    idea_help += "  " + i.name + std::string(i.name.size() < 17 ? 17 - i.name.size() : 1, ' ') + i.description + "\n";
  ablation->footer(idea_help +
                   "Each idea minimizes the balances into WORK/IDEA/covers with the shared tables; the probe of each\n"
                   "is timed on the same positions (seed 1) with Fathom in the same run.\n"
                   "Example:\n  egtmin-cli bench ablation --pieces 4 --syzygy ../shared/syzygy --json");
  add_common(ablation, ab->common);
  const Command engine = add_bench_engine(sub);
  const Command pipeline = add_bench_pipeline(sub);
  return {sub, [a, p, s, ab, ablation, engine, pipeline] {
            if (ablation->parsed()) return run_ablation_bench(*ab);
            if (engine.sub->parsed()) return engine.run();
            if (pipeline.sub->parsed()) return pipeline.run();
            if (p->parsed()) {
              a->opts.keep_times = !a->csv.empty();
              for (const std::string& name : a->balance_names) {
                auto b = Balance::parse(name);
                if (!b) {
                  fail("--balance: " + b.error().message);
                  return int(kUsage);
                }
                if (b->pieces() != a->opts.pieces) {
                  fail("--balance " + name + " has " + std::to_string(b->pieces()) + " pieces; --pieces is " +
                       std::to_string(a->opts.pieces));
                  return int(kUsage);
                }
                a->opts.balances.push_back(b->canonical());
              }
              if (p->count("--scan-positions") == 0)
                a->opts.scan_positions = bench::ProbeBenchOptions::default_scan_positions(a->opts.pieces);
              return run_probe_bench(a->probe_common, a->syzygy_probe, a->opts, a->csv, a->index_copies,
                                     a->index_regions, a->rebuild_index, cover_kind(a->capture_resolved));
            }
            if (s->parsed())
              return run_size_bench(a->size_common, a->syzygy_size, a->size_pieces,
                                    cover_kind(a->size_capture_resolved));
            return int(kUsage);
          }};
}

const CommandRegistration kRegistered(60, add_bench);
}  // namespace

}  // namespace egtmin::cli
