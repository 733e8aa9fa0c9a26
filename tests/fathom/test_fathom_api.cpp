// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin's libfathom.so.1 through Fathom's header (lib/fathom/include/tbprobe.h), linked as an
// engine links it: its answers against the system's libfathom over Syzygy's WDL files of the same
// balances (loaded beside it with dlmopen, in a namespace of its own), its refusals, tb_init and
// tb_free in every order, and 8 threads probing at once (run under ThreadSanitizer by
// scripts/tsan.sh). The covers are those of engine.make_covers; skipped, saying why, without them.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <link.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <thread>

#include "chess/balance.hpp"
#include "chess/position.hpp"
#include "engine/engine_match.hpp"
#include "support/env.hpp"
#include "support/temp_dir.hpp"
#include "tbprobe.h"
#include "testing/core_to_c.hpp"

#if defined(__SANITIZE_THREAD__)
#define EGTMIN_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define EGTMIN_TSAN 1
#endif
#endif

namespace egtmin {
namespace {

namespace fs = std::filesystem;

fs::path covers_dir() { return test::test_data_dir() / "engine-data" / "covers"; }

#define EGTMIN_REQUIRE_COVERS()                                                                                   \
  do {                                                                                                            \
    if (!fs::exists(covers_dir() / "KQvKR.egtc")) GTEST_SKIP() << "the covers of engine.make_covers are missing"; \
  } while (0)

// A position as Fathom's functions take it (a1 = 0).
struct Board {
  uint64_t white, black, kings, queens, rooks, bishops, knights, pawns;
  unsigned ep;
  bool turn;
};
Board board(const Position& pos) {
  const egtmin_position p = c_api::to_c(pos);
  return {p.white, p.black, p.kings, p.queens, p.rooks, p.bishops, p.knights, p.pawns, p.ep, p.white_to_move != 0};
}
Board board(const char* fen) {
  auto pos = Position::from_fen(fen);
  EXPECT_TRUE(pos) << fen;
  return board(*pos);
}

unsigned probe(const Board& b, unsigned rule50 = 0, unsigned castling = 0) {
  return tb_probe_wdl(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights, b.pawns, rule50, castling,
                      b.ep, b.turn);
}

// tb_init/tb_free around a test, so that none leaves the library initialized for the next.
struct Init {
  explicit Init(const std::string& path) { ok = tb_init(path.c_str()); }
  ~Init() { tb_free(); }
  bool ok = false;
};

// Random legal positions of the covered balances, both colourings, and a few with en passant.
std::vector<Board> sample_boards(const std::vector<Balance>& balances, size_t per_balance, uint64_t seed) {
  std::vector<Balance> both;
  for (const Balance& b : balances) {
    both.push_back(b);
    if (!b.is_symmetric()) both.push_back(b.flipped());
  }
  std::vector<Board> out;
  for (const std::string& fen : engine::sample_positions(both, {0}, per_balance * both.size(), seed))
    out.push_back(board(fen.c_str()));
  return out;
}

// The system's libfathom in a link-map namespace of its own: its tb_* cannot meet ours.
struct SystemFathom {
  void* handle = nullptr;
  bool (*init)(const char*) = nullptr;
  void (*free)() = nullptr;
  unsigned* largest = nullptr;
  unsigned (*wdl)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, unsigned,
                  bool) = nullptr;
  int (*root_wdl)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, unsigned, unsigned,
                  unsigned, bool, bool, TbRootMoves*) = nullptr;
  uint64_t (*king)(unsigned) = nullptr, (*knight)(unsigned) = nullptr;
  uint64_t (*rook)(unsigned, uint64_t) = nullptr, (*bishop)(unsigned, uint64_t) = nullptr,
                             (*queen)(unsigned, uint64_t) = nullptr;
  uint64_t (*pawn)(unsigned, bool) = nullptr;
  unsigned (*pop_count)(uint64_t) = nullptr, (*lsb)(uint64_t) = nullptr;
  uint64_t (*pop_lsb)(uint64_t) = nullptr;

  SystemFathom() {
    handle = dlmopen(LM_ID_NEWLM, EGTMIN_SYSTEM_FATHOM, RTLD_NOW | RTLD_LOCAL);
    if (!handle) return;
    auto get = [&](auto& f, const char* name) {
      f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(dlsym(handle, name));
    };
    get(init, "tb_init");
    get(free, "tb_free");
    get(largest, "TB_LARGEST");
    get(wdl, "tb_probe_wdl_impl");
    get(root_wdl, "tb_probe_root_wdl");
    get(king, "tb_king_attacks");
    get(knight, "tb_knight_attacks");
    get(rook, "tb_rook_attacks");
    get(bishop, "tb_bishop_attacks");
    get(queen, "tb_queen_attacks");
    get(pawn, "tb_pawn_attacks");
    get(pop_count, "tb_pop_count");
    get(lsb, "tb_lsb");
    get(pop_lsb, "tb_pop_lsb");
  }
  ~SystemFathom() {
    if (handle) dlclose(handle);
  }
};

#ifdef EGTMIN_TSAN
#define EGTMIN_REQUIRE_SYSTEM_FATHOM() GTEST_SKIP() << "dlmopen'd libfathom under ThreadSanitizer"
#else
#define EGTMIN_REQUIRE_SYSTEM_FATHOM() \
  do {                                 \
    EGTMIN_REQUIRE_SYZYGY();           \
  } while (0)
#endif

TEST(FathomApi, TheEngineLinkedThisLibrary) {
  // The test program links libfathom.so.1 as an engine does: it must be ours, and only ours.
  std::vector<std::string> loaded;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        if (std::string(info->dlpi_name).find("libfathom") != std::string::npos)
          static_cast<std::vector<std::string>*>(data)->push_back(info->dlpi_name);
        return 0;
      },
      &loaded);
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(fs::canonical(loaded[0]).parent_path(), fs::canonical(EGTMIN_FATHOM_DIR));
}

TEST(FathomApi, HelpersAgreeWithLibfathom) {
  EGTMIN_REQUIRE_SYSTEM_FATHOM();
  SystemFathom sys;
  ASSERT_TRUE(sys.handle) << dlerror();
  ASSERT_TRUE(sys.init(""));  // libfathom builds its attack tables in tb_init
  std::mt19937_64 rng(3);
  for (unsigned s = 0; s < 64; ++s) {
    EXPECT_EQ(tb_king_attacks(s), sys.king(s)) << s;
    EXPECT_EQ(tb_knight_attacks(s), sys.knight(s)) << s;
    EXPECT_EQ(tb_pawn_attacks(s, true), sys.pawn(s, true)) << s;
    EXPECT_EQ(tb_pawn_attacks(s, false), sys.pawn(s, false)) << s;
    for (int k = 0; k < 50; ++k) {
      const uint64_t occ = rng() & rng();
      EXPECT_EQ(tb_rook_attacks(s, occ), sys.rook(s, occ)) << s;
      EXPECT_EQ(tb_bishop_attacks(s, occ), sys.bishop(s, occ)) << s;
      EXPECT_EQ(tb_queen_attacks(s, occ), sys.queen(s, occ)) << s;
    }
  }
  for (int k = 0; k < 1000; ++k) {
    const uint64_t b = rng() | 1u << (k & 15);
    EXPECT_EQ(tb_pop_count(b), sys.pop_count(b));
    EXPECT_EQ(tb_lsb(b), sys.lsb(b));
    EXPECT_EQ(tb_pop_lsb(b), sys.pop_lsb(b));
  }
  EXPECT_EQ(tb_king_attacks(64), 0u);  // out of range: nothing, not a read past a table
  sys.free();
}

// The WDL answers and the root's WDL ranking of every sampled position, against libfathom over
// Syzygy's WDL files of the same balances; then positions neither can answer.
void answers_as_libfathom(store::CoverKind prefer) {
  test::TempDir work("fathom-api");
  auto t = engine::prepare_match_tables(covers_dir(), test::syzygy_dir(), work.path, prefer);
  ASSERT_TRUE(t) << t.error().message;
  if (prefer == store::CoverKind::CaptureResolved) {
    ASSERT_FALSE(t->capture_resolved.empty());
  }
  SystemFathom sys;
  ASSERT_TRUE(sys.handle) << dlerror();
  ASSERT_TRUE(sys.init(t->syzygy.c_str()));
  Init ours(t->covers.string());
  ASSERT_TRUE(ours.ok);
  EXPECT_EQ(TB_LARGEST, *sys.largest);
  EXPECT_EQ(TB_LARGEST, unsigned(t->largest));
  std::vector<Board> boards = sample_boards(t->balances, 300, 5);
  // En passant: the capture is the only move that keeps the draw, or one of several.
  for (const char* fen : {"8/8/8/3pP3/8/8/8/K6k w - d6 0 1", "7k/8/8/3pP3/8/8/8/K7 w - d6 0 1",
                          "8/8/8/8/3pP3/8/8/k6K b - e3 0 1", "8/8/8/K7/3pP3/8/8/7k b - e3 0 1"})
    boards.push_back(board(fen));
  size_t answered = 0, bad = 0;
  for (const Board& b : boards) {
    const unsigned want =
        sys.wdl(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights, b.pawns, b.ep, b.turn);
    const unsigned got = probe(b);
    answered += got != TB_RESULT_FAILED;
    if (got != want && ++bad <= 5) ADD_FAILURE() << "wdl " << got << ", libfathom " << want;
    for (bool rule50 : {true, false}) {
      static TbRootMoves mine, theirs;
      const int rc = tb_probe_root_wdl(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights, b.pawns, 0,
                                       0, b.ep, b.turn, rule50, &mine);
      const int want_rc = sys.root_wdl(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights, b.pawns, 0,
                                       0, b.ep, b.turn, rule50, &theirs);
      EXPECT_EQ(rc, want_rc);
      if (!rc || !want_rc) continue;
      // The same moves, each with the same rank and score (in whatever order each lists them).
      std::map<TbMove, std::pair<int, int>> a, c;
      for (unsigned i = 0; i < mine.size; ++i) a[mine.moves[i].move] = {mine.moves[i].tbRank, mine.moves[i].tbScore};
      for (unsigned i = 0; i < theirs.size; ++i)
        c[theirs.moves[i].move] = {theirs.moves[i].tbRank, theirs.moves[i].tbScore};
      if (a != c && ++bad <= 5) ADD_FAILURE() << "root ranking differs from libfathom's";
    }
  }
  EXPECT_EQ(bad, 0u);
  EXPECT_GT(answered, boards.size() * 9 / 10);
  // Balances with neither a cover nor a WDL file here, whose captures reach covered ones: Fathom
  // answers a win that a capture finds without the missing table, and fails otherwise.
  std::vector<Balance> missing;
  for (const char* name : {"KQvKB", "KQvKN", "KBvKN", "KRvKP", "KQvKP", "KBPvK"})
    if (std::find(t->balances.begin(), t->balances.end(), *Balance::parse(name)) == t->balances.end())
      missing.push_back(*Balance::parse(name));
  ASSERT_FALSE(missing.empty());
  size_t wins = 0, failed = 0;
  for (const Board& b : sample_boards(missing, 300, 11)) {
    const unsigned want =
        sys.wdl(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights, b.pawns, b.ep, b.turn);
    const unsigned got = probe(b);
    wins += got == TB_WIN;
    failed += got == TB_RESULT_FAILED;
    if (got != want && ++bad <= 5) ADD_FAILURE() << "balance without a table: wdl " << got << ", libfathom " << want;
  }
  EXPECT_EQ(bad, 0u);
  EXPECT_GT(wins, 0u);
  EXPECT_GT(failed, 0u);
  // More pieces than TB_LARGEST, and a balance with neither a cover nor a WDL file here.
  for (const char* fen : {"8/8/8/3k4/8/8/1RR5/KQ6 w - - 0 1", "8/8/8/3k4/8/8/1PP5/K7 w - - 0 1"}) {
    const Board b = board(fen);
    EXPECT_EQ(probe(b), TB_RESULT_FAILED) << fen;
    EXPECT_EQ(sys.wdl(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights, b.pawns, b.ep, b.turn),
              TB_RESULT_FAILED)
        << fen;
  }
  sys.free();
}

TEST(FathomApi, AnswersAsLibfathomDoes) {
  EGTMIN_REQUIRE_COVERS();
  EGTMIN_REQUIRE_SYSTEM_FATHOM();
  answers_as_libfathom(store::CoverKind::Standalone);
}

// The same with KQvKR and KRvKR answered by their capture-resolved covers, whose search probes the
// covers of the balances their captures and promotions reach.
TEST(FathomApi, AnswersAsLibfathomDoesFromCaptureResolvedCovers) {
  EGTMIN_REQUIRE_COVERS();
  EGTMIN_REQUIRE_SYSTEM_FATHOM();
  answers_as_libfathom(store::CoverKind::CaptureResolved);
}

TEST(FathomApi, RefusesWhatFathomRefuses) {
  EGTMIN_REQUIRE_COVERS();
  Init init(covers_dir().string());
  ASSERT_TRUE(init.ok);
  const Board krk = board("8/8/8/3k4/8/8/8/KR6 w - - 0 1");
  ASSERT_EQ(probe(krk), unsigned(TB_WIN));
  EXPECT_EQ(probe(krk, 0, TB_CASTLING_K), TB_RESULT_FAILED);  // castling rights
  EXPECT_EQ(probe(krk, 3), TB_RESULT_FAILED);                 // a running 50-move clock
  Board twice = krk;
  twice.rooks |= twice.kings & twice.white;  // the king's square on two bitboards
  EXPECT_EQ(probe(twice), TB_RESULT_FAILED);
  Board no_king = krk;
  no_king.kings &= no_king.white;
  no_king.black &= ~(krk.kings & krk.black);
  EXPECT_EQ(probe(no_king), TB_RESULT_FAILED);
  Board pawn_on_8 = krk;  // a white pawn on h8
  pawn_on_8.pawns = 1ull << 63;
  pawn_on_8.white |= pawn_on_8.pawns;
  EXPECT_EQ(probe(pawn_on_8), TB_RESULT_FAILED);
  Board empty{};
  EXPECT_EQ(probe(empty), TB_RESULT_FAILED);
  Board bad_ep = krk;
  bad_ep.ep = 200;
  EXPECT_EQ(probe(bad_ep), TB_RESULT_FAILED);
  // The root: castling, and the helpers' out-of-range squares.
  TbRootMoves moves;
  EXPECT_EQ(tb_probe_root_wdl(krk.white, krk.black, krk.kings, krk.queens, krk.rooks, krk.bishops, krk.knights,
                              krk.pawns, 0, TB_CASTLING_q, 0, true, true, &moves),
            0);
  EXPECT_EQ(tb_probe_root_dtz(krk.white, krk.black, krk.kings, krk.queens, krk.rooks, krk.bishops, krk.knights,
                              krk.pawns, 0, 0, 0, true, false, true, &moves),
            0);  // no DTZ
  EXPECT_EQ(tb_rook_attacks(1000, ~0ull), 0u);
  EXPECT_EQ(tb_lsb(0), ~0u);
}

TEST(FathomApi, RootProbeAnswersOnlyWithoutMoves) {
  EGTMIN_REQUIRE_COVERS();
  Init init(covers_dir().string());
  ASSERT_TRUE(init.ok);
  auto root = [](const char* fen, unsigned* results) {
    const Board b = board(fen);
    return tb_probe_root(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights, b.pawns, 0, 0, b.ep,
                         b.turn, results);
  };
  unsigned results[TB_MAX_MOVES];
  results[0] = 7;
  EXPECT_EQ(root("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", results), unsigned(TB_RESULT_STALEMATE));
  EXPECT_EQ(results[0], TB_RESULT_FAILED);  // the empty list's end
  EXPECT_EQ(root("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", nullptr), unsigned(TB_RESULT_CHECKMATE));
  // A won position: no DTZ to choose a move that makes progress, so the engine searches.
  results[0] = 7;
  EXPECT_EQ(root("8/8/8/3k4/8/8/8/KR6 w - - 0 1", results), TB_RESULT_FAILED);
  EXPECT_EQ(results[0], 7u);
  // And the ranking a search can start from: the rook's moves next to the black king give it away.
  TbRootMoves moves;
  const Board b = board("8/8/8/8/8/2k5/8/KR6 w - - 0 1");
  ASSERT_EQ(tb_probe_root_wdl(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights, b.pawns, 0, 0, 0,
                              true, true, &moves),
            1);
  int wins = 0, draws = 0;
  for (unsigned i = 0; i < moves.size; ++i) {
    wins += moves.moves[i].tbRank == 1000;
    draws += moves.moves[i].tbRank == 0;
    EXPECT_EQ(moves.moves[i].pvSize, 1u);
    EXPECT_EQ(moves.moves[i].pv[0], moves.moves[i].move);
  }
  EXPECT_GT(wins, 0);
  EXPECT_GT(draws, 0);  // Rb3+ and Rb4: Kxb3, Kxb4
}

TEST(FathomApi, InitAndFreeInEveryOrder) {
  EGTMIN_REQUIRE_COVERS();
  const Board krk = board("8/8/8/3k4/8/8/8/KR6 w - - 0 1");
  tb_free();  // before any tb_init: nothing to free
  EXPECT_EQ(TB_LARGEST, 0u);
  EXPECT_EQ(probe(krk), TB_RESULT_FAILED);
  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(tb_init(covers_dir().c_str()));
    EXPECT_EQ(TB_LARGEST, 4u);
    EXPECT_EQ(probe(krk), unsigned(TB_WIN));
    ASSERT_TRUE(tb_init_impl(covers_dir().c_str()));  // again, without tb_free: starts over
    EXPECT_EQ(probe(krk), unsigned(TB_WIN));
    tb_free();
    EXPECT_EQ(TB_LARGEST, 0u);
    EXPECT_EQ(probe(krk), TB_RESULT_FAILED);
    tb_free();
  }
  // No tables: "", "<empty>", a directory that does not exist (true, as Fathom), NULL (false).
  for (const char* path : {"", "<empty>", "/nonexistent-dir", "/nonexistent-a:/nonexistent-b"}) {
    EXPECT_TRUE(tb_init(path)) << path;
    EXPECT_EQ(TB_LARGEST, 0u) << path;
    EXPECT_EQ(probe(krk), TB_RESULT_FAILED) << path;
  }
  EXPECT_FALSE(tb_init(nullptr));
  EXPECT_EQ(TB_LARGEST, 0u);
  // A list: the missing entry is passed over, the covers found.
  ASSERT_TRUE(tb_init(("/nonexistent-dir::" + covers_dir().string()).c_str()));
  EXPECT_EQ(TB_LARGEST, 4u);
  EXPECT_EQ(probe(krk), unsigned(TB_WIN));
  // An egtmin data directory, through its covers/.
  ASSERT_TRUE(tb_init(covers_dir().parent_path().c_str()));
  EXPECT_EQ(probe(krk), unsigned(TB_WIN));
  // EGTMIN_COVERS (egtmin-cli engine --covers) adds directories to the engine's path.
  setenv("EGTMIN_COVERS", covers_dir().c_str(), 1);
  ASSERT_TRUE(tb_init("<empty>"));
  unsetenv("EGTMIN_COVERS");
  EXPECT_EQ(TB_LARGEST, 4u);
  EXPECT_EQ(probe(krk), unsigned(TB_WIN));
  tb_free();
}

TEST(FathomApi, ADamagedCoverFailsItsBalanceOnly) {
  EGTMIN_REQUIRE_COVERS();
  test::TempDir dir("fathom-damaged");
  fs::copy_file(covers_dir() / "KRvK.egtc", dir.path / "KRvK.egtc");
  fs::copy_file(covers_dir() / "KQvK.egtc", dir.path / "KQvK.egtc");
  {
    std::fstream f(dir.path / "KQvK.egtc", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff(fs::file_size(dir.path / "KQvK.egtc") / 2));
    f.write("\xde\xad\xbe\xef\xde\xad\xbe\xef", 8);
  }
  Init init(dir.path.string());
  ASSERT_TRUE(init.ok);
  EXPECT_EQ(probe(board("8/8/8/3k4/8/8/8/KQ6 w - - 0 1")), TB_RESULT_FAILED);
  EXPECT_EQ(probe(board("8/8/8/3k4/8/8/8/KQ6 b - - 0 1")), TB_RESULT_FAILED);  // and stays failed
  EXPECT_EQ(probe(board("8/8/8/3k4/8/8/8/KR6 w - - 0 1")), unsigned(TB_WIN));
  // A file that is no cover at all, under a cover's name.
  std::ofstream(dir.path / "KBvK.egtc") << "not a cover";
  Init again(dir.path.string());
  EXPECT_EQ(probe(board("8/8/8/3k4/8/8/8/KB6 w - - 0 1")), TB_RESULT_FAILED);
}

// 8 threads probe through the Fathom API at once right after tb_init, so that their first probes
// race to load each balance, and agree with one thread on every position.
TEST(FathomThreads, EightThreadsAgreeWithOne) {
  EGTMIN_REQUIRE_COVERS();
  std::vector<Balance> balances;
  for (const auto& e : fs::directory_iterator(covers_dir()))
    if (e.path().extension() == ".egtc")
      if (auto b = Balance::parse(e.path().stem().string())) balances.push_back(*b);
  std::sort(balances.begin(), balances.end());
  const std::vector<Board> boards = sample_boards(balances, 200, 9);
  // The covers as they are, then with the capture-resolved ones in place of their balances'
  // standalone covers (their probes search captures through the other balances, loading them).
  test::TempDir mixed("fathom-threads");
  for (const auto& e : fs::directory_iterator(covers_dir())) {
    const fs::path& f = e.path();
    const bool resolved = fs::exists(covers_dir() / (f.stem().string() + ".egtcr"));
    if (!resolved || f.extension() == ".egtcr" || f.extension() == ".egtlr")
      fs::create_symlink(f, mixed.path / f.filename());
  }
  for (const fs::path& dir : {covers_dir(), mixed.path}) {
    Init init(dir.string());
    ASSERT_TRUE(init.ok);
    constexpr int kThreads = 8;
    std::vector<std::vector<unsigned>> got(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        // Each thread in its own order, from its own start.
        for (size_t i = 0; i < boards.size(); ++i) {
          const size_t k = (i * 7 + size_t(t) * boards.size() / kThreads) % boards.size();
          got[size_t(t)].push_back(probe(boards[k]));
        }
      });
    for (std::thread& th : threads) th.join();
    std::vector<unsigned> one;
    for (const Board& b : boards) one.push_back(probe(b));
    EXPECT_EQ(std::count(one.begin(), one.end(), TB_RESULT_FAILED), 0);
    for (int t = 0; t < kThreads; ++t)
      for (size_t i = 0; i < boards.size(); ++i) {
        const size_t k = (i * 7 + size_t(t) * boards.size() / kThreads) % boards.size();
        ASSERT_EQ(got[size_t(t)][i], one[k]) << "thread " << t << " position " << k;
      }
  }
}

}  // namespace
}  // namespace egtmin
