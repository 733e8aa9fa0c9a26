// SPDX-License-Identifier: GPL-3.0-or-later
// The real-engine check, small: Debian's ethereal-chess searches positions of five and six pieces
// at a fixed depth, once through egtmin's libfathom.so.1 over 3-4-piece covers (run by egtmin-cli
// engine) and once through the system's libfathom over Syzygy's WDL files of the same balances;
// every search must be identical. The same check with one position answered wrongly must fail, and
// two threads must search through the drop-in without error. Skipped, saying why, without the
// engine or Syzygy's files.
#include <gtest/gtest.h>
#include <algorithm>

#include <filesystem>

#include "engine/engine_match.hpp"
#include "engine/launch.hpp"
#include "support/env.hpp"
#include "support/temp_dir.hpp"

namespace egtmin {
namespace {

namespace fs = std::filesystem;

// Made by the test engine.make_covers (tests/engine/make-covers.sh) before these run.
const fs::path kData = EGTMIN_ENGINE_DATA;

std::optional<std::string> missing_prerequisite() {
  if (!engine::find_program("ethereal-chess")) return "Debian's ethereal-chess is not installed (scripts/setup.sh)";
  if (test::syzygy_dir().empty()) return test::syzygy_missing_message();
  if (!fs::exists(kData / "covers" / "KQvKR.egtc")) return "the covers of engine.make_covers are missing";
  return std::nullopt;
}

#define EGTMIN_REQUIRE_ENGINE()                                  \
  do {                                                           \
    if (auto why = missing_prerequisite()) GTEST_SKIP() << *why; \
  } while (0)

// The two sides as bench engine sets them up, over the tables prepared in `work`.
engine::MatchRequest request(const engine::MatchTables& t, size_t positions, int depth) {
  engine::MatchRequest r;
  std::vector<Balance> bases;
  for (const Balance& b : t.balances)
    if (b.pieces() == t.largest) bases.push_back(b);
  r.fens = engine::sample_positions(bases, {1, 2}, positions, 7);
  r.depth = depth;
  const std::string ethereal = engine::find_program("ethereal-chess")->string();
  r.a.label = "drop-in";
  r.a.command.argv = {EGTMIN_CLI, "engine", "--", ethereal};
  r.a.command.unset_env = {"LD_PRELOAD", "EGTMIN_COVERS"};
  r.a.syzygy_path = t.covers.string();
  r.b.label = "libfathom";
  r.b.command.argv = {ethereal};
  r.b.command.set_env = {std::string("LD_PRELOAD=") + EGTMIN_FATHOM_ALIAS};
  r.b.command.unset_env = {"LD_LIBRARY_PATH", "EGTMIN_COVERS"};
  r.b.syzygy_path = t.syzygy.string();
  return r;
}

// Both engines really loaded the library they were meant to: the drop-in and the system's.
void expect_libraries(const engine::MatchReport& r) {
  ASSERT_EQ(r.fathom_a.size(), 1u);
  ASSERT_EQ(r.fathom_b.size(), 1u);
  EXPECT_EQ(fs::canonical(r.fathom_a[0]).parent_path(), fs::canonical(EGTMIN_FATHOM_DIR));
  EXPECT_EQ(fs::canonical(r.fathom_b[0]), fs::canonical(EGTMIN_SYSTEM_FATHOM));
}

void expect_identical(const engine::MatchReport& r) {
  for (const engine::MatchPosition& p : r.positions) {
    EXPECT_TRUE(p.same()) << p.fen << "\n  drop-in:   " << p.a.depth << " " << p.a.score << " nodes " << p.a.nodes
                          << " tbhits " << p.a.tbhits << " " << p.a.bestmove << "\n  libfathom: " << p.b.depth << " "
                          << p.b.score << " nodes " << p.b.nodes << " tbhits " << p.b.tbhits << " " << p.b.bestmove;
    EXPECT_FALSE(p.a.bestmove.empty());
  }
  EXPECT_EQ(r.mismatches, 0u);
  // Probes reached the tables, so identical searches say something about their answers.
  EXPECT_GT(r.tbhits_a, 0u);
  // Every table Fathom's searches mapped, the drop-in's mapped too: the same balances were reached.
  EXPECT_FALSE(r.mapped_b.empty());
  for (const std::string& b : r.mapped_b)
    EXPECT_TRUE(std::find(r.mapped_a.begin(), r.mapped_a.end(), b) != r.mapped_a.end()) << b;
}

TEST(EngineCheck, EtherealSearchesAlikeThroughCoversAndFathom) {
  EGTMIN_REQUIRE_ENGINE();
  test::TempDir work("engine-check");
  auto t = engine::prepare_match_tables(kData, test::syzygy_dir(), work.path);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->largest, 4);
  EXPECT_TRUE(t->only_covers.empty());
  auto r = engine::run_match(request(*t, 24, 8));
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->positions.size(), 24u);
  expect_libraries(*r);
  expect_identical(*r);
}

// The same with the 4-piece balances' capture-resolved covers, whose probes search captures
// through the library's other covers.
TEST(EngineCheck, EtherealSearchesAlikeThroughCaptureResolvedCovers) {
  EGTMIN_REQUIRE_ENGINE();
  test::TempDir work("engine-check-cr");
  auto t = engine::prepare_match_tables(kData, test::syzygy_dir(), work.path, store::CoverKind::CaptureResolved);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->capture_resolved.size(), 2u);  // KQvKR and KRvKR
  EXPECT_TRUE(fs::exists(t->covers / "KQvKR.egtcr"));
  EXPECT_FALSE(fs::exists(t->covers / "KQvKR.egtc"));
  auto r = engine::run_match(request(*t, 16, 8));
  ASSERT_TRUE(r) << r.error().message;
  expect_identical(*r);
}

// A capture-resolved cover is kept only with the covers its search reaches: else the standalone
// cover of the balance, else the balance is left out on both sides.
TEST(EngineCheck, TablesKeepCaptureResolvedCoversWithTheirSuccessors) {
  if (test::syzygy_dir().empty()) GTEST_SKIP() << test::syzygy_missing_message();
  if (!fs::exists(kData / "covers" / "KRvKR.egtcr")) GTEST_SKIP() << "the covers of engine.make_covers are missing";
  test::TempDir work("engine-check-tables");
  const fs::path covers = work.path / "given";
  fs::create_directories(covers);
  for (const char* f : {"KQvKR.egtcr", "KRvKR.egtcr", "KRvKR.egtc", "KRvK.egtc"})
    fs::create_symlink(kData / "covers" / f, covers / f);
  // KQvKR's search reaches KQvK, which has no cover here: left out. KRvKR's reaches KRvK only.
  auto t = engine::prepare_match_tables(covers, test::syzygy_dir(), work.path, store::CoverKind::CaptureResolved);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->balances, (std::vector<Balance>{*Balance::parse("KRvK"), *Balance::parse("KRvKR")}));
  EXPECT_EQ(t->capture_resolved, std::vector<Balance>{*Balance::parse("KRvKR")});
  EXPECT_EQ(t->unreachable, std::vector<Balance>{*Balance::parse("KQvKR")});
  EXPECT_TRUE(fs::exists(t->syzygy / "KRvKR.rtbw"));
  EXPECT_FALSE(fs::exists(t->syzygy / "KQvKR.rtbw"));
  EXPECT_FALSE(fs::exists(t->syzygy / "KRvKR.rtbz"));
  // Without KRvK, KRvKR falls back to its standalone cover.
  fs::remove(covers / "KRvK.egtc");
  t = engine::prepare_match_tables(covers, test::syzygy_dir(), work.path, store::CoverKind::CaptureResolved);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_TRUE(t->capture_resolved.empty());
  EXPECT_TRUE(fs::exists(t->covers / "KRvKR.egtc"));
  EXPECT_FALSE(fs::exists(t->covers / "KRvKR.egtcr"));
}

// The check can fail: one position answered wrongly (tests/engine/flip_one_answer.c, preloaded
// into the drop-in's engine: the first position probed gets the opposite value every time) shows
// as a differing search.
TEST(EngineCheck, OneWrongAnswerIsCaught) {
  EGTMIN_REQUIRE_ENGINE();
  test::TempDir work("engine-check-flip");
  auto t = engine::prepare_match_tables(kData, test::syzygy_dir(), work.path);
  ASSERT_TRUE(t) << t.error().message;
  engine::MatchRequest req = request(*t, 24, 8);
  req.a.command.unset_env = {"EGTMIN_COVERS"};
  req.a.command.set_env = {std::string("LD_PRELOAD=") + EGTMIN_FLIP_ONE_ANSWER};
  auto r = engine::run_match(req);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_GT(r->mismatches, 0u) << "a wrong answer went unnoticed";
  std::printf("one wrong answer: %zu of %zu searches differ\n", r->mismatches, r->positions.size());
}

// Two threads (a search that is not deterministic) through the drop-in: every position searched to
// its depth with a best move, and the tables probed.
TEST(EngineCheck, TwoThreadsSearchThroughTheDropIn) {
  EGTMIN_REQUIRE_ENGINE();
  test::TempDir work("engine-check-threads");
  auto t = engine::prepare_match_tables(kData, test::syzygy_dir(), work.path);
  ASSERT_TRUE(t) << t.error().message;
  const engine::MatchRequest req = request(*t, 12, 9);
  auto e = engine::UciEngine::start(req.a.command);
  ASSERT_TRUE(e) << e.error().message;
  ASSERT_TRUE((*e)->set_option("Threads", "2"));
  ASSERT_TRUE((*e)->set_option("SyzygyPath", req.a.syzygy_path));
  uint64_t tbhits = 0;
  for (const std::string& fen : req.fens) {
    auto r = (*e)->search(fen, req.depth);
    ASSERT_TRUE(r) << fen << ": " << r.error().message;
    EXPECT_EQ(r->depth, req.depth) << fen;
    EXPECT_FALSE(r->bestmove.empty()) << fen;
    tbhits += r->tbhits;
  }
  EXPECT_GT(tbhits, 0u);
}

// egtmin-cli engine's refusals: no drop-in run without a real directory or engine.
TEST(EngineCheck, LauncherRefusesBadArguments) {
  auto missing_dir =
      engine::UciEngine::start({{EGTMIN_CLI, "engine", "--covers", "/nonexistent-dir", "--", "x"}, {}, {}});
  ASSERT_FALSE(missing_dir);
  EXPECT_NE(missing_dir.error().message.find("not a directory"), std::string::npos) << missing_dir.error().message;
  auto missing_engine = engine::UciEngine::start({{EGTMIN_CLI, "engine", "--", "no-such-engine-anywhere"}, {}, {}});
  ASSERT_FALSE(missing_engine);
  EXPECT_NE(missing_engine.error().message.find("cannot find no-such-engine-anywhere"), std::string::npos)
      << missing_engine.error().message;
}

TEST(EngineCheck, ParsesUciInfoLines) {
  engine::SearchResult r;
  EXPECT_FALSE(engine::parse_info_line("info depth 3 currmove e2e4 currmovenumber 1", r));
  EXPECT_TRUE(engine::parse_info_line(
      "info depth 10 seldepth 17 multipv 1 score cp -12 lowerbound time 53 nodes 13835 nps 256000 tbhits 476 "
      "hashfull 1 pv d2g5 e5e6",
      r));
  EXPECT_EQ(r.depth, 10);
  EXPECT_EQ(r.score, "cp -12 lowerbound");
  EXPECT_EQ(r.nodes, 13835u);
  EXPECT_EQ(r.tbhits, 476u);
  EXPECT_TRUE(engine::parse_info_line("info depth 4 score mate 3 nodes 9 pv a1a2", r));
  EXPECT_EQ(r.score, "mate 3");
}

}  // namespace
}  // namespace egtmin
