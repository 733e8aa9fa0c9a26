// SPDX-License-Identifier: GPL-3.0-or-later
// libegtmin-probe through its C header only: values against the generated tables, en passant
// against the core prober, the root probe against the positions after each move, errors for
// every kind of bad input and bad file, the memory cap, repeated open and close, and 8 threads
// probing at once (loads racing, and loads and unloads racing under a tight cap) against one.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fstream>
#include <random>
#include <thread>
#include <vector>

#include "egtmin/probe.h"
#include "logic/pipeline.hpp"
#include "probe/cover_builder.hpp"
#include "probe/cover_prober.hpp"
#include "probe/probe_layout.hpp"
#include "probe/syzygy.hpp"
#include "store/cover_file.hpp"
#include "support/env.hpp"
#include "support/kpk_closure.hpp"
#include "support/temp_dir.hpp"
#include "table/table_store.hpp"
#include "testing/core_to_c.hpp"
#include "util/atomic_file.hpp"

namespace egtmin {
namespace {

namespace fs = std::filesystem;

// The balances the tests probe: every 3-piece one, and KPvKP for en passant (its captures reach
// KPvK, its promotions KQvKP and KPvKQ are left uncovered on purpose: a missing cover's error).
constexpr const char* kBalances[] = {"KQvK", "KRvK", "KBvK", "KNvK", "KPvK", "KPvKP"};

const Table& table_of(const char* name) {
  auto t = test::shared_store().ensure(*Balance::parse(name));
  if (!t) throw std::runtime_error(t.error().message);
  return **t;
}

// Covers made once per build tree by the real minimizer (every test process shares them; each
// file is written atomically, so racing processes at worst make one twice).
const fs::path& cover_dir() {
  static const fs::path dir = [] {
    const fs::path d = test::test_data_dir() / "capi-covers";
    auto passes = logic::parse_passes("canon,compact,expand,irredundant");
    for (const char* name : kBalances) {
      const Table& t = table_of(name);
      const fs::path target = d / (t.balance().name() + ".egtc");
      if (fs::exists(target)) continue;
      auto m = logic::minimize_table(t, *passes, {});
      if (!m) throw std::runtime_error(m.error().message);
      store::CoverFile f{t.balance(), t.encoding().bits(), m->scheme, "canon,compact,expand,irredundant", m->cover, {}};
      fs::create_directories(d);
      if (auto s = store::save_cover(target, f); !s) throw std::runtime_error(s.error().message);
    }
    return d;
  }();
  return dir;
}

// Run first by CTest (the fixture capi_covers), so that parallel test processes find the covers made.
TEST(ProbeLibSetup, MakeCovers) { EXPECT_TRUE(fs::exists(cover_dir() / "KPvKP.egtc")); }

using c_api::to_c;

// Legal positions of the covered balances with their table values for the side to move, both
// colourings (the colour-swapped balance is probed through the canonical cover).
struct Case {
  egtmin_position pos;
  int want;
};
std::vector<Case> sample_cases(size_t per_balance, uint64_t seed) {
  std::vector<Case> out;
  std::mt19937_64 rng(seed);
  for (const char* name : kBalances) {
    const Table& t = table_of(name);
    const Encoding& enc = t.encoding();
    for (size_t n = 0; n < per_balance;) {
      const Placement p = enc.decode(rng() & (enc.size() - 1));
      if (!enc.is_legal(p)) continue;
      const Wdl white = t.value(p);
      Position pos = enc.position(p);
      const Wdl stm = p.stm == White ? white : negate(white);
      if (n & 1) pos = pos.color_flipped();  // the value for the side to move is unchanged
      out.push_back({to_c(pos), to_c(stm)});
      ++n;
    }
  }
  return out;
}

// How many of the cases the handle answers otherwise than the tables (the first few reported).
int disagreements(egtmin_tb* tb, const std::vector<Case>& cases) {
  int bad = 0;
  for (const Case& c : cases) {
    const int got = egtmin_probe_wdl(tb, &c.pos);
    if (got != c.want && ++bad <= 5)
      ADD_FAILURE() << "got " << got << " want " << c.want << ": " << egtmin_last_error();
  }
  return bad;
}

struct Handle {
  egtmin_tb* tb = nullptr;
  explicit Handle(const fs::path& dir, uint64_t cap = 0) {
    egtmin_options o = EGTMIN_OPTIONS_INIT;
    o.memory_cap = cap;
    const int rc = egtmin_open(dir.c_str(), &o, &tb);
    EXPECT_EQ(rc, EGTMIN_OK) << egtmin_last_error();
  }
  ~Handle() { egtmin_close(tb); }
};

egtmin_position from_fen(const char* fen) {
  auto pos = Position::from_fen(fen);
  EXPECT_TRUE(pos.ok()) << fen;
  return to_c(*pos);
}

TEST(ProbeLib, AgreesWithTheTablesInBothColourings) {
  Handle h(cover_dir());
  egtmin_stats s{};
  ASSERT_EQ(egtmin_get_stats(h.tb, &s), EGTMIN_OK);
  EXPECT_EQ(s.balances_available, std::size(kBalances));
  EXPECT_EQ(s.balances_loaded, 0u);  // nothing is read before its first probe
  EXPECT_EQ(egtmin_largest(h.tb), 4);
  EXPECT_EQ(disagreements(h.tb, sample_cases(4000, 1)), 0);
  ASSERT_EQ(egtmin_get_stats(h.tb, &s), EGTMIN_OK);
  EXPECT_EQ(s.balances_loaded, std::size(kBalances));
  EXPECT_EQ(s.loads, std::size(kBalances));
  EXPECT_GT(s.resident_bytes, 0u);
  // KvK has no file and needs none.
  const egtmin_position kk = from_fen("8/8/8/3k4/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(egtmin_probe_wdl(h.tb, &kk), EGTMIN_DRAW);
}

TEST(ProbeLib, OpensADataDirectoryThroughItsCoversSubdirectory) {
  test::TempDir data("capi-data");
  fs::create_directories(data.path / "covers");
  fs::copy_file(cover_dir() / "KQvK.egtc", data.path / "covers" / "KQvK.egtc");
  Handle h(data.path);
  const egtmin_position p = from_fen("8/8/8/3k4/8/8/8/Q3K3 w - - 0 1");
  EXPECT_EQ(egtmin_probe_wdl(h.tb, &p), EGTMIN_WIN) << egtmin_last_error();
}

// The probe layouts alone, their cover files not on disk: what a user keeps to probe at speed.
TEST(ProbeLib, ProbesFromLayoutsAloneWithoutTheirCovers) {
  test::TempDir alone("capi-layouts");
  fs::create_directories(alone.path);
  for (const char* name : kBalances) {
    const fs::path cover = alone.path / (std::string(name) + ".egtc");
    fs::copy_file(cover_dir() / cover.filename(), cover);
    ASSERT_TRUE(probe::make_layout(cover).ok()) << name;
    fs::remove(cover);
    ASSERT_TRUE(fs::exists(probe::layout_path(cover))) << name;
  }
  Handle h(alone.path);
  egtmin_stats s{};
  ASSERT_EQ(egtmin_get_stats(h.tb, &s), EGTMIN_OK);
  EXPECT_EQ(s.balances_available, std::size(kBalances));
  EXPECT_EQ(disagreements(h.tb, sample_cases(2000, 3)), 0);
}

TEST(ProbeLib, EnPassantAgreesWithTheCoreProber) {
  // The core prober over the same files, where en passant is resolved within one prober.
  probe::CoverProber full;
  for (const char* name : kBalances) ASSERT_TRUE(full.add_file(cover_dir() / (std::string(name) + ".egtc")).ok());
  Handle h(cover_dir());
  const char* fens[] = {"8/8/8/k2pP3/8/8/8/4K3 w - d6 0 1", "8/8/8/8/2Pp4/8/8/k3K3 b - c3 0 1",
                        "4k3/8/8/3pP3/8/8/8/K7 w - d6 0 1", "8/8/8/8/3pP3/8/8/K1k5 b - e3 0 1"};
  for (const char* fen : fens) {
    auto pos = Position::from_fen(fen);
    ASSERT_TRUE(pos.ok()) << fen;
    auto want = full.probe(*pos, probe::Method::Indexed);
    ASSERT_TRUE(want.ok()) << want.error().message;
    const egtmin_position p = to_c(*pos);
    EXPECT_EQ(egtmin_probe_wdl(h.tb, &p), to_c(want->wdl)) << fen << ": " << egtmin_last_error();
  }
}

// The core prober's hot path answers en passant with the value alone: a cover opened from its
// layout keeps its cubes on disk (naming the cube that holds a position reads the whole cover).
TEST(ProbeLib, CoreHotPathEnPassantLeavesALayoutsCoverOnDisk) {
  test::TempDir dir("capi-ep-layout");
  fs::create_directories(dir.path / "covers");
  probe::CoverProber prober;
  for (const char* name : {"KPvK", "KPvKP"}) {
    const fs::path cover = dir.path / "covers" / (std::string(name) + ".egtc");
    fs::copy_file(cover_dir() / cover.filename(), cover);
    ASSERT_TRUE(probe::make_layout(cover, 1));
    ASSERT_TRUE(prober.add_file(cover).ok());
  }
  const probe::LoadedCover* kpkp = prober.cover(*Balance::parse("KPvKP"));
  ASSERT_TRUE(kpkp && kpkp->from_layout());
  for (const char* fen : {"8/8/8/k2pP3/8/8/8/4K3 w - d6 0 1", "8/8/8/8/2Pp4/8/8/k3K3 b - c3 0 1"}) {
    auto pos = Position::from_fen(fen);
    ASSERT_TRUE(pos.ok()) << fen;
    auto want = prober.probe(*pos, probe::Method::Indexed, false);
    ASSERT_TRUE(want.ok()) << want.error().message;
    EXPECT_EQ(prober.probe_wdl(*pos, probe::Method::Indexed), want->wdl) << fen;
  }
  EXPECT_EQ(kpkp->cube_bytes(), 0u) << "a probe of an en-passant position read KPvKP's cover file";
}

TEST(ProbeLib, RootProbeGivesEveryMoveTheValueAfterIt) {
  Handle h(cover_dir());
  for (const char* fen :
       {"6k1/8/6K1/8/8/8/8/1Q6 w - - 0 1", "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", "8/8/8/k2pP3/8/8/8/4K3 w - d6 0 1"}) {
    auto pos = Position::from_fen(fen);
    ASSERT_TRUE(pos.ok()) << fen;
    egtmin_root_move moves[EGTMIN_MAX_MOVES];
    const egtmin_position p = to_c(*pos);
    const int n = egtmin_probe_root(h.tb, &p, moves, EGTMIN_MAX_MOVES);
    ASSERT_EQ(n, int(legal_moves(*pos).size())) << fen << ": " << egtmin_last_error();
    int best = -1;
    for (int i = 0; i < n; ++i) {
      const PieceType promotion = moves[i].promotion ? PieceType(moves[i].promotion) : NoPieceType;
      const auto list = legal_moves(*pos);
      const Move* m = std::find_if(list.begin(), list.end(), [&](const Move& x) {
        return x.from == from_a1_index(moves[i].from) && x.to == from_a1_index(moves[i].to) && x.promotion == promotion;
      });
      ASSERT_NE(m, list.end()) << fen << " move " << i;
      const egtmin_position child = to_c(pos->after(*m));
      const int v = egtmin_probe_wdl(h.tb, &child);
      ASSERT_GE(v, 0) << egtmin_last_error();
      EXPECT_EQ(moves[i].wdl, EGTMIN_WIN - v) << fen << " move " << i;
      best = std::max(best, moves[i].wdl);
    }
    // The best move's value is the position's.
    EXPECT_EQ(best, egtmin_probe_wdl(h.tb, &p)) << fen;
    EXPECT_EQ(egtmin_probe_root(h.tb, &p, moves, 1), n > 1 ? EGTMIN_ERR_BUFFER : n);
  }
  // Mate in one: Qb8 is among the winning moves, and a queen promotion is told apart.
  const egtmin_position promo = from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
  egtmin_root_move moves[EGTMIN_MAX_MOVES];
  const int n = egtmin_probe_root(h.tb, &promo, moves, EGTMIN_MAX_MOVES);
  ASSERT_GT(n, 0) << egtmin_last_error();  // e8=Q reaches KQvK, e8=R KRvK; B and N draw
  int promotions = 0;
  for (int i = 0; i < n; ++i)
    if (moves[i].promotion) {
      ++promotions;
      const int want = moves[i].promotion <= EGTMIN_PROMOTES_ROOK ? EGTMIN_WIN : EGTMIN_DRAW;
      EXPECT_EQ(moves[i].wdl, want) << "promotion " << moves[i].promotion;
    }
  EXPECT_EQ(promotions, 4);
}

TEST(ProbeLib, RefusesBadPositionsAndArguments) {
  Handle h(cover_dir());
  const egtmin_position good = from_fen("8/8/8/3k4/8/8/8/Q3K3 w - - 0 1");
  egtmin_position p = good;
  p.castling = 1;
  EXPECT_EQ(egtmin_probe_wdl(h.tb, &p), EGTMIN_ERR_CASTLING);
  p = good, p.rule50 = 3;
  EXPECT_EQ(egtmin_probe_wdl(h.tb, &p), EGTMIN_ERR_RULE50);
  EXPECT_NE(std::strlen(egtmin_last_error()), 0u);
  p = good, p.queens |= p.kings & p.white;  // the white king is also a queen
  EXPECT_EQ(egtmin_probe_wdl(h.tb, &p), EGTMIN_ERR_POSITION);
  p = good, p.black |= p.white & p.queens;  // the queen is both colours
  EXPECT_EQ(egtmin_probe_wdl(h.tb, &p), EGTMIN_ERR_POSITION);
  p = good, p.kings &= ~p.black, p.black = 0;  // no black king
  EXPECT_EQ(egtmin_probe_wdl(h.tb, &p), EGTMIN_ERR_POSITION);
  p = good, p.white |= 1, p.pawns |= 1;  // a pawn on a1
  EXPECT_EQ(egtmin_probe_wdl(h.tb, &p), EGTMIN_ERR_POSITION);
  p = good, p.ep = 99;
  EXPECT_EQ(egtmin_probe_wdl(h.tb, &p), EGTMIN_ERR_POSITION);
  p = good, p.ep = 20;  // e3 with White to move and no pawn: an impossible en-passant square
  EXPECT_EQ(egtmin_probe_wdl(h.tb, &p), EGTMIN_ERR_POSITION);
  Position in_check;  // Black, not to move, in check (from_fen refuses it)
  in_check.put(parse_square("d5"), make_piece(Black, King));
  in_check.put(parse_square("d1"), make_piece(White, Queen));
  in_check.put(parse_square("e1"), make_piece(White, King));
  const egtmin_position check = to_c(in_check);
  EXPECT_EQ(egtmin_check_position(&check), EGTMIN_ERR_POSITION);
  EXPECT_EQ(egtmin_check_position(&good), EGTMIN_OK);
  const egtmin_position no_cover = from_fen("8/8/8/3k4/8/8/8/QR2K3 w - - 0 1");
  EXPECT_EQ(egtmin_probe_wdl(h.tb, &no_cover), EGTMIN_ERR_NO_COVER);
  EXPECT_NE(std::string(egtmin_last_error()).find("KQRvK"), std::string::npos) << egtmin_last_error();
  const egtmin_position six = from_fen("8/8/8/3k4/8/8/8/QRBNK3 w - - 0 1");
  EXPECT_EQ(egtmin_probe_wdl(h.tb, &six), EGTMIN_ERR_NO_COVER);
  EXPECT_EQ(egtmin_probe_wdl(nullptr, &good), EGTMIN_ERR_ARGUMENT);
  EXPECT_EQ(egtmin_probe_wdl(h.tb, nullptr), EGTMIN_ERR_ARGUMENT);
  EXPECT_EQ(egtmin_probe_root(h.tb, &good, nullptr, 10), EGTMIN_ERR_ARGUMENT);
  EXPECT_EQ(egtmin_get_stats(h.tb, nullptr), EGTMIN_ERR_ARGUMENT);
  // A handle opened without a cap cannot take one later.
  EXPECT_EQ(egtmin_set_memory_cap(h.tb, 1 << 20), EGTMIN_ERR_ARGUMENT);
  egtmin_tb* tb = reinterpret_cast<egtmin_tb*>(1);
  EXPECT_EQ(egtmin_open("/nonexistent/egtmin", nullptr, &tb), EGTMIN_ERR_DIRECTORY);
  EXPECT_EQ(tb, nullptr);
  EXPECT_EQ(egtmin_open(nullptr, nullptr, &tb), EGTMIN_ERR_ARGUMENT);
  for (int code = EGTMIN_ERR_OPTIONS_SIZE; code <= EGTMIN_OK; ++code) {
    EXPECT_NE(egtmin_strerror(code), nullptr);
    EXPECT_STRNE(egtmin_strerror(code), "unknown error code") << code;
  }
  egtmin_close(nullptr);
}

// egtmin_options carries its size: the library reads the fields the caller's size covers, refuses
// a size below the first version's, and takes a newer header's bigger struct while the options it
// does not know are left at zero.
TEST(ProbeLib, OptionsAreReadAsFarAsTheirSizeSays) {
  auto cap_of = [](const void* options) {
    egtmin_tb* tb = nullptr;
    const int rc = egtmin_open(cover_dir().c_str(), static_cast<const egtmin_options*>(options), &tb);
    if (rc != EGTMIN_OK) {
      EXPECT_EQ(tb, nullptr);
      return int64_t(rc);
    }
    egtmin_stats s{};
    EXPECT_EQ(egtmin_get_stats(tb, &s), EGTMIN_OK);
    egtmin_close(tb);
    return int64_t(s.memory_cap);
  };
  egtmin_options o = EGTMIN_OPTIONS_INIT;
  EXPECT_EQ(o.struct_size, sizeof(egtmin_options));
  EXPECT_EQ(o.memory_cap, 0u);
  EXPECT_EQ(cap_of(&o), 0);
  EXPECT_EQ(cap_of(nullptr), 0);
  o.memory_cap = 1 << 20;
  EXPECT_EQ(cap_of(&o), 1 << 20);

  // Not initialized with EGTMIN_OPTIONS_INIT: refused, saying how to make them.
  for (size_t size : {size_t{0}, size_t{1}, sizeof(egtmin_options) - 1}) {
    o.struct_size = size;
    EXPECT_EQ(cap_of(&o), EGTMIN_ERR_OPTIONS_SIZE) << size;
    EXPECT_NE(std::string(egtmin_last_error()).find("EGTMIN_OPTIONS_INIT"), std::string::npos) << egtmin_last_error();
  }

  // A newer header's options: this library's fields are read, unknown ones must stay zero.
  struct Newer {
    egtmin_options known;
    uint64_t unknown;
  };
  Newer newer{EGTMIN_OPTIONS_INIT, 0};
  newer.known.struct_size = sizeof(Newer);
  newer.known.memory_cap = 4096;
  EXPECT_EQ(cap_of(&newer), 4096);
  newer.unknown = 1;
  EXPECT_EQ(cap_of(&newer), EGTMIN_ERR_OPTIONS_SIZE);
  EXPECT_NE(std::string(egtmin_last_error()).find("does not have"), std::string::npos) << egtmin_last_error();
}

// Each kind of bad file, under the name of a balance: open succeeds (files are read on first use),
// the balance's probes give EGTMIN_ERR_FILE with a message, other balances are unaffected.
TEST(ProbeLib, BadFilesGiveErrorCodes) {
  std::ifstream in(cover_dir() / "KQvK.egtc", std::ios::binary);
  const std::vector<char> good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(good.size(), 64u);
  auto flipped = [&](size_t at) {
    auto b = good;
    b[at] = char(b[at] ^ 0x10);
    return b;
  };
  auto version = good;
  // The version is the 16-bit word after the 8-byte magic (docs/file-format.md).
  version[8] = char(99);
  const std::vector<std::pair<std::string, std::vector<char>>> cases = {
      {"empty", {}},
      {"truncated", std::vector<char>(good.begin(), good.begin() + long(good.size() / 2))},
      {"header only", std::vector<char>(good.begin(), good.begin() + 16)},
      {"bit flip in the header", flipped(20)},
      {"bit flip in the payload", flipped(good.size() - 10)},
      {"bit flip in the middle", flipped(good.size() / 2)},
      {"wrong version", version},
      {"garbage", std::vector<char>(4096, 'x')},
  };
  const egtmin_position kqk = from_fen("8/8/8/3k4/8/8/8/Q3K3 w - - 0 1");
  const egtmin_position krk = from_fen("8/8/8/3k4/8/8/8/R3K3 w - - 0 1");
  for (const auto& [what, bytes] : cases) {
    test::TempDir dir("capi-bad");
    {
      std::ofstream out(dir.path / "KQvK.egtc", std::ios::binary);
      out.write(bytes.data(), std::streamsize(bytes.size()));
    }
    fs::copy_file(cover_dir() / "KRvK.egtc", dir.path / "KRvK.egtc");
    Handle h(dir.path);
    for (int again = 0; again < 2; ++again) {
      const int rc = egtmin_probe_wdl(h.tb, &kqk);
      // A flipped bit may leave a valid file of other cubes (the LZMA stream's and the header's
      // checks catch most); then the value is a value, never a crash.
      if (what.starts_with("bit flip") && rc >= 0) continue;
      EXPECT_EQ(rc, EGTMIN_ERR_FILE) << what;
      EXPECT_NE(std::string(egtmin_last_error()).find("KQvK"), std::string::npos)
          << what << ": " << egtmin_last_error();
    }
    EXPECT_EQ(egtmin_probe_wdl(h.tb, &krk), EGTMIN_WIN) << what;
  }
  // Another balance's cover under this name.
  test::TempDir dir("capi-wrong");
  fs::copy_file(cover_dir() / "KRvK.egtc", dir.path / "KQvK.egtc");
  Handle h(dir.path);
  EXPECT_EQ(egtmin_probe_wdl(h.tb, &kqk), EGTMIN_ERR_FILE);
  // A damaged layout beside a good cover is not used: the cover's index is built instead.
  test::TempDir with_layout("capi-layout");
  fs::copy_file(cover_dir() / "KQvK.egtc", with_layout.path / "KQvK.egtc");
  {
    std::ofstream out(with_layout.path / "KQvK.egtl", std::ios::binary);
    out << std::string(300, '\x01');
  }
  Handle hl(with_layout.path);
  EXPECT_EQ(egtmin_probe_wdl(hl.tb, &kqk), EGTMIN_WIN) << egtmin_last_error();
  EXPECT_EQ(std::filesystem::file_size(with_layout.path / "KQvK.egtl"), 300u);  // never written
}

TEST(ProbeLib, MemoryCapUnloadsLeastRecentlyUsed) {
  const auto cases = sample_cases(300, 2);
  // A cap of one byte: every load unloads every other balance.
  Handle h(cover_dir(), 1);
  int bad = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (const Case& c : cases) bad += egtmin_probe_wdl(h.tb, &c.pos) != c.want;
  EXPECT_EQ(bad, 0);
  egtmin_stats s{};
  ASSERT_EQ(egtmin_get_stats(h.tb, &s), EGTMIN_OK);
  EXPECT_EQ(s.balances_loaded, 1u);
  EXPECT_EQ(s.memory_cap, 1u);
  // Cases come balance by balance: each pass loads each balance once.
  EXPECT_EQ(s.loads, 2 * std::size(kBalances));
  EXPECT_EQ(s.unloads, s.loads - 1);
  // Nothing probes now: what was unloaded has been freed.
  Handle uncapped(cover_dir());
  for (const Case& c : cases) (void)egtmin_probe_wdl(uncapped.tb, &c.pos);
  egtmin_stats all{};
  ASSERT_EQ(egtmin_get_stats(uncapped.tb, &all), EGTMIN_OK);
  EXPECT_LT(s.resident_bytes, all.resident_bytes);

  // A cap above everything unloads nothing; lowering it unloads at once, least recently used first.
  Handle roomy(cover_dir(), all.resident_bytes * 2);
  for (const Case& c : cases) (void)egtmin_probe_wdl(roomy.tb, &c.pos);
  ASSERT_EQ(egtmin_get_stats(roomy.tb, &s), EGTMIN_OK);
  EXPECT_EQ(s.balances_loaded, std::size(kBalances));
  EXPECT_EQ(s.unloads, 0u);
  const egtmin_position kqk = from_fen("8/8/8/3k4/8/8/8/Q3K3 w - - 0 1");
  // KQvK, loaded first, is probed again: KRvK, loaded second, is now the least recently used.
  ASSERT_EQ(egtmin_probe_wdl(roomy.tb, &kqk), EGTMIN_WIN);
  ASSERT_EQ(egtmin_set_memory_cap(roomy.tb, s.resident_bytes - 1), EGTMIN_OK);
  ASSERT_EQ(egtmin_get_stats(roomy.tb, &s), EGTMIN_OK);
  EXPECT_EQ(s.balances_loaded, std::size(kBalances) - 1);
  EXPECT_EQ(s.unloads, 1u);
  ASSERT_EQ(egtmin_probe_wdl(roomy.tb, &kqk), EGTMIN_WIN);
  ASSERT_EQ(egtmin_get_stats(roomy.tb, &s), EGTMIN_OK);
  EXPECT_EQ(s.loads, std::size(kBalances));  // KQvK stayed
  const egtmin_position krk = from_fen("8/8/8/3k4/8/8/8/R3K3 w - - 0 1");
  ASSERT_EQ(egtmin_probe_wdl(roomy.tb, &krk), EGTMIN_WIN);
  ASSERT_EQ(egtmin_get_stats(roomy.tb, &s), EGTMIN_OK);
  EXPECT_EQ(s.loads, std::size(kBalances) + 1);  // KRvK was unloaded: loaded again
  // A cap below everything unloads everything.
  ASSERT_EQ(egtmin_set_memory_cap(roomy.tb, 1), EGTMIN_OK);
  ASSERT_EQ(egtmin_get_stats(roomy.tb, &s), EGTMIN_OK);
  EXPECT_EQ(s.balances_loaded, 0u);
  EXPECT_EQ(s.resident_bytes, 0u);
  EXPECT_EQ(egtmin_set_memory_cap(roomy.tb, 0), EGTMIN_ERR_ARGUMENT);
}

TEST(ProbeLib, OpenAndCloseManyTimes) {
  const auto cases = sample_cases(20, 3);
  for (int i = 0; i < 50; ++i) {
    Handle h(cover_dir(), i % 2 ? 0 : 1);
    for (const Case& c : cases) ASSERT_EQ(egtmin_probe_wdl(h.tb, &c.pos), c.want);
  }
  // Two handles at once are independent.
  Handle a(cover_dir()), b(cover_dir(), 1);
  for (const Case& c : cases) {
    ASSERT_EQ(egtmin_probe_wdl(a.tb, &c.pos), c.want);
    ASSERT_EQ(egtmin_probe_wdl(b.tb, &c.pos), c.want);
  }
}

// egtmin_probe_wdl_many gives every position what egtmin_probe_wdl gives it, error codes
// included, over chunk boundaries, with balances loaded on the way (and, under a one-byte cap,
// unloaded again).
TEST(ProbeLib, ManyAtOnceGiveWhatEachGivesAlone) {
  std::vector<egtmin_position> positions;
  for (const Case& c : sample_cases(500, 9)) positions.push_back(c.pos);
  egtmin_position castling = positions[0], clock = positions[1], twice = positions[2];
  castling.castling = 1;
  clock.rule50 = 7;
  twice.black |= twice.white & twice.kings;  // White's king on both colours
  for (const egtmin_position& odd :
       {castling, clock, twice, from_fen("8/8/8/k2pP3/8/8/8/4K3 w - d6 0 1"),  // en passant
        from_fen("8/8/8/3k4/8/8/8/4K3 w - - 0 1"),                             // KvK, no file needed
        from_fen("8/8/8/3k4/8/8/8/q3K3 w - - 0 1"),                            // KvKQ: through KQvK
        from_fen("4k3/8/8/8/8/8/1p6/q3K3 w - - 0 1")})                         // KvKQP: no cover
    for (size_t at = 0; at < positions.size(); at += 401) positions.insert(positions.begin() + long(at), odd);
  std::vector<int> alone(positions.size());
  {
    Handle h(cover_dir());
    for (size_t i = 0; i < positions.size(); ++i) alone[i] = egtmin_probe_wdl(h.tb, &positions[i]);
  }
  EXPECT_NE(std::count(alone.begin(), alone.end(), EGTMIN_ERR_CASTLING), 0);
  EXPECT_NE(std::count(alone.begin(), alone.end(), EGTMIN_ERR_NO_COVER), 0);
  for (uint64_t cap : {uint64_t{0}, uint64_t{1}}) {
    Handle h(cover_dir(), cap);
    std::vector<int> many(positions.size(), 99);
    ASSERT_EQ(egtmin_probe_wdl_many(h.tb, positions.data(), positions.size(), many.data()), EGTMIN_OK);
    int differ = 0;
    for (size_t i = 0; i < positions.size(); ++i)
      if (many[i] != alone[i] && ++differ <= 5)
        ADD_FAILURE() << "cap " << cap << ", position " << i << ": many " << many[i] << ", alone " << alone[i];
    EXPECT_EQ(differ, 0);
    int one = 99;
    ASSERT_EQ(egtmin_probe_wdl_many(h.tb, &positions[3], 1, &one), EGTMIN_OK);
    EXPECT_EQ(one, alone[3]);
  }
  Handle h(cover_dir());
  int v = 0;
  EXPECT_EQ(egtmin_probe_wdl_many(nullptr, positions.data(), 1, &v), EGTMIN_ERR_ARGUMENT);
  EXPECT_EQ(egtmin_probe_wdl_many(h.tb, nullptr, 1, &v), EGTMIN_ERR_ARGUMENT);
  EXPECT_EQ(egtmin_probe_wdl_many(h.tb, positions.data(), 1, nullptr), EGTMIN_ERR_ARGUMENT);
  EXPECT_EQ(egtmin_probe_wdl_many(h.tb, nullptr, 0, nullptr), EGTMIN_OK);
}

// Five pieces, where the batch overlaps its probes: KRPvKR valued by Syzygy on a few parts of its
// index space (tests/probe/test_cover_prober.cpp's cover), probed through a region index built
// when the library loads the cover, many at once and one by one, against Syzygy.
TEST(ProbeLib, ManyAtOnceAgreeWithSyzygyOnFivePieceRegions) {
  EGTMIN_KRPKR_FROM_SYZYGY();
  std::mt19937_64 rng(6);
  const test::SyzygyParts parts = test::syzygy_parts(**syz, enc, canon, 13, 4, rng);
  test::TempDir dir("capi-krpkr");
  ASSERT_TRUE(store::save_cover(dir.path / "KRPvKR.egtc", parts.cover).ok());
  std::vector<egtmin_position> positions;
  std::vector<int> want;
  while (positions.size() < 20000) {
    Placement p = enc.decode(parts.random_index(rng));
    if (!enc.is_legal(p) || !canon.is_representative(p)) continue;
    if (rng() & 1)
      for (int i = 0; i < enc.pieces(); ++i) p.sq[size_t(i)] = flip_file(p.sq[size_t(i)]);  // mirrored
    Position pos = enc.position(p);
    if (pos.ep_square() != NoSquare) continue;
    if (rng() & 1) pos = pos.color_flipped();
    positions.push_back(to_c(pos));
    want.push_back(int(*(*syz)->wdl(enc, p)));  // Syzygy's values are the header's
  }
  for (uint64_t cap : {uint64_t{0}, uint64_t{1}}) {
    Handle h(dir.path, cap);
    std::vector<int> many(positions.size());
    ASSERT_EQ(egtmin_probe_wdl_many(h.tb, positions.data(), positions.size(), many.data()), EGTMIN_OK);
    int bad = 0;
    for (size_t i = 0; i < positions.size(); ++i) {
      const int alone = egtmin_probe_wdl(h.tb, &positions[i]);
      if ((many[i] != want[i] || alone != want[i]) && ++bad <= 5)
        ADD_FAILURE() << "cap " << cap << ", position " << i << ": many " << many[i] << ", alone " << alone
                      << ", Syzygy " << want[i];
    }
    EXPECT_EQ(bad, 0);
  }
}

// 8 threads probe one fresh handle at once: every balance's first probe races with the others'.
// Every thread probes every case in its own order, half of them one at a time and half all at
// once (egtmin_probe_wdl_many); each answer must equal the single-threaded one.
void race(uint64_t cap, size_t per_balance) {
  const auto cases = sample_cases(per_balance, 4);
  std::vector<int> single(cases.size());
  {
    Handle one(cover_dir());
    for (size_t i = 0; i < cases.size(); ++i) single[i] = egtmin_probe_wdl(one.tb, &cases[i].pos);
  }
  for (size_t i = 0; i < cases.size(); ++i) ASSERT_EQ(single[i], cases[i].want);
  for (int round = 0; round < 3; ++round) {
    Handle h(cover_dir(), cap);
    std::atomic<int> go{0}, mismatches{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t)
      threads.emplace_back([&, t] {
        std::vector<size_t> order(cases.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::shuffle(order.begin(), order.end(), std::mt19937_64(uint64_t(t + 8 * round)));
        go.fetch_add(1);
        while (go.load() < 8) {
        }
        if (t % 2 == 0) {
          for (size_t i : order)
            if (egtmin_probe_wdl(h.tb, &cases[i].pos) != single[i]) mismatches.fetch_add(1);
          return;
        }
        // The other half probe their cases many at a time (loads and unloads on the way).
        std::vector<egtmin_position> batch;
        for (size_t i : order) batch.push_back(cases[i].pos);
        std::vector<int> got(batch.size());
        if (egtmin_probe_wdl_many(h.tb, batch.data(), batch.size(), got.data()) != EGTMIN_OK) mismatches.fetch_add(1);
        for (size_t k = 0; k < order.size(); ++k)
          if (got[k] != single[order[k]]) mismatches.fetch_add(1);
      });
    for (auto& th : threads) th.join();
    EXPECT_EQ(mismatches.load(), 0) << "round " << round;
    egtmin_stats s{};
    ASSERT_EQ(egtmin_get_stats(h.tb, &s), EGTMIN_OK);
    if (cap == 0)
      EXPECT_EQ(s.loads, std::size(kBalances));  // each balance loaded once, races or not
    else
      EXPECT_GT(s.unloads, 0u);
  }
}

// A capture-resolved layout whose regions leave positions in check to the evasion search (KRvKN's
// leaves some): the library searches them as the core prober does, every legal position of the
// balance in both colourings giving its table's value.
TEST(ProbeLib, SearchesThePositionsInCheckItsLayoutLeavesToTheSearch) {
  test::TempDir dir("capi-evasions");
  ASSERT_EQ(test::make_krkn_searching_evasions(dir.path), "");
  auto prober = probe::CoverProber::open(dir.path, probe::CoverProber::kDefaultCopies, probe::RegionPolicy::Auto, 2,
                                         probe::CoverProber::LayoutPolicy::Use, store::CoverKind::CaptureResolved);
  ASSERT_TRUE(prober) << prober.error().message;
  Handle h(dir.path);
  const Table& table = table_of("KRvKN");
  uint64_t left_to_search = 0, bad = 0;
  for (uint64_t slot = 0; slot < table.slots() && bad < 5; ++slot) {
    const Wdl white = table.at_slot(slot);
    if (white == Wdl::Illegal) continue;
    const Position pos = table.encoding().position(table.symmetry().from_slot(slot));
    const Wdl want = pos.side_to_move() == White ? white : negate(white);
    for (const Position& p : {pos, pos.color_flipped()}) {
      const egtmin_position c = to_c(p);
      const int got = egtmin_probe_wdl(h.tb, &c);
      if (got != to_c(want)) ++bad, ADD_FAILURE() << p.fen() << ": " << got << " " << egtmin_last_error();
    }
    const probe::CoverProber::HotEntry* e = (*prober)->hot_entry(pos.material_key());
    ASSERT_TRUE(e);
    left_to_search += pos.in_check(pos.side_to_move()) && probe::CoverProber::evasions_searched(pos, *e);
  }
  EXPECT_EQ(bad, 0u);
  EXPECT_GT(left_to_search, 0u) << "no region of KRvKN's layout leaves its positions in check to the search";
}

TEST(ProbeLibThreads, EightThreadsRacingLoadsAgreeWithOne) { race(0, 2000); }
TEST(ProbeLibThreads, EightThreadsLoadingAndUnloadingUnderACapAgreeWithOne) { race(1, 300); }

}  // namespace
}  // namespace egtmin
