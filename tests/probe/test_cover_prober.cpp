// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include <lzma.h>
#include <unistd.h>

#include "bench/probe_bench.hpp"
#include "logic/check.hpp"
#include "logic/pipeline.hpp"
#include "probe/capture_freedom.hpp"
#include "probe/cover_builder.hpp"
#include "probe/probe.hpp"
#include "probe/probe_layout.hpp"
#include "run/minimize_run.hpp"
#include "run/proof_run.hpp"
#include "support/env.hpp"
#include "support/kpk_closure.hpp"
#include "support/temp_dir.hpp"
#include "table/table_store.hpp"
#include "util/atomic_file.hpp"
#include "util/byte_io.hpp"

namespace egtmin::probe {
namespace {

using test::shared_store;

const Table& table_of(const char* name) {
  auto t = shared_store().ensure(*Balance::parse(name));
  EXPECT_TRUE(t.ok()) << t.error().message;
  return **t;
}

// Both methods against the table, for the placement's position; returns mismatches.
int check_position(const CoverProber& prober, const Table& t, const Placement& p, bool linear = true) {
  const Encoding& enc = t.encoding();
  Position pos = enc.position(p);
  Wdl white = t.value(p);
  Wdl expect = p.stm == White ? white : negate(white);
  int bad = 0;
  for (Method m : {Method::Linear, Method::Indexed}) {
    if (m == Method::Linear && !linear) continue;
    auto r = prober.probe(pos, m);
    if (!r.ok() || r->wdl != expect) {
      if (++bad < 3)
        ADD_FAILURE() << pos.fen() << " " << method_name(m) << ": " << (r.ok() ? name_of(r->wdl) : r.error().message)
                      << ", table " << name_of(expect);
    }
    // The hot path (material hash, transform table, PCN patterns) must give the same value.
    const Wdl fast = prober.probe_wdl(pos, m);
    if (fast != expect) {
      if (++bad < 3)
        ADD_FAILURE() << pos.fen() << " " << method_name(m) << " probe_wdl: " << name_of(fast) << ", table "
                      << name_of(expect);
    }
  }
  return bad;
}

TEST(CoverProber, ThreePieceExhaustiveBothMethodsAndSchemes) {
  for (const char* name : {"KQvK", "KRvK", "KBvK", "KNvK", "KPvK"}) {
    const Table& t = table_of(name);
    for (CanonScheme scheme : {CanonScheme::Full, CanonScheme::None})
      for (RegionPolicy regions : {RegionPolicy::Never, RegionPolicy::Always}) {
        CoverProber prober;
        ASSERT_TRUE(prober.add(test::trie_cover(t, scheme), CoverProber::kDefaultCopies, regions).ok());
        EXPECT_EQ(prober.region_covers(), regions == RegionPolicy::Always ? 1u : 0u);
        const Encoding& enc = t.encoding();
        int bad = 0;
        uint64_t probed = 0;
        for (uint64_t i = 0; i < enc.size() && bad < 10; ++i) {
          Placement p = enc.decode(i);
          if (!enc.is_legal(p)) continue;
          // Linear scans are slow on the uncanonicalized covers: every 8th position there.
          bad += check_position(prober, t, p, scheme == CanonScheme::Full || i % 8 == 0);
          ++probed;
        }
        EXPECT_EQ(bad, 0) << name << " " << name_of(scheme) << " regions " << name_of(regions);
        EXPECT_GT(probed, 100000u);
      }
  }
}

// Three-piece covers probed by their index answer every legal position of each balance (every
// placement, so every mirror image) in both colourings (KvKQ goes through KQvK's cover with the
// ranks and colours swapped) as the table does, all from one prober whose material hash holds
// their ten colourings in 32 slots (at most half full; it no longer has a fixed 512).
TEST(CoverProber, ThreePieceCoversAnswerEveryPositionAndColouring) {
  const std::vector<const char*> names = {"KQvK", "KRvK", "KBvK", "KNvK", "KPvK"};
  CoverProber prober;
  for (const char* name : names) ASSERT_TRUE(prober.add(test::trie_cover(table_of(name), CanonScheme::Full)).ok());
  EXPECT_EQ(prober.material_hash_slots(), 32u);
  for (const char* name : names) {
    const Table& t = table_of(name);
    ASSERT_TRUE(prober.cover(t.balance())->indexed()) << name;
    const Encoding& enc = t.encoding();
    int bad = 0;
    uint64_t probed = 0;
    for (uint64_t i = 0; i < enc.size() && bad < 10; ++i) {
      const Placement p = enc.decode(i);
      if (!enc.is_legal(p)) continue;
      const Position pos = enc.position(p);
      const Wdl white = t.value(p);
      const Wdl want = p.stm == White ? white : negate(white);
      for (const Position& q : {pos, pos.color_flipped()}) {
        const Wdl got = prober.probe_wdl(q, Method::Indexed);
        if (got != want && ++bad < 5) ADD_FAILURE() << q.fen() << ": " << name_of(got) << ", table " << name_of(want);
      }
      ++probed;
    }
    EXPECT_EQ(bad, 0) << name;
    EXPECT_GT(probed, 100000u) << name;
  }
}

// Syzygy's value for the side to move in our three values (cursed and blessed results are wins
// and losses for tables without the 50-move rule).
Wdl from_syzygy(SyzygyWdl v) { return fold(to_wdl(v)); }

// KPvKP, valued by Syzygy so the test does not have to generate the pawn tables: a cover of the
// parts of the index space (stm + white king) that the probed positions map to.
TEST(CoverProber, FourPieceSampleAndEnPassant) {
  EGTMIN_REQUIRE_SYZYGY();
  auto syz = Syzygy::open(test::syzygy_dir());
  ASSERT_TRUE(syz.ok()) << syz.error().message;
  const Balance kpkp = *Balance::parse("KPvKP");
  const Encoding enc(kpkp);
  const CoverCanon canon(enc, CanonScheme::Full);
  const int rest = enc.bits() - 7;
  auto white_value = [&](const Placement& p) {
    auto v = (*syz)->wdl(enc, p);
    EXPECT_TRUE(v.has_value());
    Wdl stm = v ? from_syzygy(*v) : Wdl::Illegal;
    return p.stm == White ? stm : negate(stm);
  };
  auto prefix_of = [&](const Placement& p) { return enc.encode(canon.canonical(p).placement) >> rest; };

  const char* ep_fens[] = {"8/8/8/k2pP3/8/8/8/4K3 w - d6 0 1", "8/8/8/8/2Pp4/8/8/k3K3 b - c3 0 1",
                           "4k3/8/8/3pP3/8/8/8/K7 w - d6 0 1"};
  std::vector<uint64_t> prefixes = {35, 50};  // White to move, white king on d4 or c2 (a8 = 0)
  for (const char* fen : ep_fens) {
    auto pos = Position::from_fen(fen);
    ASSERT_TRUE(pos.ok()) << fen << ": " << pos.error().message;
    prefixes.push_back(prefix_of(*enc.placement(*pos)));
  }
  std::sort(prefixes.begin(), prefixes.end());
  prefixes.erase(std::unique(prefixes.begin(), prefixes.end()), prefixes.end());

  CoverProber prober, with_regions;
  const auto cover = test::trie_cover(kpkp, CanonScheme::Full, white_value, 7, prefixes);
  ASSERT_TRUE(prober.add(cover).ok());
  ASSERT_TRUE(with_regions.add(cover, CoverProber::kDefaultCopies, RegionPolicy::Always).ok());
  ASSERT_EQ(with_regions.region_covers(), 1u);
  std::mt19937_64 rng(3);
  int bad = 0, probed = 0;
  while (probed < 20000 && bad < 10) {
    Placement p = enc.decode(rng() & (enc.size() - 1));
    if (!enc.is_legal(p) || !std::binary_search(prefixes.begin(), prefixes.end(), prefix_of(p))) continue;
    Position pos = enc.position(p);
    Wdl want = from_syzygy(*(*syz)->wdl(enc, p));
    for (Method m : {Method::Linear, Method::Indexed}) {
      auto got = prober.probe(pos, m);
      if (!got.ok() || got->wdl != want || prober.probe_wdl(pos, m) != want) {
        if (++bad < 3) ADD_FAILURE() << pos.fen() << " " << method_name(m);
      }
      auto region = with_regions.probe(pos, m);
      if (!region.ok() || region->wdl != want || with_regions.probe_wdl(pos, m) != want) {
        if (++bad < 3) ADD_FAILURE() << pos.fen() << " " << method_name(m) << " (region index)";
      }
    }
    ++probed;
  }
  EXPECT_EQ(bad, 0);

  // En passant: the capture leads to KPvK, whose cover must be there too; Fathom resolves the
  // en-passant square itself, so it is the reference.
  ASSERT_TRUE(prober.add(test::trie_cover(table_of("KPvK"), CanonScheme::Full)).ok());
  ASSERT_TRUE(
      with_regions
          .add(test::trie_cover(table_of("KPvK"), CanonScheme::Full), CoverProber::kDefaultCopies, RegionPolicy::Always)
          .ok());
  for (const char* fen : ep_fens) {
    auto pos = Position::from_fen(fen);
    auto want = (*syz)->wdl(*pos);
    ASSERT_TRUE(want.has_value());
    auto plain = *pos;
    plain.set_ep_square(NoSquare);
    for (Method m : {Method::Linear, Method::Indexed}) {
      auto got = prober.probe_checked(*pos, m);
      ASSERT_TRUE(got.ok()) << got.error().message;
      EXPECT_EQ(got->wdl, from_syzygy(*want)) << fen << " " << method_name(m);
      EXPECT_EQ(prober.probe_wdl(*pos, m), from_syzygy(*want)) << fen << " " << method_name(m);
      EXPECT_EQ(with_regions.probe_wdl(*pos, m), from_syzygy(*want)) << fen << " " << method_name(m) << " (regions)";
    }
    // At least one of these must differ from the position without the en-passant right, or the
    // test would not show that the capture is considered.
    if (std::string(fen).find("k2pP3") != std::string::npos) {
      auto without = prober.probe(plain, Method::Indexed);
      ASSERT_TRUE(without.ok());
      RecordProperty(std::string("ep_changes_value_") + fen, without->wdl != from_syzygy(*want));
    }
  }
}

// Five pieces: KRPvKR valued by Syzygy on a few parts of the index space (side to move, White's
// king and rook fixed), probed through the front line and regions (the default at five pieces)
// and through the tree, both against Syzygy, hot path and full path.
// A five-piece cover of few cubes gets the front line and one leaf, no regions (RegionPolicy::Auto,
// CoverProber::kOneLeafBlocks): a layout of fewer bytes than the regions', answering as they do.
TEST(CoverProber, FivePieceSmallCoverTakesOneLeafInFewerBytes) {
  EGTMIN_KRPKR_FROM_SYZYGY();
  std::mt19937_64 rng(8);
  const test::SyzygyParts part = test::syzygy_parts(**syz, enc, canon, 21, 1, rng);
  ASSERT_LE(part.cover.cubes.size(), 4 * 64u) << "a cover the one leaf answers in a few blocks";
  CoverProber automatic, regions;
  ASSERT_TRUE(automatic.add(part.cover).ok());
  ASSERT_TRUE(regions.add(part.cover, CoverProber::kDefaultCopies, RegionPolicy::Always).ok());
  EXPECT_EQ(automatic.region_covers(), 0u);
  EXPECT_EQ(regions.region_covers(), 1u);
  const size_t one_leaf_bytes = serialize_layout(*automatic.cover(krpkr), {}).size(),
               region_bytes = serialize_layout(*regions.cover(krpkr), {}).size();
  EXPECT_LT(one_leaf_bytes * 4, region_bytes) << one_leaf_bytes << " against " << region_bytes;
  int bad = 0, probed = 0;
  for (uint64_t i = part.prefixes[0] << part.rest; i < (part.prefixes[0] + 1) << part.rest && bad < 10; ++i) {
    const Placement p = enc.decode(i);
    if (!enc.is_legal(p) || !canon.is_representative(p)) continue;
    const Position pos = enc.position(p);
    const Wdl want = from_syzygy(*(*syz)->wdl(enc, p));
    for (const CoverProber* prober : {&automatic, &regions})
      if (prober->probe_wdl(pos, Method::Indexed) != want && ++bad < 4)
        ADD_FAILURE() << pos.fen() << (prober == &regions ? " (regions)" : " (one leaf)") << ": Syzygy "
                      << name_of(want);
    ++probed;
  }
  EXPECT_EQ(bad, 0);
  EXPECT_GT(probed, 100);
}

// A five-piece cover of thousands of cubes, too many for the caches, whose one leaf costs more than
// a few blocks a probe but takes fewer bytes than the front line and regions: Auto takes the leaf
// (CoverProber::kOneLeafSmallerBlocks), and it answers as the cubes do. The cubes are made up so
// that a probe scans a few blocks wherever it lands: each fixes 11 random inputs (so no tree splits
// them without copies), all say White wins, and the rest is the implied draw. Their regions take
// about five times the leaf's bytes, since each cube spans many regions.
TEST(CoverProber, FivePieceLongerLeafTakenWhereSmallerThanRegions) {
  const Balance krpkr = *Balance::parse("KRPvKR");
  const Encoding enc(krpkr);
  const CoverCanon canon(enc, CanonScheme::Full);
  std::mt19937_64 rng(11);
  store::CoverFile cover;
  cover.balance = krpkr;
  cover.inputs = enc.bits();
  cover.canon = CanonScheme::Full;
  cover.passes = "test-random";
  cover.implied = logic::Output::Draw;
  std::vector<int> inputs(size_t(enc.bits()));
  std::iota(inputs.begin(), inputs.end(), 0);
  for (int i = 0; i < 16000; ++i) {
    logic::CubeWord cube = logic::minterm(rng() & (enc.size() - 1), enc.bits(), logic::Output::Win);
    std::shuffle(inputs.begin(), inputs.end(), rng);
    for (size_t k = 11; k < inputs.size(); ++k) cube |= logic::pair_mask(inputs[k]);
    cover.cubes.push_back(cube);
  }
  CoverProber automatic;
  ASSERT_TRUE(automatic.add(cover).ok());
  EXPECT_EQ(automatic.region_covers(), 0u);
  // Not the quick leaf: too many words for the caches, and more than a few blocks a probe.
  const LoadedCover& leaf = *automatic.cover(krpkr);
  EXPECT_GT(leaf.index.hot_words().size_bytes(), CoverProber::kOneLeafCachedBytes);
  std::vector<uint64_t> asked;
  std::vector<Position> positions;
  while (asked.size() < 20000) {
    const Placement p = enc.decode(rng() & (enc.size() - 1));
    if (!enc.is_legal(p)) continue;
    asked.push_back(enc.encode(canon.canonical(p).placement));
    positions.push_back(enc.position(p));
  }
  const double blocks = leaf.index.leaf_blocks_per_query(asked);
  EXPECT_GT(blocks, CoverProber::kOneLeafBlocks);
  EXPECT_LE(blocks, CoverProber::kOneLeafSmallerBlocks);
  int bad = 0;
  for (const Position& pos : positions)
    if (automatic.probe_wdl(pos, Method::Indexed) != automatic.probe_wdl(pos, Method::Linear) && ++bad < 4)
      ADD_FAILURE() << pos.fen() << ": the leaf and the cubes disagree";
  EXPECT_EQ(bad, 0);
}

TEST(CoverProber, FivePieceRegionsAgreeWithSyzygy) {
  EGTMIN_KRPKR_FROM_SYZYGY();
  std::mt19937_64 rng(5);
  const test::SyzygyParts parts = test::syzygy_parts(**syz, enc, canon, 13, 6, rng);
  const store::CoverFile& cover = parts.cover;
  CoverProber regions, tree;
  ASSERT_TRUE(regions.add(cover, CoverProber::kDefaultCopies, RegionPolicy::Always).ok());
  ASSERT_TRUE(tree.add(cover, CoverProber::kDefaultCopies, RegionPolicy::Never).ok());
  ASSERT_EQ(regions.region_covers(), 1u);
  ASSERT_EQ(tree.region_covers(), 0u);
  int bad = 0, probed = 0, front_misses = 0;
  std::vector<Position> asked;
  while (probed < 20000 && bad < 10) {
    // A random legal placement inside a covered part, seen from a random symmetric image.
    Placement p = enc.decode(parts.random_index(rng));
    if (!enc.is_legal(p) || !canon.is_representative(p)) continue;
    if (rng() & 1)
      for (int i = 0; i < enc.pieces(); ++i) p.sq[size_t(i)] = flip_file(p.sq[size_t(i)]);  // mirrored
    const Position pos = enc.position(p);
    const Wdl want = from_syzygy(*(*syz)->wdl(enc, p));
    for (const CoverProber* prober : {&regions, &tree}) {
      auto got = prober->probe(pos, Method::Indexed);
      const Wdl fast = prober->probe_wdl(pos, Method::Indexed);
      if (!got.ok() || got->wdl != want || fast != want)
        if (++bad < 4)
          ADD_FAILURE() << pos.fen() << (prober == &regions ? " (regions)" : " (tree)") << ": "
                        << (got.ok() ? name_of(got->wdl) : got.error().message) << " / " << name_of(fast) << ", Syzygy "
                        << name_of(want);
    }
    asked.push_back(pos);
    const uint64_t rep = enc.encode(canon.canonical(p).placement);
    front_misses += regions.cover(krpkr)->index.find(rep, logic::minterm(rep, enc.bits())) == 0;
    ++probed;
  }
  EXPECT_EQ(bad, 0);
  EXPECT_GT(front_misses, 1000) << "the regions were hardly asked";

  // The batch path (probes finished out of order, RegionBatch's depth at a time in flight) gives each
  // position probe_wdl's value in its own place, with positions of a balance it has no cover for
  // (answered at once, Illegal) mixed in; and so does a batch of one.
  for (size_t i = 0; i < asked.size(); i += 97)
    asked.insert(asked.begin() + long(i), *Position::from_fen("7k/8/8/8/8/8/8/KR6 w - - 0 1"));
  for (const CoverProber* prober : {&regions, &tree}) {
    std::vector<Wdl> many(asked.size(), Wdl::Win);
    prober->probe_wdl_many(asked.data(), asked.size(), many.data(), Method::Indexed);
    int differ = 0;
    for (size_t i = 0; i < asked.size(); ++i)
      if (many[i] != prober->probe_wdl(asked[i], Method::Indexed) && ++differ < 4)
        ADD_FAILURE() << asked[i].fen() << ": batch " << name_of(many[i]) << ", alone "
                      << name_of(prober->probe_wdl(asked[i], Method::Indexed));
    EXPECT_EQ(differ, 0);
    EXPECT_EQ(many[0], Wdl::Illegal);
    Wdl one = Wdl::Win;
    prober->probe_wdl_many(&asked[1], 1, &one, Method::Indexed);
    EXPECT_EQ(one, prober->probe_wdl(asked[1], Method::Indexed));
  }

  // The directory's blocks: counted in units of 8 cubes (each region padded with cubes that match
  // nothing), and read back from a layout's state and words, the regions answer every index
  // (legal or not, covered or not) as the index built in memory does.
  const RegionIndex& built = regions.cover(krpkr)->region;
  const RegionIndex padded(cover.cubes, enc, canon, regions.cover(krpkr)->index.front_cubes(), built.fixed_slots(),
                           cover.implied, 3);
  ASSERT_TRUE(padded.built());
  EXPECT_EQ(built.unit_shift(), 0);
  EXPECT_EQ(padded.unit_shift(), 3);
  EXPECT_GT(padded.hot_words().size(), built.hot_words().size());
  ByteWriter w;
  built.save_state(w);
  ByteReader r(w.bytes());
  RegionIndex stored;
  stored.load_state(r);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(stored.attach_hot_words(built.hot_words()));
  // A block whose counts run past the cubes is refused.
  std::vector<uint64_t> damaged(built.hot_words().begin(), built.hot_words().end());
  reinterpret_cast<uint8_t*>(damaged.data())[RegionIndex::kBlockCounts] = 255;
  reinterpret_cast<uint32_t*>(damaged.data())[0] = uint32_t(damaged.size() * 2);
  RegionIndex refused;
  ByteReader r2(w.bytes());
  refused.load_state(r2);
  EXPECT_FALSE(refused.attach_hot_words(damaged));
  int differ = 0;
  for (int n = 0; n < 200000 && differ < 5; ++n) {
    const uint64_t idx = n % 2 ? parts.random_index(rng) : rng() & (enc.size() - 1);
    const logic::Output want = built.output(idx);
    if (padded.output(idx) != want || stored.output(idx) != want)
      ++differ, ADD_FAILURE() << "index " << idx << ": built " << int(want) << ", padded " << int(padded.output(idx))
                              << ", from the layout " << int(stored.output(idx));
  }
  EXPECT_EQ(differ, 0);
}

// check_probe proves what answers: exact covers pass on every legal position, a cover with one
// cube's value changed fails, and the first mismatch is named. One position of each symmetry
// class stands for as many positions as probing every placement counts.
TEST(CoverProber, CheckProbeProvesTheIndexAndCatchesAWrongCube) {
  for (const char* name : {"KRvK", "KPvK", "KRRvK"}) {
    const Table& t = table_of(name);
    auto cover = test::trie_cover(t, CanonScheme::Full);
    for (RegionPolicy regions : {RegionPolicy::Never, RegionPolicy::Always}) {
      CoverProber prober;
      ASSERT_TRUE(prober.add(cover, CoverProber::kDefaultCopies, regions).ok());
      const logic::CheckReport every = check_probe(t, prober, 2, no_progress(), ProbeCheckScope::EveryPlacement);
      EXPECT_GT(every.positions, 10000u) << name;
      EXPECT_EQ(every.mismatches, 0u) << name << ": " << every.first_mismatch;
      const logic::CheckReport ok = check_probe(t, prober, 2);
      EXPECT_EQ(ok.positions, every.positions) << name;
      EXPECT_EQ(ok.mismatches, 0u) << name << ": " << ok.first_mismatch;
    }
    auto broken = cover;
    const logic::CubeWord c = broken.cubes[broken.cubes.size() / 2];
    broken.cubes[broken.cubes.size() / 2] =
        logic::with_output(c, logic::output_of(c) == logic::Output::Draw ? logic::Output::Win : logic::Output::Draw);
    CoverProber prober;
    ASSERT_TRUE(prober.add(broken).ok());
    for (ProbeCheckScope scope : {ProbeCheckScope::OneOfEachClass, ProbeCheckScope::EveryPlacement}) {
      const logic::CheckReport bad = check_probe(t, prober, 2, no_progress(), scope);
      EXPECT_GT(bad.mismatches, 0u) << name;
      EXPECT_NE(bad.first_mismatch.find("table"), std::string::npos) << bad.first_mismatch;
    }
  }
}

// The class members probed in place of the representatives belong to their classes and are
// spread over the board transforms: the prober's transforms are taken, not only its identity.
TEST(CoverProber, CheckProbeMembersAreOfTheClassAndSpreadOverTheTransforms) {
  for (const char* name : {"KRvK", "KPvK", "KRRvK"}) {
    const Table& t = table_of(name);
    const Symmetry& sym = t.symmetry();
    uint64_t classes = 0, moved = 0;
    for (uint64_t s = 0; s < sym.domain_size(); ++s) {
      if (t.at_slot(s) == Wdl::Illegal) continue;
      const Placement p = sym.from_slot(s);
      if (!sym.is_canonical(p)) continue;
      const Placement m = member_to_probe(sym, s, p);
      ASSERT_EQ(sym.canonical_slot(m), s) << name;
      ASSERT_TRUE(t.encoding().is_legal(m)) << name;
      ++classes;
      moved += t.encoding().encode(m) != t.encoding().encode(p);
    }
    // The identity is one transform of 8 (no pawns) or of 2 (pawns).
    const double want = sym.group() == 8 ? 0.8 : 0.4;
    EXPECT_GT(double(moved), want * double(classes)) << name << ": " << moved << " of " << classes;
  }
}

TEST(CoverProber, ColourFlippedBalanceUsesCanonicalCover) {
  CoverProber prober;
  ASSERT_TRUE(prober.add(test::trie_cover(table_of("KRvK"), CanonScheme::Full)).ok());
  // KvKR: Black has the rook; probed through the KRvK cover.
  for (const char* fen : {"8/8/8/8/8/2k5/3r4/K7 w - - 0 1", "8/8/8/8/8/2k5/3r4/K7 b - - 0 1",
                          "8/8/8/8/8/1k6/8/K6r w - - 0 1", "8/8/8/8/8/2k5/8/Kr6 w - - 0 1"}) {
    auto pos = Position::from_fen(fen);
    ASSERT_TRUE(pos.ok()) << fen;
    auto want = shared_store().probe_stm(*pos);
    ASSERT_TRUE(want.ok()) << want.error().message;
    for (Method m : {Method::Linear, Method::Indexed}) {
      auto got = prober.probe_checked(*pos, m);
      ASSERT_TRUE(got.ok()) << got.error().message;
      EXPECT_EQ(got->wdl, *want) << fen;
      EXPECT_EQ(prober.probe_wdl(*pos, m), *want) << fen;
      EXPECT_EQ(got->balance.name(), "KRvK");
      EXPECT_NE(got->cube, 0u);
    }
  }
  auto none = prober.probe_checked(*Position::from_fen("8/8/8/8/8/2k5/3q4/K7 w - - 0 1"), Method::Indexed);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(prober.probe_wdl(*Position::from_fen("8/8/8/8/8/2k5/3q4/K7 w - - 0 1"), Method::Indexed), Wdl::Illegal);
  EXPECT_EQ(CoverProber().probe_wdl(*Position::from_fen("8/8/8/8/8/2k5/8/K7 w - - 0 1"), Method::Indexed),
            Wdl::Illegal);
  EXPECT_NE(none.error().message.find("no cover for KQvK"), std::string::npos) << none.error().message;
}

TEST(CoverProber, IndexedFindsSameOutputAsLinearOnRandomCovers) {
  // A cover of random disjoint-output cubes is not needed: any cube containing the minterm is
  // acceptable only when outputs agree, so compare against a brute-force scan on a trie cover.
  const Table& t = table_of("KQvK");
  auto cover = test::trie_cover(t, CanonScheme::None);
  for (int copies : {1, 2, 16}) {
    CubeIndex idx(cover.cubes, cover.inputs, copies);
    for (uint64_t i = 0; i < (uint64_t{1} << cover.inputs); i += 29) {
      logic::CubeWord m = logic::minterm(i, cover.inputs);
      logic::CubeWord lin = 0;
      for (auto c : cover.cubes)
        if (logic::contains(c, m)) {
          lin = c;
          break;
        }
      logic::CubeWord got = idx.find(i, m);
      ASSERT_EQ(logic::output_of(got), logic::output_of(lin)) << "index " << i << " copies " << copies;
    }
  }
}

}  // namespace
}  // namespace egtmin::probe

namespace egtmin::probe {
namespace {

// The real minimizer's covers (canon, compact, expand, irredundant), through a cover file on disk,
// against the table on every legal position of the 3-piece balances.
// A cover that leaves its most numerous output implied answers every legal position exactly through
// both methods, both 3-4-piece index structures, the hot path and a mapped layout; the same cubes
// without the implied output leave those positions without a value (the test can fail).
TEST(CoverProber, ImpliedOutputCoversAreExact) {
  auto passes = logic::parse_passes("canon,compact,expand,irredundant");
  ASSERT_TRUE(passes.ok()) << passes.error().message;
  test::TempDir dir("implied-test");
  const std::vector<const char*> names = {"KQvK", "KPvK", "KRvKP"};
  for (const char* name : names) {
    const Table& t = table_of(name);
    auto m = logic::minimize_table(t, *passes, {});
    ASSERT_TRUE(m.ok()) << m.error().message;
    store::CoverFile f{
        t.balance(), t.encoding().bits(),          m->scheme,          "canon,compact,expand,irredundant", m->cover,
        {},          store::CoverKind::Standalone, logic::Output::None};
    f.implied = logic::most_cubes_output(f.cubes);
    const size_t before = f.cubes.size();
    logic::drop_output(f.cubes, f.implied);
    EXPECT_LT(f.cubes.size(), before) << name;
    ASSERT_TRUE(store::save_cover(store::cover_path(dir.path, t.balance()), f).ok());
    auto back = store::load_cover(store::cover_path(dir.path, t.balance()));
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->implied, f.implied) << name;
    EXPECT_EQ(logic::check_cover(t, f.cubes, f.canon, {}, f.implied, 0, 1, 2).mismatches, 0u) << name;
    EXPECT_GT(logic::check_cover(t, f.cubes, f.canon, {}, logic::Output::None, 0, 1, 2).mismatches, 0u) << name;
  }
  for (RegionPolicy regions : {RegionPolicy::Never, RegionPolicy::Always}) {
    for (int open = 0; open < 2; ++open) {  // built, then (Never only) mapped from the layout it wrote
      auto prober = open == 0 ? CoverProber::open(dir.path, CoverProber::kDefaultCopies, regions, 2)
                              : CoverProber::open(dir.path);
      ASSERT_TRUE(prober.ok()) << prober.error().message;
      for (const char* name : names) {
        const Table& t = table_of(name);
        const Encoding& enc = t.encoding();
        int bad = 0;
        for (uint64_t i = 0; i < enc.size() && bad < 10; i += (i % 7) + 1) {
          const Placement p = enc.decode(i);
          if (enc.is_legal(p)) bad += check_position(**prober, t, p, t.balance().pieces() < 4);
        }
        EXPECT_EQ(bad, 0) << name << " regions " << name_of(regions) << " open " << open;
      }
      if (regions == RegionPolicy::Always) break;
    }
  }
}

TEST(CoverProber, MinimizerCoversThroughFilesExhaustive) {
  auto passes = logic::parse_passes("canon,compact,expand,irredundant");
  ASSERT_TRUE(passes.ok()) << passes.error().message;
  const auto dir = std::filesystem::temp_directory_path() / ("egtmin-prober-test-" + std::to_string(::getpid()));
  for (const char* name : {"KQvK", "KRvK", "KPvK"}) {
    const Table& t = table_of(name);
    auto m = logic::minimize_table(t, *passes, {});
    ASSERT_TRUE(m.ok()) << m.error().message;
    store::CoverFile f{
        t.balance(), t.encoding().bits(),          m->scheme,          "canon,compact,expand,irredundant", m->cover,
        {},          store::CoverKind::Standalone, logic::Output::None};
    ASSERT_TRUE(store::save_cover(store::cover_path(dir, t.balance()), f).ok());
  }
  auto prober = CoverProber::open(dir);
  ASSERT_TRUE(prober.ok()) << prober.error().message;
  ASSERT_EQ((*prober)->balances().size(), 3u);
  for (const char* name : {"KQvK", "KRvK", "KPvK"}) {
    const Table& t = table_of(name);
    const Encoding& enc = t.encoding();
    int bad = 0;
    for (uint64_t i = 0; i < enc.size() && bad < 10; ++i) {
      Placement p = enc.decode(i);
      if (enc.is_legal(p)) bad += check_position(**prober, t, p);
    }
    EXPECT_EQ(bad, 0) << name;
  }
  // Covers are built in parallel, into the same indexes as one by one.
  auto serial = CoverProber::open(dir, CoverProber::kDefaultCopies, RegionPolicy::Always, 1);
  auto parallel = CoverProber::open(dir, CoverProber::kDefaultCopies, RegionPolicy::Always, 3);
  ASSERT_TRUE(serial.ok() && parallel.ok());
  ASSERT_EQ((*serial)->balances(), (*parallel)->balances());
  for (const Balance& b : (*serial)->balances()) {
    const LoadedCover *s = (*serial)->cover(b), *p = (*parallel)->cover(b);
    EXPECT_EQ(s->file.cubes, p->file.cubes) << b.name();
    const auto sw = s->region.hot_words(), pw = p->region.hot_words();
    EXPECT_TRUE(std::equal(sw.begin(), sw.end(), pw.begin(), pw.end())) << b.name();
  }
  // The first open stored each cover's probe layout; the next one reads it instead of building
  // (index_build_seconds 0, the hot words in the mapping), and answers the same, cubes included.
  for (const char* name : {"KQvK", "KRvK", "KPvK"})
    EXPECT_TRUE(std::filesystem::exists(layout_path(store::cover_path(dir, *Balance::parse(name))))) << name;
  {
    auto mapped = CoverProber::open(dir);
    ASSERT_TRUE(mapped.ok()) << mapped.error().message;
    for (const char* name : {"KQvK", "KRvK", "KPvK"}) {
      const Table& t = table_of(name);
      const LoadedCover* lc = (*mapped)->cover(t.balance());
      ASSERT_TRUE(lc && lc->from_layout()) << name;
      EXPECT_EQ(lc->index_build_seconds, 0.0);
      EXPECT_EQ(lc->cube_count(), (*prober)->cover(t.balance())->cube_count());
      // The layout gives back the front line's cubes, read from its rows: besides the hot words,
      // a few hundred bytes of fields (the cubes themselves are not stored again).
      const auto built_front = (*prober)->cover(t.balance())->index.front_cubes(), front = lc->index.front_cubes();
      EXPECT_FALSE(front.empty()) << name;
      EXPECT_TRUE(std::equal(front.begin(), front.end(), built_front.begin(), built_front.end())) << name;
      const size_t held = sizeof(uint64_t) * (lc->index.hot_words().size() + lc->region.hot_words().size());
      EXPECT_LT(std::filesystem::file_size(layout_path(store::cover_path(dir, t.balance()))), held + 2048) << name;
      const Encoding& enc = t.encoding();
      int bad = 0;
      for (uint64_t i = 0; i < enc.size() && bad < 10; ++i) {
        Placement p = enc.decode(i);
        if (enc.is_legal(p)) bad += check_position(**mapped, t, p, i % 16 == 0);
      }
      EXPECT_EQ(bad, 0) << name;
      auto probe = (*mapped)->probe(enc.position(enc.decode(enc.size() / 2 + 100)), Method::Indexed);
      if (probe.ok()) {
        EXPECT_NE(probe->cube, 0u) << name << ": the cube that answered";
      }
    }
  }
  // A layout that is not its cover's (another cover's, damaged, truncated, another version) is
  // not used: the cover is indexed again, the layout rewritten.
  {
    const auto krk = layout_path(store::cover_path(dir, *Balance::parse("KRvK")));
    const auto kqk = layout_path(store::cover_path(dir, *Balance::parse("KQvK")));
    const auto kpk = layout_path(store::cover_path(dir, *Balance::parse("KPvK")));
    auto krk_bytes = read_file(krk), kpk_bytes = read_file(kpk);
    ASSERT_TRUE(krk_bytes.ok() && kpk_bytes.ok());
    std::vector<uint8_t> flipped = *krk_bytes, truncated = *kpk_bytes, version = *kpk_bytes;
    flipped[flipped.size() - 9] ^= 0x10;
    truncated.resize(truncated.size() - 100);
    version[8] = 99;
    std::filesystem::copy_file(krk, kqk, std::filesystem::copy_options::overwrite_existing);  // KRvK's for KQvK
    ASSERT_TRUE(write_file_atomically(krk, flipped).ok());
    ASSERT_TRUE(write_file_atomically(kpk, truncated).ok());
    for (const auto& [path, why] : {std::pair{kqk, "made from another cover file"}, std::pair{krk, "checksum mismatch"},
                                    std::pair{kpk, "truncated"}}) {
      auto id = cover_identity(path.parent_path() / (path.stem().string() + ".egtc"));
      ASSERT_TRUE(id.ok());
      auto opened = open_layout(path, *id, {});
      ASSERT_FALSE(opened.ok()) << path;
      EXPECT_NE(opened.error().message.find(why), std::string::npos) << opened.error().message;
    }
    ASSERT_TRUE(write_file_atomically(kpk, version).ok());
    auto id = cover_identity(store::cover_path(dir, *Balance::parse("KPvK")));
    auto opened = open_layout(kpk, *id, {});
    ASSERT_FALSE(opened.ok());
    EXPECT_NE(opened.error().message.find("layout version 99"), std::string::npos) << opened.error().message;

    auto rebuilt = CoverProber::open(dir);
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.error().message;
    for (const char* name : {"KQvK", "KRvK", "KPvK"}) {
      const Table& t = table_of(name);
      EXPECT_FALSE((*rebuilt)->cover(t.balance())->from_layout()) << name;
      int bad = 0;
      for (uint64_t i = 0; i < t.encoding().size() && bad < 10; i += 7) {
        Placement p = t.encoding().decode(i);
        if (t.encoding().is_legal(p)) bad += check_position(**rebuilt, t, p, false);
      }
      EXPECT_EQ(bad, 0) << name;
    }
    auto again = CoverProber::open(dir);  // the rewritten layouts are used
    ASSERT_TRUE(again.ok());
    for (const char* name : {"KQvK", "KRvK", "KPvK"})
      EXPECT_TRUE((*again)->cover(*Balance::parse(name))->from_layout()) << name;
  }
  // A bad file fails the whole load, named, whichever worker read it.
  {
    std::ofstream bad(store::cover_path(dir, *Balance::parse("KNvK")), std::ios::binary);
    bad << "not a cover file";
  }
  for (int threads : {1, 2}) {
    auto broken = CoverProber::open(dir, CoverProber::kDefaultCopies, RegionPolicy::Auto, threads);
    ASSERT_FALSE(broken.ok());
    EXPECT_NE(broken.error().message.find("KNvK.egtc"), std::string::npos) << broken.error().message;
  }
  std::filesystem::remove_all(dir);
}

// A probe layout probes on its own: with its cover file gone, the prober opens the layout alone
// (its checksum the only check) and answers every legal position as the cover did; the linear
// probe, which scans the cover's cubes, refuses it by name, and so do settings the layout does
// not hold. A damaged or misnamed layout alone is an error naming it, never a wrong answer.
TEST(CoverProber, LayoutsAloneProbeWithoutTheirCovers) {
  auto passes = logic::parse_passes("canon,compact,expand,irredundant");
  ASSERT_TRUE(passes.ok());
  test::TempDir dir("prober-layouts-alone");
  for (const char* name : {"KQvK", "KRvK", "KPvK"}) {
    const Table& t = table_of(name);
    auto m = logic::minimize_table(t, *passes, {});
    ASSERT_TRUE(m.ok()) << m.error().message;
    store::CoverFile f{t.balance(), t.encoding().bits(), m->scheme, "canon,compact,expand,irredundant", m->cover, {}};
    const auto cover = store::cover_path(dir.path, t.balance());
    ASSERT_TRUE(store::save_cover(cover, f).ok());
    ASSERT_TRUE(make_layout(cover).ok()) << name;
    if (std::string(name) != "KQvK") std::filesystem::remove(cover);  // KQvK keeps its cover
  }
  EXPECT_FALSE(probeable(store::cover_path(dir.path, *Balance::parse("KNvK"))));
  EXPECT_TRUE(probeable(store::cover_path(dir.path, *Balance::parse("KRvK"))));
  auto prober = CoverProber::open(dir.path);
  ASSERT_TRUE(prober.ok()) << prober.error().message;
  ASSERT_EQ((*prober)->balances().size(), 3u);
  EXPECT_EQ((*prober)->cover_without_cubes(), std::optional<Balance>(*Balance::parse("KPvK")));
  for (const char* name : {"KQvK", "KRvK", "KPvK"}) {
    const Table& t = table_of(name);
    const LoadedCover* lc = (*prober)->cover(t.balance());
    ASSERT_TRUE(lc && lc->from_layout()) << name;
    EXPECT_EQ(lc->cubes_on_disk(), std::string(name) == "KQvK") << name;
    EXPECT_GT((*prober)->resident_bytes(t.balance()), lc->layout.size()) << name;
    const Encoding& enc = t.encoding();
    int bad = 0;
    for (uint64_t i = 0; i < enc.size() && bad < 10; ++i) {
      Placement p = enc.decode(i);
      if (enc.is_legal(p)) bad += check_position(**prober, t, p, false);
    }
    EXPECT_EQ(bad, 0) << name;
  }
  const Position krk = *Position::from_fen("8/8/8/3k4/8/8/8/R3K3 w - - 0 1");
  auto linear = (*prober)->probe(krk, Method::Linear);
  ASSERT_FALSE(linear.ok());
  EXPECT_NE(linear.error().message.find("KRvK.egtc is not there"), std::string::npos) << linear.error().message;
  auto indexed = (*prober)->probe(krk, Method::Indexed);
  ASSERT_TRUE(indexed.ok()) << indexed.error().message;
  EXPECT_EQ(indexed->wdl, Wdl::Win);
  // The front line names its cubes; past it, a layout alone has no cubes to scan for a name.
  EXPECT_EQ(indexed->naming == CubeNaming::Named, indexed->cube != 0);
  // The layout holds the default index only: other settings need the cover.
  auto other = CoverProber::open(dir.path, 4.0);
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().message.find("only its probe layout"), std::string::npos) << other.error().message;
  // A damaged layout alone, or one named for another balance, fails the open by name.
  const auto krk_layout = layout_path(store::cover_path(dir.path, *Balance::parse("KRvK")));
  auto bytes = read_file(krk_layout);
  ASSERT_TRUE(bytes.ok());
  std::vector<uint8_t> flipped = *bytes;
  flipped[flipped.size() - 9] ^= 0x10;
  ASSERT_TRUE(write_file_atomically(krk_layout, flipped).ok());
  auto damaged = CoverProber::open(dir.path);
  ASSERT_FALSE(damaged.ok());
  EXPECT_NE(damaged.error().message.find("KRvK.egtl"), std::string::npos) << damaged.error().message;
  EXPECT_NE(damaged.error().message.find("checksum mismatch"), std::string::npos) << damaged.error().message;
  ASSERT_TRUE(write_file_atomically(krk_layout, *bytes).ok());
  std::filesystem::rename(krk_layout, layout_path(store::cover_path(dir.path, *Balance::parse("KBvK"))));
  auto misnamed = CoverProber::open(dir.path);
  ASSERT_FALSE(misnamed.ok());
  EXPECT_NE(misnamed.error().message.find("the layout of KRvK, not of KBvK"), std::string::npos)
      << misnamed.error().message;
}

// A region index in zstd frames (RegionCubes::Framed: its directory and its cubes, each region's
// sorted) answers every index as the plain one does, through a layout parsed from bytes and
// through a layout file probed alone; a frame damaged behind a fixed checksum, damaged counts,
// unknown flags and a version-15 framed layout (its directory outside the frames) are refused by
// name.
TEST(CoverProber, FramedRegionCubesAnswerAsThePlainOnes) {
  for (const char* name : {"KRvK", "KRvKN"}) {
    const Table& t = table_of(name);
    auto lc =
        CoverProber::build(test::trie_cover(t, CanonScheme::Full), CoverProber::kDefaultCopies, RegionPolicy::Always);
    ASSERT_TRUE(lc.ok()) << lc.error().message;
    ASSERT_TRUE((*lc)->region.built()) << name;
    const std::vector<uint8_t> plain = serialize_layout(**lc, {});
    // Every framing answers alike (the directory blocks' frames differ); the checks of damage
    // below use the fastest.
    for (const Framing framing : RegionFrames::kFramings) {
      const uint32_t blocks = framing.blocks_a_frame;
      auto other = parse_layout(serialize_layout(**lc, {}, RegionCubes::Framed, framing), {}, "framed: ");
      ASSERT_TRUE(other.ok()) << other.error().message;
      ASSERT_EQ((*other)->region.framed(), true);
      const Encoding& enc = t.encoding();
      uint64_t differ = 0;
      for (uint64_t i = 0; i < enc.size(); i += 3) differ += (*other)->region.output(i) != (*lc)->region.output(i);
      EXPECT_EQ(differ, 0u) << name << " " << blocks;
    }
    const std::vector<uint8_t> framed = serialize_layout(**lc, {}, RegionCubes::Framed);
    uint32_t flags = 0;
    std::memcpy(&flags, framed.data() + 12, sizeof flags);
    EXPECT_EQ(flags, kLayoutFramedRegions) << name;
    std::memcpy(&flags, plain.data() + 12, sizeof flags);
    EXPECT_EQ(flags, 0u) << name;
    auto from_plain = parse_layout(plain, {}, "plain: ");
    auto from_framed = parse_layout(framed, {}, "framed: ");
    ASSERT_TRUE(from_plain.ok()) << from_plain.error().message;
    ASSERT_TRUE(from_framed.ok()) << from_framed.error().message;
    EXPECT_FALSE((*from_plain)->region.framed());
    ASSERT_TRUE((*from_framed)->region.framed());
    EXPECT_GT(layout_parts(**from_framed).regions, 0u);
    // Every index, in an order that moves between frames as random probes do.
    const Encoding& enc = t.encoding();
    uint64_t differ = 0, answered = 0;
    for (uint64_t i = 0; i < enc.size(); ++i) {
      const uint64_t index = (i * 0x9E3779B97F4A7C15ull) & (enc.size() - 1);
      const logic::Output want = (*lc)->region.output(index);
      differ += (*from_plain)->region.output(index) != want || (*from_framed)->region.output(index) != want;
      answered += want != logic::Output::None;
    }
    EXPECT_EQ(differ, 0u) << name;
    EXPECT_GT(answered, 0u) << name;

    // A byte of the last frame flipped, the payload's checksum made right again: attaching decodes
    // every frame, so the damage is found on opening, not by a probe.
    std::vector<uint8_t> damaged = framed;
    damaged[damaged.size() - 9] ^= 0x5a;
    auto fix_checksum = [](std::vector<uint8_t>& bytes) {
      const uint64_t crc = lzma_crc64(bytes.data() + kLayoutHeaderBytes, bytes.size() - kLayoutHeaderBytes, 0);
      std::memcpy(bytes.data() + 40, &crc, sizeof crc);
    };
    fix_checksum(damaged);
    auto refused = parse_layout(damaged, {}, "damaged: ");
    // The last bytes may be padding, which no frame reads; then the layout still answers.
    if (!refused.ok()) {
      EXPECT_NE(refused.error().message.find("region frames"), std::string::npos) << name;
    }
    // The frames' count: its words no longer add up.
    const std::vector<uint64_t> frame_words = (*lc)->region.framed_words(RegionFrames::kFramings[0]);
    const size_t count_at = framed.size() - frame_words.size() * 8;
    damaged = framed;
    damaged[count_at] ^= 0x01;
    fix_checksum(damaged);
    refused = parse_layout(damaged, {}, "damaged: ");
    ASSERT_FALSE(refused.ok()) << name;
    EXPECT_NE(refused.error().message.find("region frames"), std::string::npos) << refused.error().message;
    // Flags this egtmin does not know.
    damaged = framed;
    damaged[12] |= 0x02;
    refused = parse_layout(damaged, {}, "flags: ");
    ASSERT_FALSE(refused.ok()) << name;
    EXPECT_NE(refused.error().message.find("layout flags"), std::string::npos) << refused.error().message;
    // A version-15 framed layout held its directory outside the frames: not read, made again.
    damaged = framed;
    const uint32_t v15 = kUnreadFramedLayoutVersion;
    std::memcpy(damaged.data() + 8, &v15, sizeof v15);
    refused = parse_layout(damaged, {}, "v15: ");
    ASSERT_FALSE(refused.ok()) << name;
    EXPECT_NE(refused.error().message.find("reads from the frames"), std::string::npos) << refused.error().message;
  }

  // A framed layout file alone, opened and probed on every legal position of KRvK.
  test::TempDir dir("prober-framed-layout");
  const Table& t = table_of("KRvK");
  const auto cover = store::cover_path(dir.path, t.balance());
  auto lc =
      CoverProber::build(test::trie_cover(t, CanonScheme::Full), CoverProber::kDefaultCopies, RegionPolicy::Always);
  ASSERT_TRUE(lc.ok()) << lc.error().message;
  ASSERT_TRUE(save_layout(layout_path(cover), **lc, {}, RegionCubes::Framed).ok());
  EXPECT_EQ(layout_cubes(layout_path(cover)), RegionCubes::Framed);
  auto prober = CoverProber::open(dir.path);
  ASSERT_TRUE(prober.ok()) << prober.error().message;
  ASSERT_TRUE((*prober)->cover(t.balance()) && (*prober)->cover(t.balance())->region.framed());
  int bad = 0;
  for (uint64_t i = 0; i < t.encoding().size() && bad < 10; ++i) {
    Placement p = t.encoding().decode(i);
    if (t.encoding().is_legal(p)) bad += check_position(**prober, t, p, false);
  }
  EXPECT_EQ(bad, 0);
}

// The 50-move rule's values through the whole chain: a KQvKR table with some wins made cursed and
// some losses blessed (no 3-4-piece balance has any, so they are planted), minimized, checked, saved
// and probed by both methods and the hot path.
TEST(CoverProber, CursedWinsAndBlessedLossesSurviveMinimizeAndProbe) {
  Table t = table_of("KQvKR");
  uint64_t planted = 0;
  for (uint64_t s = 0; s < t.slots(); s += 37) {
    const Wdl v = t.at_slot(s);
    if (v == Wdl::Win || v == Wdl::Loss) {
      t.set_slot(s, v == Wdl::Win ? Wdl::CursedWin : Wdl::BlessedLoss);
      ++planted;
    }
  }
  ASSERT_GT(planted, 1000u);
  auto passes = logic::parse_passes("canon,compact,expand,irredundant");
  ASSERT_TRUE(passes.ok());
  auto m = logic::minimize_table(t, *passes, {});
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_FALSE(m->rule_draws.empty());
  EXPECT_TRUE(std::is_sorted(m->rule_draws.begin(), m->rule_draws.end()));
  auto checked = logic::check_cover(t, m->cover, m->scheme, m->rule_draws, logic::Output::None, 0, 1, 2);
  EXPECT_EQ(checked.mismatches, 0u) << checked.first_mismatch;
  // Without the list, every planted value is a mismatch: the check sees all five values.
  EXPECT_GT(logic::check_cover(t, m->cover, m->scheme, {}, logic::Output::None, 0, 1, 2).mismatches, 0u);

  store::CoverFile file{t.balance(), t.encoding().bits(), m->scheme, "canon,compact,expand,irredundant",
                        m->cover,    m->rule_draws};
  auto back = store::parse_cover(store::serialize_cover(file), "KQvKR.egtc");
  ASSERT_TRUE(back.ok()) << back.error().message;
  CoverProber prober;
  ASSERT_TRUE(prober.add(*back).ok());
  const Encoding& enc = t.encoding();
  int bad = 0, cursed = 0, blessed = 0;
  for (uint64_t idx = 0; idx < enc.size() && bad < 3; idx += 7) {
    const Placement p = enc.decode(idx);
    if (!enc.is_legal(p)) continue;
    const Wdl v = t.value(p);
    cursed += v == Wdl::CursedWin;
    blessed += v == Wdl::BlessedLoss;
    bad += check_position(prober, t, p);
  }
  EXPECT_EQ(bad, 0);
  EXPECT_GT(cursed, 100);
  EXPECT_GT(blessed, 100);

  // Its layout alone (the list Rice-coded, read in place in the mapping) answers the same, and
  // holds the list in fewer bytes than the cover file's 32-bit indices would take.
  test::TempDir dir("prober-rule-layout");
  const auto cover_file = store::cover_path(dir.path, t.balance());
  ASSERT_TRUE(store::save_cover(cover_file, file).ok());
  ASSERT_TRUE(make_layout(cover_file).ok());
  std::filesystem::remove(cover_file);
  auto alone = CoverProber::open(dir.path);
  ASSERT_TRUE(alone.ok()) << alone.error().message;
  const LoadedCover* lc = (*alone)->cover(t.balance());
  ASSERT_TRUE(lc && lc->from_layout());
  EXPECT_EQ(lc->rules.size(), m->rule_draws.size());
  EXPECT_LT(lc->rules.words().size_bytes(), m->rule_draws.size() * sizeof(uint32_t) / 2);
  bad = 0;
  for (uint64_t idx = 0; idx < enc.size() && bad < 3; idx += 29) {
    const Placement p = enc.decode(idx);
    if (enc.is_legal(p)) bad += check_position(**alone, t, p, false);
  }
  EXPECT_EQ(bad, 0);

  // The same layout stamped with the oldest version still read is read, and is made again (its
  // draws might take fewer bytes as rows).
  const auto layout = layout_path(cover_file);
  ASSERT_TRUE(store::save_cover(cover_file, file).ok());
  auto id = cover_identity(cover_file);
  ASSERT_TRUE(id.ok());
  EXPECT_TRUE(layout_is_current(layout, *id));
  auto bytes = read_file(layout);
  ASSERT_TRUE(bytes.ok());
  std::vector<uint8_t> older = *bytes;
  older[8] = uint8_t(kOldestLayoutVersion);
  ASSERT_TRUE(write_file_atomically(layout, older).ok());
  EXPECT_TRUE(open_layout(layout, *id, {}).ok());
  EXPECT_FALSE(layout_is_current(layout, *id));
}

// A five-piece cover small enough for one leaf gets a leaf of input rows, which answers as the
// cubes do; its layout stamped with the version before input rows is read and made again, where a
// smaller balance's layout of that version, holding neither input rows nor the rule's draws, is
// current; one stamped with the version whose input rows had another directory is refused. The cover is made up (wins
// in random cubes of a few literals): no five-piece table.
TEST(CoverProber, AFivePieceLeafHoldsInputRowsAndAnOlderOneIsMadeAgain) {
  test::TempDir dir("prober-input-rows");
  std::mt19937_64 rng(17);
  auto made_up = [&](const char* name, size_t count) {
    store::CoverFile f;
    f.balance = *Balance::parse(name);
    f.inputs = inputs_for(f.balance.pieces());
    f.canon = CanonScheme::None;
    f.passes = "test";
    f.implied = logic::Output::Draw;
    for (size_t n = 0; n < count; ++n) {
      logic::CubeWord c = logic::universe(logic::Output::Win);
      for (int k = 0; k < 8; ++k) {
        const int input = int(rng() % uint64_t(f.inputs));
        c &= ~(logic::CubeWord{rng() & 1 ? 2u : 1u} << logic::pair_shift(input));                 // pin it to a value
        if (!(c & logic::pair_mask(input))) c |= logic::CubeWord{1} << logic::pair_shift(input);  // not empty
      }
      f.cubes.push_back(c);
    }
    return f;
  };
  for (const auto& [name, count] : {std::pair{"KQQBvK", size_t{3000}}, std::pair{"KQvKR", size_t{300}}}) {
    const store::CoverFile f = made_up(name, count);
    const auto cover_file = store::cover_path(dir.path, f.balance);
    ASSERT_TRUE(store::save_cover(cover_file, f).ok());
    ASSERT_TRUE(make_layout(cover_file).ok()) << name;
    auto id = cover_identity(cover_file);
    ASSERT_TRUE(id.ok());
    const auto layout = layout_path(cover_file);
    auto lc = open_layout(layout, *id, cover_file);
    ASSERT_TRUE(lc.ok()) << lc.error().message;
    const CubeIndex::Hot hot = (*lc)->index.hot();
    const bool five = f.balance.pieces() == 5;
    if (five) {
      ASSERT_FALSE((*lc)->region.built());
      ASSERT_TRUE(CubeIndex::is_leaf(hot.root));
      EXPECT_EQ(CubeIndex::leaf_rows(hot.root), LeafRows::Inputs);
      int differ = 0;
      for (int n = 0; n < 200000 && differ < 3; ++n) {
        const uint64_t index = rng() & ((uint64_t{1} << f.inputs) - 1);
        const logic::CubeWord m = logic::minterm(index, f.inputs);
        const bool held =
            std::any_of(f.cubes.begin(), f.cubes.end(), [&](logic::CubeWord c) { return logic::contains(c, m); });
        if (CubeIndex::find_output_fixed<5>(hot, index) != (held ? logic::Output::Win : logic::Output::None))
          ++differ, ADD_FAILURE() << "index " << index;
      }
      EXPECT_EQ(differ, 0);
    }
    EXPECT_TRUE(layout_is_current(layout, *id)) << name;
    auto bytes = read_file(layout);
    ASSERT_TRUE(bytes.ok());
    // Stamped with version 13, whose leaves of input rows had another directory: refused, saying
    // so, and made again; with 12, which had none: read, and made again at five pieces only.
    for (const uint32_t version : {kUnreadLayoutVersion, kUnreadLayoutVersion - 1}) {
      std::vector<uint8_t> older = *bytes;
      older[8] = uint8_t(version);
      ASSERT_TRUE(write_file_atomically(layout, older).ok());
      auto again = open_layout(layout, *id, {});
      if (version == kUnreadLayoutVersion) {
        ASSERT_FALSE(again.ok()) << name;
        EXPECT_NE(again.error().message.find("version 13"), std::string::npos) << again.error().message;
        EXPECT_FALSE(layout_is_current(layout, *id)) << name;
      } else {
        EXPECT_TRUE(again.ok()) << name;
        EXPECT_EQ(layout_is_current(layout, *id), !five) << name;
      }
    }
  }
}

// Capture-resolved covers: the values a promotion or capture reaches are left to the probe's
// search, which makes every position exact again (hot path and probe()); the same cover read as a
// standalone one, without the search, is caught by check_probe (and so is a minimizer that lets a
// win cube hold an "at most a draw" position: the search cannot lower a stored value).
TEST(CoverProber, CaptureResolvedCoverIsExactWithItsSearchAndCaughtWithout) {
  test::TempDir dir("prober-capture");
  run::MinimizeRequest r = test::kpk_closure_request(dir.path);
  auto made = run::run_minimize(r);
  ASSERT_TRUE(made) << made.error().message;
  ASSERT_TRUE(made->ok());
  const Balance kpk = *Balance::parse("KPvK");
  EXPECT_GT(made->balances.back().capture_resolved, 0u);  // promotions that win
  EXPECT_GT(made->balances.back().capture_capped, 0u);    // draws a capture of the pawn reaches
  const auto path = store::cover_path(dir.path, kpk, store::CoverKind::CaptureResolved);
  ASSERT_TRUE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(store::cover_path(dir.path, kpk)));

  TableStore tables(dir.path);
  const Table& table = **tables.get(kpk);
  auto prober = CoverProber::open(dir.path, CoverProber::kDefaultCopies, RegionPolicy::Auto, 2,
                                  CoverProber::LayoutPolicy::Use, store::CoverKind::CaptureResolved);
  ASSERT_TRUE(prober) << prober.error().message;
  const auto exact = check_probe(table, **prober, 2);
  EXPECT_GT(exact.positions, 300000u);
  EXPECT_EQ(exact.mismatches, 0u) << exact.first_mismatch;
  // probe() takes the same search: a pawn about to promote with the king far away.
  auto pos = Position::from_fen("K1k5/4P3/8/8/8/8/8/8 w - - 0 1");
  auto v = (*prober)->probe(*pos, Method::Indexed);
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(v->wdl, Wdl::Win);

  // Without the cover of a balance its promotions reach, the search could not be exact: refused.
  // (Its layout alone would still probe: both go.)
  const auto kqk = store::cover_path(dir.path, *Balance::parse("KQvK"), store::CoverKind::CaptureResolved);
  std::filesystem::remove(kqk);
  std::filesystem::remove(layout_path(kqk));
  auto short_one = CoverProber::open(dir.path, CoverProber::kDefaultCopies, RegionPolicy::Auto, 2,
                                     CoverProber::LayoutPolicy::Use, store::CoverKind::CaptureResolved);
  ASSERT_FALSE(short_one);
  EXPECT_NE(short_one.error().message.find("missing: KQvK"), std::string::npos) << short_one.error().message;

  // The same cubes without the search: the positions left open come out wrong.
  auto cover = store::load_cover(path, &kpk);
  ASSERT_TRUE(cover);
  cover->kind = store::CoverKind::Standalone;
  CoverProber plain;
  ASSERT_TRUE(plain.add(*cover));
  const auto broken = check_probe(table, plain, 2);
  EXPECT_GT(broken.mismatches, 0u);
}

// Proving or probing one balance loads its cover and those its capture search reaches, and no
// others: a capture-resolved cover elsewhere that lacks a successor refuses a whole directory
// (open) but not a balance that never reaches it.
TEST(CoverProber, AddReachingLoadsWhatTheSearchReachesAndNoMore) {
  test::TempDir dir("prober-reaching");
  run::MinimizeRequest r = test::kpk_closure_request(dir.path);
  auto made = run::run_minimize(r);
  ASSERT_TRUE(made) << made.error().message;
  ASSERT_TRUE(made->ok());
  const auto kqk = store::cover_path(dir.path, *Balance::parse("KQvK"), store::CoverKind::CaptureResolved);
  std::filesystem::remove(kqk);
  std::filesystem::remove(layout_path(kqk));
  const store::CoverKind kinds[] = {store::CoverKind::CaptureResolved, store::CoverKind::Standalone};

  CoverProber rook;
  ASSERT_TRUE(rook.add_reaching(dir.path, *Balance::parse("KRvK"), kinds));
  std::vector<std::string> names;
  for (const Balance& b : rook.balances()) names.push_back(b.name());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"KRvK", "KvK"}));  // the rook's capture reaches KvK
  TableStore tables(dir.path);
  const auto exact = check_probe(**tables.get(*Balance::parse("KRvK")), rook, 2);
  EXPECT_GT(exact.positions, 0u);
  EXPECT_EQ(exact.mismatches, 0u) << exact.first_mismatch;
  // The proof through the capture search (check-cr) takes the same covers.
  run::ProofRequest proof;
  proof.balances = {*Balance::parse("KRvK")};
  proof.data_dir = dir.path;
  proof.threads = 2;
  proof.self_check = false;
  proof.check_probe = true;
  proof.kind = store::CoverKind::CaptureResolved;
  auto proven = run::run_proof(proof);
  ASSERT_TRUE(proven) << proven.error().message;
  ASSERT_EQ(proven->size(), 1u);
  EXPECT_TRUE(proven->front().ok()) << proven->front().error;
  ASSERT_TRUE(proven->front().probe);
  EXPECT_EQ(proven->front().probe->positions, exact.positions);

  // KPvK's promotions reach KQvK, which has no cover: refused, naming it.
  CoverProber pawn;
  const Status s = pawn.add_reaching(dir.path, *Balance::parse("KPvK"), kinds);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("missing: KQvK"), std::string::npos) << s.error().message;
  auto whole = CoverProber::open(dir.path, CoverProber::kDefaultCopies, RegionPolicy::Auto, 2,
                                 CoverProber::LayoutPolicy::Use, store::CoverKind::CaptureResolved);
  EXPECT_FALSE(whole);

  // With the standalone kind alone, no capture search and nothing beyond the balance.
  const store::CoverKind standalone[] = {store::CoverKind::Standalone};
  CoverProber plain;
  ASSERT_TRUE(plain.add_reaching(dir.path, *Balance::parse("KPvK"), standalone));
  EXPECT_TRUE(plain.balances().empty());  // only capture-resolved covers were made
}

// Opening a directory whose layouts are missing builds each index and writes its layout: one
// after another on every core while they are fewer than the cores, side by side otherwise. Both
// write the layouts minimize wrote, byte for byte, and probe exactly.
TEST(CoverProber, MissingLayoutsAreBuiltAgainTheSameOnOneCoreOrOnMany) {
  test::TempDir dir("prober-missing-layouts");
  auto made = run::run_minimize(test::kpk_closure_request(dir.path));
  ASSERT_TRUE(made) << made.error().message;
  ASSERT_TRUE(made->ok());
  std::map<std::string, std::vector<uint8_t>> written;
  for (const char* name : {"KvK", "KQvK", "KRvK", "KBvK", "KNvK", "KPvK"}) {
    const auto layout =
        layout_path(store::cover_path(dir.path, *Balance::parse(name), store::CoverKind::CaptureResolved));
    auto bytes = read_file(layout);
    ASSERT_TRUE(bytes) << name << ": " << bytes.error().message;
    written[name] = std::move(*bytes);
  }
  const Balance kpk = *Balance::parse("KPvK");
  TableStore tables(dir.path);
  const Table& table = **tables.get(kpk);
  // One missing on two cores; then all six, more than the cores.
  for (const std::vector<std::string>& gone :
       {std::vector<std::string>{"KPvK"}, std::vector<std::string>{"KvK", "KQvK", "KRvK", "KBvK", "KNvK", "KPvK"}}) {
    for (const std::string& name : gone)
      std::filesystem::remove(
          layout_path(store::cover_path(dir.path, *Balance::parse(name), store::CoverKind::CaptureResolved)));
    auto prober = CoverProber::open(dir.path, CoverProber::kDefaultCopies, RegionPolicy::Auto, 2,
                                    CoverProber::LayoutPolicy::Use, store::CoverKind::CaptureResolved);
    ASSERT_TRUE(prober) << prober.error().message;
    for (const std::string& name : gone) {
      const Balance b = *Balance::parse(name);
      ASSERT_TRUE((*prober)->cover(b)) << name;
      EXPECT_FALSE((*prober)->cover(b)->from_layout()) << name;  // built, not mapped
      auto bytes = read_file(layout_path(store::cover_path(dir.path, b, store::CoverKind::CaptureResolved)));
      ASSERT_TRUE(bytes) << name << ": " << bytes.error().message;
      EXPECT_EQ(*bytes, written[name]) << name << " with " << gone.size() << " missing";
    }
    const auto exact = check_probe(table, **prober, 2);
    EXPECT_GT(exact.positions, 300000u);
    EXPECT_EQ(exact.mismatches, 0u) << exact.first_mismatch;
  }
}

// What a layout's regions leave to the capture search is the same whether the values it reaches
// are looked up in the successors' tables (when the data directory holds them all) or probed in
// their covers, and nothing when neither is there.
TEST(CoverProber, CaptureFreedomFromTablesEqualsFromCovers) {
  test::TempDir dir("prober-freedom");
  auto made = run::run_minimize(test::kpk_closure_request(dir.path));
  ASSERT_TRUE(made) << made.error().message;
  ASSERT_TRUE(made->ok());
  const Encoding enc(*Balance::parse("KPvK"));
  const CoverCanon canon(enc, CanonScheme::Full);
  const auto from_tables = capture_freedom(dir.path, enc, canon, 2);
  ASSERT_TRUE(from_tables);
  EXPECT_TRUE(std::ranges::any_of(from_tables->capture_wins, [](uint64_t w) { return w != 0; }));
  EXPECT_TRUE(std::ranges::any_of(from_tables->capture_draws, [](uint64_t w) { return w != 0; }));

  // One table gone: every value comes from the covers.
  ASSERT_TRUE(std::filesystem::remove(TableStore(dir.path).path_for(*Balance::parse("KQvK"))));
  const auto from_covers = capture_freedom(dir.path, enc, canon, 2);
  ASSERT_TRUE(from_covers);
  EXPECT_EQ(from_covers->capture_wins, from_tables->capture_wins);
  EXPECT_EQ(from_covers->capture_draws, from_tables->capture_draws);

  // Its cover gone too: the regions are planned without the search's freedom.
  const auto kqk = store::cover_path(dir.path, *Balance::parse("KQvK"), store::CoverKind::CaptureResolved);
  std::filesystem::remove(kqk);
  std::filesystem::remove(layout_path(kqk));
  EXPECT_FALSE(capture_freedom(dir.path, enc, canon, 2));
}

// Both probe paths agree with the table on every canonical position of KPvK, for capture-resolved
// covers that leave an output implied ("at most a draw" positions) and for ones storing every
// output (a win a capture reaches then has no cube at all, so probe() must take the search's
// value where no cube answers, as the hot path does).
TEST(CoverProber, CaptureResolvedProbePathsAgreeWithAndWithoutAnImpliedOutput) {
  for (run::ImpliedOutput implied : {run::ImpliedOutput::MostCubes, run::ImpliedOutput::None}) {
    test::TempDir dir("prober-capture-paths");
    run::MinimizeRequest r = test::kpk_closure_request(dir.path);
    r.implied = implied;
    auto made = run::run_minimize(r);
    ASSERT_TRUE(made && made->ok());
    auto prober = CoverProber::open(dir.path, CoverProber::kDefaultCopies, RegionPolicy::Auto, 2,
                                    CoverProber::LayoutPolicy::Use, store::CoverKind::CaptureResolved);
    ASSERT_TRUE(prober) << prober.error().message;
    TableStore tables(dir.path);
    const Table& table = **tables.get(*Balance::parse("KPvK"));
    uint64_t probed = 0;
    for (uint64_t slot = 0; slot < table.slots(); ++slot) {
      const Wdl white = table.at_slot(slot);
      if (white == Wdl::Illegal) continue;
      const Position pos = table.encoding().position(table.symmetry().from_slot(slot));
      const Wdl want = pos.side_to_move() == White ? white : negate(white);
      for (Method m : {Method::Indexed, Method::Linear}) {
        auto full = (*prober)->probe(pos, m, false);
        ASSERT_TRUE(full) << pos.fen() << ": " << full.error().message;
        ASSERT_EQ(full->wdl, want) << pos.fen();
        ASSERT_EQ((*prober)->probe_wdl(pos, m), want) << pos.fen();
      }
      ++probed;
    }
    EXPECT_GT(probed, 50000u);
  }
}

// A capture-resolved layout whose regions leave the positions in check that no move answers with
// check to the evasion search (CheckEvasions::Searched, where the balance's table is beside it):
// both probe paths give every position of KRvKN its table's value, those in check included. Made
// again over a ceiling no form meets, it is framed and more of its regions leave them to the
// search, and it probes as exactly; under a ceiling its plain form meets, it is the layout made
// without a bound.
TEST(CoverProber, EvasionsLeftToTheSearchProbeExactly) {
  test::TempDir dir("prober-evasions");
  ASSERT_EQ(test::make_krkn_searching_evasions(dir.path), "");
  const Balance krkn = *Balance::parse("KRvKN");
  TableStore tables(dir.path);
  const Table& table = **tables.get(krkn);
  // Every legal position through the layout on disk; the regions that leave positions to the search.
  auto probe_all = [&]() -> size_t {
    auto prober = CoverProber::open(dir.path, CoverProber::kDefaultCopies, RegionPolicy::Auto, 2,
                                    CoverProber::LayoutPolicy::Use, store::CoverKind::CaptureResolved);
    EXPECT_TRUE(prober) << prober.error().message;
    if (!prober) return 0;
    uint64_t in_check = 0, region_wins_wrongly = 0, wrong = 0;
    for (uint64_t slot = 0; slot < table.slots() && wrong < 3; ++slot) {
      const Wdl white = table.at_slot(slot);
      if (white == Wdl::Illegal) continue;
      const Position pos = table.encoding().position(table.symmetry().from_slot(slot));
      const CoverProber::HotEntry* e = (*prober)->hot_entry(pos.material_key());
      if (!e || e->evasions != CheckEvasions::Searched) {
        ADD_FAILURE() << "no regions that leave positions to the evasion search";
        return 0;
      }
      const Wdl want = pos.side_to_move() == White ? white : negate(white);
      auto full = (*prober)->probe(pos, Method::Indexed, false);
      if (!full || full->wdl != want || (*prober)->probe_wdl(pos, Method::Indexed) != want)
        ++wrong, ADD_FAILURE() << pos.fen();
      if (!pos.in_check(pos.side_to_move())) continue;
      ++in_check;
      // Without the search first, a region's win would be taken as it stands.
      region_wins_wrongly += (*prober)->probe_standalone(pos, *e, Method::Indexed) == Wdl::Win && want != Wdl::Win;
    }
    EXPECT_EQ(wrong, 0u);
    EXPECT_GT(in_check, 1000u);
    EXPECT_GT(region_wins_wrongly, 0u) << "the regions answer every position in check as the table does";
    return (*prober)->cover(krkn)->region.searched_regions();
  };
  const auto cover = store::cover_path(dir.path, krkn, store::CoverKind::CaptureResolved);
  const auto layout = layout_path(cover);
  const size_t searched = probe_all();
  const auto plain_bytes = std::filesystem::file_size(layout);
  ASSERT_GT(searched, 0u);

  ASSERT_TRUE(make_layout(cover, 2, CheckEvasions::Searched, LayoutBytes{.target = 1, .ceiling = 1}));
  ASSERT_EQ(layout_cubes(layout), RegionCubes::Framed);
  const auto over_bytes = std::filesystem::file_size(layout);
  const size_t searched_over = probe_all();
  EXPECT_GT(searched_over, searched);
  EXPECT_LT(over_bytes, plain_bytes);

  ASSERT_TRUE(make_layout(cover, 2, CheckEvasions::Searched, LayoutBytes{.target = 1, .ceiling = plain_bytes}));
  EXPECT_EQ(layout_cubes(layout), RegionCubes::Plain);
  EXPECT_EQ(std::filesystem::file_size(layout), plain_bytes);
  EXPECT_EQ(probe_all(), searched);
}

// The probe benchmark times the capture-resolved covers beside the standalone ones, on the same
// positions, and checks them against Fathom like every other method.
// The registry is the one list of the probe methods: each id has its entry, in id order, with a
// name that parses back to it; the prober's two strategies are named by their methods'.
TEST(CoverProber, ProbeMethodRegistryNamesEveryIdOnce) {
  std::set<std::string_view> names;
  for (size_t i = 0; i < probe_methods().size(); ++i) {
    const ProbeMethodInfo& m = probe_methods()[i];
    EXPECT_EQ(size_t(m.id), i) << m.name;
    EXPECT_EQ(&probe_method(m.id), &m) << m.name;
    EXPECT_EQ(probe_method_name(m.id), m.name);
    EXPECT_TRUE(names.insert(m.name).second) << m.name;
    const ProbeMethodInfo* found = find_probe_method(m.name);
    ASSERT_NE(found, nullptr) << m.name;
    EXPECT_EQ(found->id, m.id) << m.name;
  }
  EXPECT_EQ(find_probe_method("nonesuch"), nullptr);
  EXPECT_EQ(anchor_method().id, ProbeMethodId::Fathom);
  EXPECT_EQ(method_name(Method::Linear), "linear");
  EXPECT_EQ(method_name(Method::Indexed), "indexed");
  for (Method m : {Method::Linear, Method::Indexed}) {
    auto parsed = parse_method(method_name(m));
    ASSERT_TRUE(parsed.ok()) << method_name(m);
    EXPECT_EQ(*parsed, m);
  }
  auto bad = parse_method("batched");  // a method of the registry, but not a strategy of the prober
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "unknown probe method 'batched' (linear or indexed)");
}

TEST(CoverProber, ProbeBenchTimesBothKindsOnTheSamePositions) {
  EGTMIN_REQUIRE_SYZYGY();
  test::TempDir dir("prober-bench-kinds");
  run::MinimizeRequest r = test::kpk_closure_request(dir.path);
  for (store::CoverKind kind : {store::CoverKind::Standalone, store::CoverKind::CaptureResolved}) {
    r.kind = kind;
    auto made = run::run_minimize(r);
    ASSERT_TRUE(made && made->ok());
  }
  auto open = [&](store::CoverKind kind) {
    return CoverProber::open(dir.path, CoverProber::kDefaultCopies, RegionPolicy::Auto, 2,
                             CoverProber::LayoutPolicy::Use, kind);
  };
  auto standalone = open(store::CoverKind::Standalone);
  auto resolved = open(store::CoverKind::CaptureResolved);
  ASSERT_TRUE(standalone && resolved);
  auto syzygy = Syzygy::open(test::syzygy_dir());
  ASSERT_TRUE(syzygy);
  bench::ProbeBenchOptions opts;
  opts.pieces = 3;
  opts.positions = 5000;
  opts.rounds = 2;
  auto both = bench::run_probe_bench(**standalone, **syzygy, opts, no_progress(), resolved->get());
  ASSERT_TRUE(both) << both.error().message;
  EXPECT_EQ(both->mismatches, 0u);
  std::vector<std::string> names;
  for (const auto& m : both->methods) names.emplace_back(probe_method_name(m.method));
  EXPECT_EQ(names, (std::vector<std::string>{"indexed", "batched", "linear", "capture-resolved", "fathom"}));
  for (const auto& m : both->methods) {
    EXPECT_EQ(m.positions, 5000u) << probe_method_name(m.method);
    EXPECT_EQ(m.round_batch_mean_ns.size(), 2u) << probe_method_name(m.method);
  }
  // Without the capture-resolved covers the method is left out.
  auto one = bench::run_probe_bench(**standalone, **syzygy, opts);
  ASSERT_TRUE(one);
  for (const auto& m : one->methods) EXPECT_NE(m.method, ProbeMethodId::CaptureResolved);
}

// A run against the tables (what a named balance without a Syzygy file gets): every position
// checked against its table (a table with its wins turned to losses is caught), Fathom not timed.
// (A second Syzygy directory would re-initialise Fathom's global state under the other tests.)
TEST(CoverProber, ProbeBenchChecksAgainstTablesWhereNoSyzygyFile) {
  EGTMIN_REQUIRE_SYZYGY();
  test::TempDir dir("prober-bench-tables");
  run::MinimizeRequest r;
  for (const char* b : {"KvK", "KQvK", "KRvK"}) r.balances.push_back(*Balance::parse(b));
  r.passes = logic::default_passes();
  r.data_dir = dir.path;
  auto made = run::run_minimize(r);
  ASSERT_TRUE(made && made->ok());
  auto prober = CoverProber::open(dir.path);
  ASSERT_TRUE(prober);
  auto syzygy = Syzygy::open(test::syzygy_dir());
  ASSERT_TRUE(syzygy) << syzygy.error().message;
  TableStore store(dir.path);
  const TableLookup tables = store.lookup();
  bench::ProbeBenchOptions opts;
  opts.pieces = 3;
  opts.positions = 3000;
  opts.balances = {*Balance::parse("KRvK")};
  opts.against_tables = true;
  auto run = bench::run_probe_bench(**prober, **syzygy, opts, no_progress(), nullptr, &tables);
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(run->checked_against, bench::CheckedAgainst::Tables);
  EXPECT_EQ(run->positions, 3000u);
  EXPECT_EQ(run->mismatches, 0u);
  std::vector<std::string> names;
  for (const auto& m : run->methods) names.emplace_back(probe_method_name(m.method));
  EXPECT_EQ(names, (std::vector<std::string>{"indexed", "batched", "linear"}));

  auto krvk = store.get(*Balance::parse("KRvK"));
  ASSERT_TRUE(krvk);
  Table wrong = **krvk;
  for (uint64_t s = 0; s < wrong.slots(); ++s)
    if (wrong.at_slot(s) == Wdl::Win) wrong.set_slot(s, Wdl::Loss);
  const TableLookup wrong_tables = [&](const Balance& b) { return b == wrong.balance() ? &wrong : tables(b); };
  auto caught = bench::run_probe_bench(**prober, **syzygy, opts, no_progress(), nullptr, &wrong_tables);
  ASSERT_TRUE(caught);
  EXPECT_GT(caught->mismatches, 0u);

  EXPECT_FALSE(bench::run_probe_bench(**prober, **syzygy, opts));  // no tables given
  // Otherwise a balance with its file keeps Fathom as the anchor.
  opts.against_tables = false;
  opts.balances = {*Balance::parse("KQvK")};
  auto fathom = bench::run_probe_bench(**prober, **syzygy, opts, no_progress(), nullptr, &tables);
  ASSERT_TRUE(fathom);
  EXPECT_EQ(fathom->checked_against, bench::CheckedAgainst::AnchorMethod);
  EXPECT_EQ(fathom->methods.back().method, ProbeMethodId::Fathom);
}

}  // namespace
}  // namespace egtmin::probe
