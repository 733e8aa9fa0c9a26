// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench_engine.hpp"

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "drop_in.hpp"
#include "engine/engine_match.hpp"
#include "engine/launch.hpp"
#include "util/host.hpp"

namespace egtmin::cli {

namespace fs = std::filesystem;

namespace {

struct Args {
  Common common;
  std::string covers, syzygy, engine = "ethereal-chess", preload, work;
  size_t positions = 500;
  int depth = 10;
  uint64_t seed = 1;
  std::vector<int> extra{1, 2};
  int hash_mb = 16;
  int engine_threads = 1;
  store::CoverKind prefer = store::CoverKind::Standalone;
};

std::string names(const std::vector<Balance>& list) {
  std::string s;
  for (const Balance& b : list) s += (s.empty() ? "" : " ") + b.name();
  return s.empty() ? "none" : s;
}

std::string joined(const std::vector<std::string>& list) {
  std::string s;
  for (const std::string& x : list) s += (s.empty() ? "" : ", ") + x;
  return s.empty() ? "none" : s;
}

nlohmann::json search_json(const engine::SearchResult& r) {
  return {{"depth", r.depth},   {"score", r.score},       {"nodes", r.nodes},
          {"tbhits", r.tbhits}, {"bestmove", r.bestmove}, {"seconds", r.seconds}};
}

int run(const Args& a) {
  const auto engine_path = engine::find_program(a.engine);
  if (!engine_path) return fail("--engine: cannot find " + a.engine + " on PATH or in /usr/games");
  if (!fs::exists(a.preload)) return fail("--fathom-preload: " + a.preload + " does not exist");
  if (!fathom_dir()) return fail("egtmin's libfathom.so.1 is not installed beside this program");
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return fail("cannot find this program's path: " + ec.message());

  // The work directory: given, or a fresh one under the temporary directory, removed after.
  fs::path work = a.work;
  bool remove_work = false;
  if (work.empty()) {
    std::string tmpl = (fs::temp_directory_path() / "egtmin-bench-engine-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) return fail("cannot make a temporary directory");
    work = tmpl;
    remove_work = true;
  }
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code e;
      if (!dir.empty()) fs::remove_all(dir, e);
    }
  } cleanup{remove_work ? work : fs::path()};

  auto tables = engine::prepare_match_tables(a.covers, a.syzygy, work, a.prefer);
  if (!tables) return fail(tables.error().message);
  std::vector<Balance> bases;
  for (const Balance& b : tables->balances)
    if (b.pieces() == tables->largest) bases.push_back(b);
  std::vector<int> piece_counts;
  for (int e : a.extra) piece_counts.push_back(tables->largest + e);

  engine::MatchRequest req;
  req.depth = a.depth;
  req.hash_mb = a.hash_mb;
  req.threads = a.engine_threads;
  req.fens = engine::sample_positions(bases, a.extra, a.positions, a.seed);
  // The drop-in through egtmin-cli engine, as a GUI would run it: SyzygyPath names the covers.
  req.a.label = "drop-in";
  req.a.command.argv = {self.string(), "engine", "--", engine_path->string()};
  req.a.command.unset_env = {"LD_PRELOAD", "EGTMIN_COVERS"};
  req.a.syzygy_path = fs::absolute(tables->covers).string();
  // The system's libfathom, given the tb_init_impl the engine imports by the preloaded alias.
  req.b.label = "libfathom";
  req.b.command.argv = {engine_path->string()};
  req.b.command.set_env = {"LD_PRELOAD=" + fs::absolute(a.preload).string()};
  req.b.command.unset_env = {"LD_LIBRARY_PATH", "EGTMIN_COVERS"};
  req.b.syzygy_path = fs::absolute(tables->syzygy).string();

  if (!a.common.quiet && !a.common.json) {
    std::printf("balances: %zu, largest %d pieces: %s\n", tables->balances.size(), tables->largest,
                names(tables->balances).c_str());
    std::printf("capture-resolved covers: %s\n", names(tables->capture_resolved).c_str());
    std::printf(
        "left out: only a cover: %s; only a WDL file: %s; a capture-resolved cover whose search reaches "
        "one left out: %s\n",
        names(tables->only_covers).c_str(), names(tables->only_syzygy).c_str(), names(tables->unreachable).c_str());
    std::printf(
        "positions: %zu of %s pieces, from %s plus pieces (seed %llu)\n", req.fens.size(),
        [&] {
          std::string s;
          for (int n : piece_counts) s += (s.empty() ? "" : " and ") + std::to_string(n);
          return s;
        }()
            .c_str(),
        names(bases).c_str(), (unsigned long long)a.seed);
    std::printf("engine: %s, depth %d, Threads %d, Hash %d MB, ucinewgame before each position\n", engine_path->c_str(),
                a.depth, a.engine_threads, a.hash_mb);
    std::fflush(stdout);
  }
  auto progress = make_progress(a.common);
  auto report = engine::run_match(req, *progress);
  end_progress(a.common);
  if (!report) return fail(report.error().message);
  const engine::MatchReport& r = *report;
  const double ratio = r.seconds_b > 0 ? r.seconds_a / r.seconds_b : 0;
  const std::string host = describe_host();
  // Which libraries the engines really loaded: the check means nothing if both probed the same.
  const bool distinct = !r.fathom_a.empty() && !r.fathom_b.empty() && r.fathom_a != r.fathom_b;
  const bool probed = r.tbhits_a > 0;
  // More threads search differently each time: then only errors and tbhits count.
  const bool compared = a.engine_threads == 1;

  if (a.common.json) {
    nlohmann::json positions = nlohmann::json::array();
    for (const engine::MatchPosition& p : r.positions)
      positions.push_back(
          {{"fen", p.fen}, {"same", p.same()}, {"drop_in", search_json(p.a)}, {"libfathom", search_json(p.b)}});
    std::vector<std::string> balance_names, resolved_names;
    for (const Balance& b : tables->balances) balance_names.push_back(b.name());
    for (const Balance& b : tables->capture_resolved) resolved_names.push_back(b.name());
    print_json({{"engine", engine_path->string()},
                {"depth", a.depth},
                {"engine_threads", a.engine_threads},
                {"hash_mb", a.hash_mb},
                {"seed", a.seed},
                {"balances", balance_names},
                {"capture_resolved", resolved_names},
                {"largest", tables->largest},
                {"positions", r.positions.size()},
                {"compared", compared},
                {"mismatches", r.mismatches},
                {"drop_in",
                 {{"seconds", r.seconds_a},
                  {"nodes", r.nodes_a},
                  {"tbhits", r.tbhits_a},
                  {"library", r.fathom_a},
                  {"balances_probed", r.mapped_a}}},
                {"libfathom",
                 {{"seconds", r.seconds_b},
                  {"nodes", r.nodes_b},
                  {"tbhits", r.tbhits_b},
                  {"library", r.fathom_b},
                  {"balances_probed", r.mapped_b}}},
                {"ratio_drop_in_to_libfathom", ratio},
                {"host", host},
                {"results", positions}});
  } else {
    size_t shown = 0;
    for (const engine::MatchPosition& p : r.positions) {
      if (!compared || p.same() || shown++ >= 10) continue;
      std::printf(
          "MISMATCH %s\n  drop-in:   depth %d score %s nodes %llu tbhits %llu bestmove %s\n"
          "  libfathom: depth %d score %s nodes %llu tbhits %llu bestmove %s\n",
          p.fen.c_str(), p.a.depth, p.a.score.c_str(), (unsigned long long)p.a.nodes, (unsigned long long)p.a.tbhits,
          p.a.bestmove.c_str(), p.b.depth, p.b.score.c_str(), (unsigned long long)p.b.nodes,
          (unsigned long long)p.b.tbhits, p.b.bestmove.c_str());
    }
    std::printf("libraries: drop-in %s; libfathom %s\n", joined(r.fathom_a).c_str(), joined(r.fathom_b).c_str());
    std::printf("balances probed (tables mapped): drop-in %s; libfathom %s\n", joined(r.mapped_a).c_str(),
                joined(r.mapped_b).c_str());
    if (compared)
      std::printf("positions: %zu, identical nodes, scores, best moves and tbhits: %zu, mismatches: %zu\n",
                  r.positions.size(), r.positions.size() - r.mismatches, r.mismatches);
    else
      std::printf("positions: %zu, searched without error; not compared (Threads %d is not deterministic)\n",
                  r.positions.size(), a.engine_threads);
    std::printf("nodes: drop-in %llu, libfathom %llu; tbhits: drop-in %llu, libfathom %llu\n",
                (unsigned long long)r.nodes_a, (unsigned long long)r.nodes_b, (unsigned long long)r.tbhits_a,
                (unsigned long long)r.tbhits_b);
    std::printf("search time: drop-in %.3f s, libfathom %.3f s, drop-in / libfathom %.3f\n", r.seconds_a, r.seconds_b,
                ratio);
    std::printf("host: %s\n", host.c_str());
  }
  if (!distinct)
    return fail("the two engines did not load two different libfathom libraries: the check proves nothing");
  if (!probed) return fail("no search probed the tables (tbhits 0): the check proves nothing");
  return !compared || r.mismatches == 0 ? int(kOk) : int(kFailure);
}

}  // namespace

Command add_bench_engine(CLI::App* bench) {
  auto a = std::make_shared<Args>();
  auto* sub = bench->add_subcommand(
      "engine",
      "A real engine's searches through egtmin's libfathom.so.1 over covers against the system's libfathom "
      "over Syzygy: identical, and how fast");
  sub->add_option("--covers", a->covers, "Directory of covers, or a data directory (its covers/)")->required();
  sub->add_option("--syzygy", a->syzygy, "Syzygy directory (only its WDL files are used)")->required();
  sub->add_option("--fathom-preload", a->preload,
                  "Library preloaded into the engine run with the system's libfathom, giving it the tb_init_impl the "
                  "engine imports and Debian's libfathom1 lacks (scripts/bench-engine.sh builds it)")
      ->required();
  sub->add_option("--engine", a->engine, "UCI engine linked with libfathom.so.1")->capture_default_str();
  sub->add_option("--positions", a->positions, "Positions to search")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub->add_option("--depth", a->depth, "Fixed search depth")->capture_default_str()->check(CLI::Range(1, 64));
  sub->add_option("--seed", a->seed, "Random seed of the positions")->capture_default_str();
  sub->add_option("--extra", a->extra, "Pieces each position has beyond the largest balance kept, in turn")
      ->delimiter(',')
      ->capture_default_str()
      ->check(CLI::Range(1, 3));
  sub->add_option("--hash", a->hash_mb, "The engine's Hash option, MB")
      ->capture_default_str()
      ->check(CLI::Range(1, 65536));
  sub->add_option("--engine-threads", a->engine_threads,
                  "The engine's Threads option (1: a deterministic search, the check; more: a run without errors)")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  add_enum_option(sub, "--prefer", a->prefer,
                  "Which cover a balance with both kinds is answered by: standalone (the default) or "
                  "capture-resolved (only where every balance its capture search reaches is kept)");
  sub->add_option("--work", a->work, "Directory for the two sides' symlinked tables (default: a temporary one)");
  sub->footer(
      "Each side's directory holds the balances with both a cover and a WDL file, and nothing else (no DTZ\n"
      "on either side). The positions have more pieces than the largest of them, so the root is never\n"
      "probed and the searches' captures reach the tables. Both engines search every position at the\n"
      "fixed depth after ucinewgame, taking turns going first; nodes, score, best move and tbhits must be\n"
      "identical (exit 1 otherwise), and the summed search times are compared.\n"
      "Example:\n  egtmin-cli bench engine --covers DATA --syzygy ../shared/syzygy --fathom-preload alias.so\n"
      "  scripts/bench-engine.sh DATA   (builds the alias, 500 positions)");
  add_common(sub, a->common);
  return {sub, [a] { return run(*a); }};
}

}  // namespace egtmin::cli
