// SPDX-License-Identifier: GPL-3.0-or-later
// The probe and bench commands end to end, on a data directory holding test covers of the 3-piece
// balances (tests/probe/cover_builder.hpp), so they do not wait for the minimizer.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "probe/cover_builder.hpp"
#include "probe/cover_prober.hpp"
#include "probe/probe_layout.hpp"
#include "support/env.hpp"
#include "util/host.hpp"

namespace egtmin {
namespace {

struct CliRun {
  int rc = -1;
  std::string out;
};

CliRun run_cli(const std::string& args) {
  CliRun r;
  std::string cmd = std::string(EGTMIN_CLI) + " " + args + " 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = ::pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

class CliProbeBench : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(std::filesystem::temp_directory_path() /
                                     ("egtmin-cli-probe-" + std::to_string(::getpid())));
    for (const char* name : {"KQvK", "KRvK", "KBvK", "KNvK", "KPvK"}) {
      auto t = test::shared_store().ensure(*Balance::parse(name));
      ASSERT_TRUE(t.ok()) << t.error().message;
      auto c = test::trie_cover(**t, CanonScheme::Full);
      ASSERT_TRUE(store::save_cover(store::cover_path(*dir_, c.balance), c).ok());
    }
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  static std::filesystem::path* dir_;
};
std::filesystem::path* CliProbeBench::dir_ = nullptr;

TEST_F(CliProbeBench, ProbeAnswersFromTheCoverWithItsCube) {
  // KvKR, Black to move wins: answered through the KRvK cover.
  for (const char* method : {"linear", "indexed"}) {
    CliRun r = run_cli("probe '8/8/8/8/8/2k5/3r4/K7 b - - 0 1' --json --method " + std::string(method) + " --data " +
                       dir_->string());
    ASSERT_EQ(r.rc, 0) << r.out;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["balance"], "KRvK");
    EXPECT_EQ(j["cover_wdl"], "win");
    EXPECT_EQ(j["wdl"], "win");  // no table in this directory: the cover's answer
    EXPECT_TRUE(j["table_wdl"].is_null());
    EXPECT_EQ(j["cube"].get<std::string>().size(), std::string("X XXXXXX XXXXXX XXXXXX 100").size());
  }
  CliRun missing = run_cli("probe '8/8/8/8/8/2k5/2pq4/K7 w - - 0 1' --json --data " + dir_->string());
  EXPECT_EQ(missing.rc, 1);  // KQPvK: no cover, no table
}

TEST_F(CliProbeBench, ProbeMemoryLevelsAnswerAlikeAndSayWhatTheyTake) {
  const std::string fen = "'8/8/8/8/8/2k5/3r4/K7 b - - 0 1'";
  std::map<std::string, size_t> bytes;
  for (const char* level : {"fast", "smallest"}) {
    CliRun r = run_cli("probe " + fen + " --json --memory " + std::string(level) + " --data " + dir_->string());
    ASSERT_EQ(r.rc, 0) << level << ": " << r.out;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["cover_wdl"], "win") << level;
    EXPECT_EQ(j["memory_level"], level);
    bytes[level] = j["resident_bytes"].get<size_t>();
    EXPECT_GT(bytes[level], 0u) << level;
  }
  EXPECT_LT(bytes["smallest"], bytes["fast"]);
  CliRun text = run_cli("probe " + fen + " --memory smallest --data " + dir_->string());
  ASSERT_EQ(text.rc, 0);
  EXPECT_NE(text.out.find("memory: " + std::to_string(bytes["smallest"]) + " bytes"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("level smallest"), std::string::npos) << text.out;
  // Usage errors: a level that does not exist, and an index the level does not keep.
  EXPECT_EQ(run_cli("probe " + fen + " --memory tiny --data " + dir_->string()).rc, 2);
  EXPECT_EQ(run_cli("probe " + fen + " --memory smallest --method indexed --data " + dir_->string()).rc, 2);
}

TEST_F(CliProbeBench, BenchProbeAgreesWithFathomAndReportsEveryMethod) {
  EGTMIN_REQUIRE_SYZYGY();
  CliRun r = run_cli("bench probe --pieces 3 --positions 3000 --seed 5 --json --quiet --syzygy " +
                     test::syzygy_dir().string() + " --data " + dir_->string());
  ASSERT_EQ(r.rc, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["positions"], 3000);
  EXPECT_EQ(j["mismatches"], 0);
  EXPECT_EQ(j["host"], describe_host());  // the machine named beside its figures
  for (const char* m : {"linear", "indexed", "fathom"})
    for (const char* k : {"mean_ns", "sd_ns", "median_ns", "p99_ns", "memory_bytes"})
      EXPECT_TRUE(j["methods"][m].contains(k)) << m << " " << k;
  // Three rounds by default: one batch mean per round and method, pooled into the method's.
  EXPECT_EQ(j["rounds"], 3);
  ASSERT_EQ(j["round_indexed_to_fathom"].size(), 3u);
  for (const char* m : {"linear", "indexed", "fathom"}) {
    const auto& rounds = j["methods"][m]["round_batch_mean_ns"];
    ASSERT_EQ(rounds.size(), 3u) << m;
    double sum = 0;
    for (const auto& v : rounds) sum += v.get<double>();
    EXPECT_NEAR(j["methods"][m]["batch_mean_ns"].get<double>(), sum / 3, 1e-6 * sum) << m;
  }
}

TEST_F(CliProbeBench, BenchProbeRoundsAreChosenAndChecked) {
  EGTMIN_REQUIRE_SYZYGY();
  const std::string common = " --pieces 3 --positions 500 --seed 2 --json --quiet --syzygy " +
                             test::syzygy_dir().string() + " --data " + dir_->string();
  CliRun one = run_cli("bench probe --rounds 1" + common);
  ASSERT_EQ(one.rc, 0) << one.out;
  auto j = nlohmann::json::parse(one.out);
  EXPECT_EQ(j["rounds"], 1);
  EXPECT_EQ(j["methods"]["indexed"]["round_batch_mean_ns"].size(), 1u);
  EXPECT_EQ(j["methods"]["linear"]["positions"], 500);  // all of them, up to 4 pieces
  // The scanning method on a subsample; the others on every position.
  CliRun sub = run_cli("bench probe --rounds 1 --scan-positions 120" + common);
  ASSERT_EQ(sub.rc, 0) << sub.out;
  j = nlohmann::json::parse(sub.out);
  EXPECT_EQ(j["methods"]["linear"]["positions"], 120);
  EXPECT_EQ(j["methods"]["indexed"]["positions"], 500);
  EXPECT_EQ(j["methods"]["fathom"]["positions"], 500);
  // One balance only: every kept position is of it; a balance of another piece count is refused.
  CliRun one_balance = run_cli("bench probe --rounds 1 --balance KRvK" + common);
  ASSERT_EQ(one_balance.rc, 0) << one_balance.out;
  EXPECT_EQ(nlohmann::json::parse(one_balance.out)["positions"], 500);
  EXPECT_EQ(run_cli("bench probe --rounds 1 --balance KRvKR" + common).rc, 2);
  CliRun zero = run_cli("bench probe --rounds 0" + common);
  EXPECT_EQ(zero.rc, 2);  // a usage error, before any work
}

TEST_F(CliProbeBench, BenchProbeMethodsTakeTurnsChunkByChunk) {
  EGTMIN_REQUIRE_SYZYGY();
  // 9,000 positions: two whole chunks of 4,096 and a part, so the first method rotates.
  const std::filesystem::path csv = *dir_ / "turns.csv";
  CliRun r = run_cli(
      "bench probe --turns chunk --rounds 2 --scan-positions 120 --pieces 3 --positions 9000 --seed 4 "
      "--json --quiet --csv " +
      csv.string() + " --syzygy " + test::syzygy_dir().string() + " --data " + dir_->string());
  ASSERT_EQ(r.rc, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["turns"], "chunk");
  EXPECT_EQ(j["mismatches"], 0);
  EXPECT_EQ(j["methods"]["linear"]["positions"], 120);  // its own passes, on its subsample
  for (const char* m : {"linear", "indexed", "fathom"})
    EXPECT_EQ(j["methods"][m]["round_batch_mean_ns"].size(), 2u) << m;
  ASSERT_EQ(j["round_indexed_to_fathom"].size(), 2u);
  // Every position has its time from each method that takes turns, the scan only its subsample.
  auto split = [](const std::string& line) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    if (!line.empty() && line.back() == ',') f.emplace_back();
    return f;
  };
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = split(line);
  auto column = [&](const std::string& name) {
    return size_t(std::find(header.begin(), header.end(), name) - header.begin());
  };
  const size_t linear = column("linear_ns"), indexed = column("indexed_ns"), fathom = column("fathom_ns");
  // The position's number, then one column per method (batched: each position a batch of one).
  ASSERT_EQ(header.size(), 6u) << line;
  ASSERT_LT(std::max({linear, indexed, fathom, column("batched_ns")}), 6u) << line;
  size_t rows = 0;
  while (std::getline(in, line)) {
    const std::vector<std::string> fields = split(line);
    ASSERT_EQ(fields.size(), 6u) << line;
    EXPECT_EQ(fields[linear].empty(), rows >= 120) << line;
    EXPECT_GT(std::stoul(fields[indexed]), 0u) << line;
    EXPECT_GT(std::stoul(fields[fathom]), 0u) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 9000u);
  EXPECT_EQ(run_cli("bench probe --turns sometimes --rounds 1 --pieces 3 --positions 100 --syzygy " +
                    test::syzygy_dir().string() + " --data " + dir_->string())
                .rc,
            2);  // a usage error naming the choices
}

// An enum option's help lists its names as typed (CLI11's own enum mapping printed the enums'
// uint8_t values as raw bytes, a NUL among them).
TEST(CliEnumOptions, HelpListsTheNames) {
  const CliRun probe = run_cli("bench probe --help");
  EXPECT_EQ(probe.rc, 0);
  EXPECT_NE(probe.out.find("--turns TEXT:{pass,chunk}"), std::string::npos) << probe.out;
  const CliRun engine = run_cli("bench engine --help");
  EXPECT_EQ(engine.rc, 0);
  EXPECT_NE(engine.out.find("--prefer TEXT:{standalone,capture-resolved}"), std::string::npos) << engine.out;
  for (const CliRun* r : {&probe, &engine}) EXPECT_EQ(r->out.find('\0'), std::string::npos);
}

TEST_F(CliProbeBench, BenchSizeTotals) {
  EGTMIN_REQUIRE_SYZYGY();
  CliRun r = run_cli("bench size --pieces 3 --json --quiet --syzygy " + test::syzygy_dir().string() + " --data " +
                     dir_->string());
  ASSERT_EQ(r.rc, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_GT(j["total_bytes"].get<uint64_t>(), 0u);
  EXPECT_GT(j["syzygy_bytes"].get<uint64_t>(), 0u);
  EXPECT_GT(j["syzygy_xz_bytes"].get<uint64_t>(), 0u);
  // Probe-ready bytes: each cover's current layout, which probes without the cover file; a stale
  // layout (here KRvK's, made from another cover file) counts as none until a probe makes it again,
  // and a layout alone (here KQvK's, its cover moved away) counts as it is.
  // (A probe run writes every cover's missing layout.)
  ASSERT_EQ(run_cli("bench probe --pieces 3 --positions 100 --rounds 1 --quiet --syzygy " +
                    test::syzygy_dir().string() + " --data " + dir_->string())
                .rc,
            0);
  j = nlohmann::json::parse(run_cli("bench size --pieces 3 --json --quiet --syzygy " + test::syzygy_dir().string() +
                                    " --data " + dir_->string())
                                .out);
  const auto krk_layout = *dir_ / "covers" / "KRvK.egtl", kqk_layout = *dir_ / "covers" / "KQvK.egtl";
  ASSERT_TRUE(std::filesystem::exists(krk_layout) && std::filesystem::exists(kqk_layout));
  const auto kept = *dir_ / "KRvK.egtl.kept";
  std::filesystem::copy_file(krk_layout, kept, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(kqk_layout, krk_layout, std::filesystem::copy_options::overwrite_existing);
  auto stale = nlohmann::json::parse(run_cli("bench size --pieces 3 --json --quiet --syzygy " +
                                             test::syzygy_dir().string() + " --data " + dir_->string())
                                         .out);
  std::filesystem::rename(kept, krk_layout);
  const auto kqk_cover = *dir_ / "covers" / "KQvK.egtc", kqk_away = *dir_ / "KQvK.egtc.away";
  std::filesystem::rename(kqk_cover, kqk_away);
  auto alone = nlohmann::json::parse(run_cli("bench size --pieces 3 --json --quiet --syzygy " +
                                             test::syzygy_dir().string() + " --data " + dir_->string())
                                         .out);
  std::filesystem::rename(kqk_away, kqk_cover);
  EXPECT_EQ(alone["probe_ready"]["bytes"], j["probe_ready"]["bytes"]);
  EXPECT_EQ(alone["missing_covers"], j["missing_covers"]);
  for (const auto& row : alone["balances"])
    if (row["balance"] == "KQvK") {
      EXPECT_TRUE(row["cover_bytes"].is_null());
      EXPECT_EQ(row["probe_ready_bytes"].get<uint64_t>(), std::filesystem::file_size(kqk_layout));
      for (const auto& with : j["balances"])
        if (with["balance"] == "KQvK") {
          EXPECT_EQ(row["cubes"], with["cubes"]);
        }
    }
  uint64_t ready = 0, ready_index = 0;
  for (const auto& row : j["balances"]) {
    if (row["cover_bytes"].is_null()) continue;
    const std::string name = row["balance"];
    const auto layout = *dir_ / "covers" / (name + ".egtl");
    ASSERT_TRUE(std::filesystem::exists(layout)) << name;
    EXPECT_EQ(row["layout_bytes"].get<uint64_t>(), std::filesystem::file_size(layout)) << name;
    EXPECT_EQ(row["probe_ready_bytes"].get<uint64_t>(), row["layout_bytes"].get<uint64_t>()) << name;
    // Its parts add up to the file; a 3-piece layout has a front line and no rule's draws.
    const auto& parts = row["layout_parts"];
    EXPECT_EQ(parts["index"].get<uint64_t>() + parts["regions"].get<uint64_t>() + parts["rule_draws"].get<uint64_t>() +
                  parts["rest"].get<uint64_t>(),
              row["layout_bytes"].get<uint64_t>())
        << name;
    EXPECT_GT(parts["index"].get<uint64_t>(), 0u) << name;
    EXPECT_EQ(parts["rule_draws"].get<uint64_t>(), 0u) << name;
    ready += row["probe_ready_bytes"].get<uint64_t>();
    ready_index += parts["index"].get<uint64_t>();
  }
  EXPECT_EQ(j["probe_ready"]["bytes"].get<uint64_t>(), ready);
  EXPECT_EQ(j["probe_ready"]["parts"]["index"].get<uint64_t>(), ready_index);
  EXPECT_EQ(j["probe_ready"]["missing_layouts"].get<int>(), 0);
  EXPECT_EQ(stale["probe_ready"]["missing_layouts"].get<int>(), 1);
  for (const auto& row : stale["balances"])
    if (row["balance"] == "KRvK") {
      EXPECT_TRUE(row["layout_bytes"].is_null());
    }
}

// The ablation minimizes the same balances for each idea into its own directory: with every output
// stored the files are larger than the default's (an output implied); an unknown idea is named.
TEST_F(CliProbeBench, BenchAblationComparesIdeasOnTheSameBalances) {
  const auto data = *dir_ / "ablation-data";
  CliRun r = run_cli("bench ablation KRvK KQvK --ideas default,all-outputs --json --quiet --data " + data.string());
  ASSERT_EQ(r.rc, 0) << r.out;
  auto j = nlohmann::json::parse(r.out)["ideas"];
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["idea"], "default");
  EXPECT_EQ(j[1]["idea"], "all-outputs");
  for (const auto& idea : j) EXPECT_EQ(idea["balances"].size(), 2u);
  EXPECT_LT(j[0]["bytes"].get<uint64_t>(), j[1]["bytes"].get<uint64_t>());
  EXPECT_LT(j[0]["cubes"].get<uint64_t>(), j[1]["cubes"].get<uint64_t>());
  EXPECT_TRUE(std::filesystem::exists(data / "ablation" / "all-outputs" / "covers" / "KRvK.egtc"));
  CliRun bad = run_cli("bench ablation KRvK --ideas default,smaller --quiet --data " + data.string());
  EXPECT_EQ(bad.rc, 1);
}

}  // namespace
}  // namespace egtmin

namespace egtmin {
namespace {

// `layouts` makes the layouts that are missing or stale (another cover's, as after an upgrade of
// the layout's version) and leaves the current ones alone; a named balance without a cover, or an
// unknown --check-evasions, is a usage error.
TEST_F(CliProbeBench, LayoutsCommandMakesOnlyMissingAndStaleLayouts) {
  const std::filesystem::path data = *dir_ / "layouts-data";
  std::filesystem::create_directories(data / "covers");
  for (const char* name : {"KQvK", "KRvK"})
    std::filesystem::copy_file(*dir_ / "covers" / (std::string(name) + ".egtc"),
                               data / "covers" / (std::string(name) + ".egtc"),
                               std::filesystem::copy_options::overwrite_existing);
  auto layouts = [&](const std::string& args) {
    CliRun r = run_cli("layouts --json --quiet --data " + data.string() + " " + args);
    EXPECT_EQ(r.rc, 0) << r.out;
    return nlohmann::json::parse(r.out);
  };
  auto first = layouts("");
  EXPECT_EQ(first["made"], 2);
  EXPECT_EQ(first["current"], 0);
  auto again = layouts("");
  EXPECT_EQ(again["made"], 0);
  EXPECT_EQ(again["current"], 2);
  // KRvK's layout replaced by KQvK's: made again, and KQvK's left alone.
  std::filesystem::copy_file(data / "covers" / "KQvK.egtl", data / "covers" / "KRvK.egtl",
                             std::filesystem::copy_options::overwrite_existing);
  auto stale = layouts("KRvK KQvK");
  EXPECT_EQ(stale["made"], 1);
  EXPECT_EQ(stale["current"], 1);
  EXPECT_EQ(stale["layouts"][0]["balance"], "KRvK");
  EXPECT_EQ(stale["layouts"][0]["status"], "made");
  // The layout made probes: KvKR, Black to move wins, from the layout through the indexed probe.
  CliRun probed = run_cli("probe '8/8/8/8/8/2k5/3r4/K7 b - - 0 1' --json --method indexed --data " + data.string());
  ASSERT_EQ(probed.rc, 0) << probed.out;
  EXPECT_EQ(nlohmann::json::parse(probed.out)["wdl"], "win");
  EXPECT_EQ(run_cli("layouts KNvK --data " + data.string()).rc, 2);
  EXPECT_EQ(run_cli("layouts --check-evasions sometimes --data " + data.string()).rc, 2);
}

// A layout over --max-bytes is made again whatever its form, since the form kept depends on the
// bound asked now: a framed layout over the target (as an older rule kept) is made again, here
// plain, as a cover this small has no region index to frame; one within the target stays current.
TEST_F(CliProbeBench, LayoutsCommandRemakesLayoutsOverTheTargetInAnyForm) {
  const std::filesystem::path data = *dir_ / "layouts-bound-data";
  std::filesystem::create_directories(data / "covers");
  const auto cover = data / "covers" / "KRvK.egtc";
  std::filesystem::copy_file(*dir_ / "covers" / "KRvK.egtc", cover, std::filesystem::copy_options::overwrite_existing);
  auto t = test::shared_store().ensure(*Balance::parse("KRvK"));
  ASSERT_TRUE(t.ok()) << t.error().message;
  auto lc = probe::CoverProber::build(test::trie_cover(**t, CanonScheme::Full), probe::CoverProber::kDefaultCopies,
                                      probe::RegionPolicy::Always);
  ASSERT_TRUE(lc.ok()) << lc.error().message;
  auto id = probe::cover_identity(cover);
  ASSERT_TRUE(id.ok()) << id.error().message;
  const auto layout = probe::layout_path(cover);
  ASSERT_TRUE(probe::save_layout(layout, **lc, *id, probe::RegionCubes::Framed).ok());
  ASSERT_EQ(probe::layout_cubes(layout), probe::RegionCubes::Framed);
  ASSERT_TRUE(probe::layout_is_current(layout, *id));
  const uint64_t framed_bytes = std::filesystem::file_size(layout);
  auto layouts = [&](const std::string& args) {
    CliRun r = run_cli("layouts KRvK --json --quiet --data " + data.string() + " " + args);
    EXPECT_EQ(r.rc, 0) << r.out;
    return nlohmann::json::parse(r.out);
  };
  // Current, and within a target of its own bytes: left alone.
  auto within = layouts("--max-bytes " + std::to_string(framed_bytes));
  EXPECT_EQ(within["made"], 0);
  EXPECT_EQ(within["current"], 1);
  // Current but over the target: made again, by the rule.
  auto over = layouts("--max-bytes 1 --ceiling-bytes " + std::to_string(framed_bytes * 4));
  ASSERT_EQ(over["made"], 1);
  EXPECT_EQ(over["layouts"][0]["status"], "made");
  EXPECT_EQ(over["layouts"][0]["region_cubes"], "plain");
  EXPECT_EQ(probe::layout_cubes(layout), probe::RegionCubes::Plain);
}

}  // namespace
}  // namespace egtmin
