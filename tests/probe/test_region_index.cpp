// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <span>
#include <string>

#include "probe/capture_freedom.hpp"
#include "probe/cover_builder.hpp"
#include "probe/region_index.hpp"
#include "support/env.hpp"
#include "table/successor_tables.hpp"

namespace egtmin::probe {
namespace {

// The legal representatives of a 4-piece table, but those the front line answers, that the
// index answers with a value other than the table's (each reported; it stops after five).
int wrong_answers(const RegionIndex& idx, const Table& t, const CoverCanon& canon,
                  std::span<const logic::CubeWord> front = {}) {
  const Encoding& enc = t.encoding();
  int bad = 0;
  for (uint64_t i = 0; i < enc.size() && bad < 5; ++i) {
    const Placement p = enc.decode(i);
    if (!enc.is_legal(p) || !canon.is_representative(p)) continue;
    const logic::CubeWord m = logic::minterm(i, enc.bits());
    if (std::any_of(front.begin(), front.end(), [&](logic::CubeWord f) { return logic::contains(f, m); })) continue;
    const std::array<uint32_t, 4> sq{p.sq[0], p.sq[1], p.sq[2], p.sq[3]};
    if (RegionIndex::find_output<4>(idx.hot(), p.stm, sq) != logic::Output(uint8_t(t.value(p))))
      ++bad, ADD_FAILURE() << enc.balance().name() << " index " << i;
  }
  return bad;
}

// The index of a balance's trie cover (many small cubes to grow) with the slots {0, 1} fixed and no
// lists, as two builds that differ in one choice compare: both then plan the same regions.
struct TrieCase {
  const Table& table;
  store::CoverFile cover;
  CoverCanon canon;
  explicit TrieCase(const char* name)
      : table(**test::shared_store().ensure(*Balance::parse(name))),
        cover(test::trie_cover(table, CanonScheme::Full)),
        canon(table.encoding(), CanonScheme::Full) {}
  RegionIndex build(RegionPicking picking, RegionFields fields = RegionFields::Settled) const {
    return RegionIndex(cover.cubes, table.encoding(), canon, {}, std::vector<int>{0, 1}, logic::Output::None, 0,
                       std::nullopt, 1, nullptr, RegionLists::Never, picking, fields);
  }
};

// RegionIndex::care derives legality and representatives per region from a few rules; the brute
// force asks Encoding and CoverCanon about every placement.
TEST(RegionIndex, CareEqualsLegalRepresentativesByBruteForce) {
  std::mt19937 rng(11);
  for (const char* name : {"KRvKN", "KRRvK", "KRvKR", "KPvKP", "KBPvK", "KQvK", "KPvK", "KNvKN"}) {
    const Encoding enc(*Balance::parse(name));
    ASSERT_TRUE(RegionIndex::applies_to(enc)) << name;
    int bk_slot = 0;
    for (int i = 1; i < enc.pieces(); ++i)
      if (enc.piece(i) == make_piece(Black, King)) bk_slot = i;
    for (CanonScheme scheme : {CanonScheme::Full, CanonScheme::Board, CanonScheme::None}) {
      const CoverCanon canon(enc, scheme);
      int live = 0;
      for (int n = 0; n < 300; ++n) {
        // Every region with the king on a diagonal, and random others.
        const uint32_t stm = rng() & 1;
        const int wk = n < 16 ? (n % 8) * 9 : int(rng() % 64), bk = int(rng() % 64);
        const std::vector<uint64_t> got = RegionIndex::care(enc, canon, stm, wk, bk);
        const int nfree = enc.pieces() - 2;
        std::vector<uint64_t> want(nfree == 2 ? 64 : 1, 0);
        bool any = false;
        for (uint32_t f = 0; f < (nfree == 2 ? 4096u : 64u); ++f) {
          Placement p;
          p.stm = Color(stm);
          p.sq[0] = Square(wk);
          p.sq[size_t(bk_slot)] = Square(bk);
          for (int i = 1, j = 0; i < enc.pieces(); ++i)
            if (i != bk_slot) p.sq[size_t(i)] = Square(nfree == 1 ? f : j++ == 0 ? f >> 6 : f & 63);
          if (enc.is_legal(p) && canon.is_representative(p)) {
            want[nfree == 2 ? f >> 6 : 0] |= uint64_t{1} << (f & 63);
            any = true;
          }
        }
        if (!any) {
          EXPECT_TRUE(got.empty()) << name << " " << name_of(scheme) << " region " << stm << "/" << wk << "/" << bk;
          continue;
        }
        ++live;
        EXPECT_EQ(got, want) << name << " " << name_of(scheme) << " region " << stm << "/" << wk << "/" << bk;
      }
      EXPECT_GT(live, 20) << name << " " << name_of(scheme);
    }
  }
}

// Five pieces: three free pieces around the kings, identical ones (KRRvKR, KPPvKP) ascending.
TEST(RegionIndex, FivePieceCareEqualsLegalRepresentativesByBruteForce) {
  std::mt19937 rng(12);
  for (const char* name : {"KRRvKR", "KRPvKR", "KPPvKP", "KBNvKQ"}) {
    const Encoding enc(*Balance::parse(name));
    ASSERT_TRUE(RegionIndex::applies_to(enc)) << name;
    int bk_slot = 0;
    for (int i = 1; i < enc.pieces(); ++i)
      if (enc.piece(i) == make_piece(Black, King)) bk_slot = i;
    for (CanonScheme scheme : {CanonScheme::Full, CanonScheme::None}) {
      const CoverCanon canon(enc, scheme);
      int live = 0;
      for (int n = 0; n < 12; ++n) {
        const uint32_t stm = rng() & 1;
        const int wk = n < 4 ? n * 9 : int(rng() % 64), bk = int(rng() % 64);
        const std::vector<uint64_t> got = RegionIndex::care(enc, canon, stm, wk, bk);
        std::vector<uint64_t> want(4096, 0);
        bool any = false;
        for (uint32_t f = 0; f < 262144u; ++f) {
          Placement p;
          p.stm = Color(stm);
          p.sq[0] = Square(wk);
          p.sq[size_t(bk_slot)] = Square(bk);
          for (int i = 1, j = 0; i < enc.pieces(); ++i)
            if (i != bk_slot) p.sq[size_t(i)] = Square((f >> (6 * (2 - j++))) & 63);
          if (enc.is_legal(p) && canon.is_representative(p)) {
            want[f >> 6] |= uint64_t{1} << (f & 63);
            any = true;
          }
        }
        if (!any) {
          EXPECT_TRUE(got.empty()) << name << " region " << stm << "/" << wk << "/" << bk;
          continue;
        }
        ++live;
        EXPECT_EQ(got, want) << name << " " << name_of(scheme) << " region " << stm << "/" << wk << "/" << bk;
      }
      EXPECT_GT(live, 2) << name << " " << name_of(scheme);
    }
  }
}

TEST(RegionIndex, AppliesToThreeToFivePieces) {
  EXPECT_FALSE(RegionIndex::applies_to(Encoding(*Balance::parse("KvK"))));
  EXPECT_TRUE(RegionIndex::applies_to(Encoding(*Balance::parse("KQvK"))));
  EXPECT_TRUE(RegionIndex::applies_to(Encoding(*Balance::parse("KQRvK"))));
  EXPECT_TRUE(RegionIndex::applies_to(Encoding(*Balance::parse("KQvKRN"))));
  EXPECT_TRUE(RegionIndex::applies_to(Encoding(*Balance::parse("KRPvKR"))));
}

// The fixed pair must be two distinct slots of the encoding, in ascending order.
TEST(RegionIndex, RejectsABadFixedPair) {
  const Table& t = **test::shared_store().ensure(*Balance::parse("KRvK"));
  const auto cover = test::trie_cover(t, CanonScheme::Full);
  const CoverCanon canon(t.encoding(), CanonScheme::Full);
  for (const std::vector<int>& fixed : {std::vector{1, 1}, std::vector{2, 1}, std::vector{0, 3}, std::vector{-1, 2},
                                        std::vector{0, 1, 2}, std::vector{1}})
    EXPECT_FALSE(RegionIndex(cover.cubes, t.encoding(), canon, {}, fixed).built()) << ::testing::PrintToString(fixed);
  EXPECT_TRUE(RegionIndex(cover.cubes, t.encoding(), canon, {}, std::vector{1, 2}).built());
}

// Every legal representative gets its own value from the hot path, whatever the front line answered
// (here: nothing, then a few cubes of the cover): from a region cube of that value or from its
// region's fallback, and a cube find() names has that value too. Everywhere, legal or not, a cube
// find() names holds the placement.
TEST(RegionIndex, AnswersEveryRepresentativeWithItsValue) {
  for (const char* name : {"KRvK", "KPvK"}) {
    const Table& t = **test::shared_store().ensure(*Balance::parse(name));
    const Encoding& enc = t.encoding();
    for (CanonScheme scheme : {CanonScheme::Full, CanonScheme::None}) {
      const auto cover = test::trie_cover(t, scheme);
      const CoverCanon canon(enc, scheme);
      using Fixed = std::optional<std::vector<int>>;
      for (const auto& [answered, fixed] :
           {std::pair{size_t{0}, Fixed{}}, std::pair{size_t{5}, Fixed{}}, std::pair{size_t{5}, Fixed{{0, 1}}},
            std::pair{size_t{0}, Fixed{{0, 2}}}, std::pair{size_t{5}, Fixed{{1, 2}}}}) {
        const std::span<const logic::CubeWord> front(cover.cubes.data(), answered);
        const RegionIndex idx(cover.cubes, enc, canon, front, fixed);
        ASSERT_TRUE(idx.built());
        if (fixed) {
          EXPECT_EQ(idx.fixed_slots(), *fixed);
        }
        int bad = 0, fallbacks = 0;
        for (uint64_t i = 0; i < enc.size() && bad < 5; ++i) {
          const Placement p = enc.decode(i);
          const logic::CubeWord m = logic::minterm(i, enc.bits());
          const logic::CubeWord c = idx.find(i, cover.cubes);
          std::array<uint32_t, 3> sq{p.sq[0], p.sq[1], p.sq[2]};
          const logic::Output fast = RegionIndex::find_output<3>(idx.hot(), p.stm, sq);
          if (c && !logic::contains(c, m)) ++bad, ADD_FAILURE() << name << " find() names a cube without index " << i;
          if (!enc.is_legal(p) || !canon.is_representative(p)) continue;
          if (c && fast != logic::output_of(c))
            ++bad, ADD_FAILURE() << name << " hot path and find() differ at index " << i;
          bool in_front = false;
          for (logic::CubeWord f : front) in_front |= logic::contains(f, m);
          if (in_front) continue;
          fallbacks += c == 0;
          if (fast != logic::Output(uint8_t(t.value(p))))
            ++bad, ADD_FAILURE() << name << " " << name_of(scheme) << " fixed "
                                 << ::testing::PrintToString(idx.fixed_slots()) << " index " << i;
        }
        EXPECT_GT(fallbacks, 0) << "no region answered by its fallback";
        EXPECT_EQ(bad, 0);
      }
    }
  }
}

// A cover that leaves the draw implied: a region holding a few draws (a lone king's stalemates, a
// capture of a loose piece) may fall back to its commonest value and hold the draws in cubes of
// the implied output, grown from their positions, when those are fewer than listing the other
// values. Such regions exist in these balances (the test fails without them), and every
// representative still gets its value.
TEST(RegionIndex, RegionsMayHoldTheImpliedOutputInCubesGrownFromItsPositions) {
  for (const char* name : {"KQvK", "KRvK"}) {
    const Table& t = **test::shared_store().ensure(*Balance::parse(name));
    const Encoding& enc = t.encoding();
    auto cover = test::trie_cover(t, CanonScheme::Full);
    logic::drop_output(cover.cubes, logic::Output::Draw);
    const CoverCanon canon(enc, CanonScheme::Full);
    const RegionIndex idx(cover.cubes, enc, canon, {}, std::nullopt, logic::Output::Draw);
    ASSERT_TRUE(idx.built()) << name;
    const auto h = idx.hot();
    const auto words = idx.hot_words();
    const uint32_t* end = reinterpret_cast<const uint32_t*>(words.data() + words.size());
    size_t draw_cubes = 0;
    for (const uint32_t* c = h.cubes; c < end; ++c)
      draw_cubes += *c != 0 && region_cube::output(*c) == uint32_t(logic::Output::Draw);
    EXPECT_GT(draw_cubes, 0u) << name << ": no region holds the implied output in cubes";
    int bad = 0;
    for (uint64_t i = 0; i < enc.size() && bad < 5; ++i) {
      const Placement p = enc.decode(i);
      if (!enc.is_legal(p) || !canon.is_representative(p)) continue;
      std::array<uint32_t, 3> sq{p.sq[0], p.sq[1], p.sq[2]};
      const logic::Output fast = RegionIndex::find_output<3>(h, p.stm, sq);
      const logic::CubeWord c = idx.find(i, cover.cubes);
      if (c && !logic::contains(c, logic::minterm(i, enc.bits())))
        ++bad, ADD_FAILURE() << name << " find() names a cube without index " << i;
      if (fast != logic::Output(uint8_t(t.value(p)))) ++bad, ADD_FAILURE() << name << " index " << i;
    }
    EXPECT_EQ(bad, 0) << name;
  }
}

// Where a region's last cubes each hold a position or two, the region keeps its first cubes and
// lists the positions they leave (region_list.hpp): the same regions (the fixed slots given) in
// fewer words than with every cube, and every legal representative, with a front line or none,
// still gets its value. A trie cover (cubes of few positions) has such regions in these balances.
TEST(RegionIndex, RegionsListThePositionsTheirLastCubesWouldHold) {
  for (const char* name : {"KRvKB", "KBvKP"}) {
    const Table& t = **test::shared_store().ensure(*Balance::parse(name));
    const Encoding& enc = t.encoding();
    const auto cover = test::trie_cover(t, CanonScheme::Full);
    const CoverCanon canon(enc, CanonScheme::Full);
    for (size_t answered : {size_t{0}, size_t{20}}) {
      const std::span<const logic::CubeWord> front(cover.cubes.data(), std::min(answered, cover.cubes.size()));
      const std::vector<int> fixed{0, 1};
      auto build = [&](RegionLists lists) {
        return RegionIndex(cover.cubes, enc, canon, front, fixed, logic::Output::None, 0, std::nullopt, 1, nullptr,
                           lists);
      };
      const RegionIndex all = build(RegionLists::Never), listed = build(RegionLists::WhereSmaller);
      ASSERT_TRUE(all.built() && listed.built()) << name;
      EXPECT_LT(listed.hot_words().size(), all.hot_words().size() * 9 / 10) << name << ": no region took a list";
      EXPECT_EQ(wrong_answers(listed, t, canon, front), 0) << name;
    }
  }
}

// The greedy cover never looks back, so a cube it picked can end up holding nothing the cubes
// picked after it do not; the build drops such cubes. Every cube of every region then holds a
// position no other cube of its region holds. A trie cover (many small cubes to grow and pick
// from) in balances whose greedy covers had such cubes: the test fails without the drop.
TEST(RegionIndex, EveryRegionCubeHoldsAPositionNoOtherHolds) {
  for (const char* name : {"KRvKP", "KBvKP"}) {
    const Table& t = **test::shared_store().ensure(*Balance::parse(name));
    const Encoding& enc = t.encoding();
    const auto cover = test::trie_cover(t, CanonScheme::Full);
    const CoverCanon canon(enc, CanonScheme::Full);
    const RegionIndex idx(cover.cubes, enc, canon);
    ASSERT_TRUE(idx.built()) << name;
    const RegionIndex::Hot h = idx.hot();
    // Per region cube (by its place in the cubes' array): the positions it alone holds; and the
    // region cubes themselves (those before a list, if the region has one).
    std::vector<uint32_t> alone(idx.hot_words().size() * 2, 0);
    std::vector<bool> is_cube(alone.size(), false);
    for (uint64_t i = 0; i < enc.size(); ++i) {
      const Placement p = enc.decode(i);
      if (!enc.is_legal(p) || !canon.is_representative(p)) continue;
      uint32_t packed = 0;
      for (int s = 0; s < 4; ++s) packed = packed << kSquareBits | p.sq[size_t(s)];
      const RegionIndex::Query q = RegionIndex::locate<4>(h, uint32_t(p.stm), packed);
      const uint32_t n = RegionIndex::cubes_end(h, h.cubes + q.first, q.count);
      const uint32_t w0 = h.cubes[q.first];  // a list's header, if the region has one (region_list.hpp)
      const bool header = q.count > 0 && (w0 & h.header_field) == 0 && region_cube::output(w0) != 0;
      int holders = 0;
      uint32_t holder = 0;
      for (uint32_t j = header ? 1 : 0; j < n; ++j) {
        const uint32_t c = h.cubes[q.first + j];
        is_cube[q.first + j] = true;
        if ((c & q.pairs) == q.pairs) ++holders, holder = q.first + j;
      }
      if (holders == 1) ++alone[holder];
    }
    size_t cubes = 0, redundant = 0;
    for (size_t c = 0; c < alone.size(); ++c)
      if (is_cube[c]) ++cubes, redundant += alone[c] == 0;
    EXPECT_GT(cubes, 1000u) << name;
    EXPECT_EQ(redundant, 0u) << name << ": of " << cubes << " region cubes";
  }
}

// ESPRESSO's reduce and expand after the greedy cover: each region no more words than the greedy
// cover alone takes (a try is kept only when it has fewer cubes), fewer in all, and every legal
// representative still gets its value (TrieCase).
TEST(RegionIndex, ReduceAndExpandTakeFewerCubesThanTheGreedyCover) {
  size_t greedy_words = 0, reduced_words = 0;
  for (const char* name : {"KRvKP", "KBvKP", "KRvKB"}) {
    const TrieCase c(name);
    const RegionIndex greedy = c.build(RegionPicking::Greedy), reduced = c.build(RegionPicking::ReduceExpand);
    ASSERT_TRUE(greedy.built() && reduced.built()) << name;
    greedy_words += greedy.hot_words().size();
    reduced_words += reduced.hot_words().size();
    EXPECT_LE(reduced.hot_words().size(), greedy.hot_words().size()) << name;
    EXPECT_EQ(wrong_answers(reduced, c.table, c.canon), 0) << name;
  }
  EXPECT_LT(reduced_words, greedy_words) << "the greedy cover's regions: " << greedy_words << " words";
}

// Settled fields (RegionFields): the same cubes, each within what its region allows, so every
// legal representative still gets its value; and the words' fields take fewer bits of entropy
// over the index, which is what the framed cubes' coder gains on (TrieCase).
TEST(RegionIndex, SettledFieldsAnswerTheSameInFewerBitsOfEntropy) {
  for (const char* name : {"KRvKP", "KBvKP", "KRvKB"}) {
    const TrieCase c(name);
    const RegionIndex grown = c.build(RegionPicking::ReduceExpand, RegionFields::Grown),
                      settled = c.build(RegionPicking::ReduceExpand, RegionFields::Settled);
    ASSERT_TRUE(grown.built() && settled.built()) << name;
    ASSERT_EQ(settled.hot_words().size(), grown.hot_words().size()) << name;
    EXPECT_EQ(wrong_answers(settled, c.table, c.canon), 0) << name;
    // The entropy of each field's values over the region cubes (the words after the directory
    // that are not padding), in bits, summed over the fields.
    auto entropy = [&](const RegionIndex& idx) {
      const RegionIndex::Hot h = idx.hot();
      const uint32_t* end = reinterpret_cast<const uint32_t*>(idx.hot_words().data() + idx.hot_words().size());
      std::array<std::array<double, 256>, 4> count{};
      double cubes = 0;
      for (const uint32_t* w = h.cubes; w < end; ++w) {
        if (*w == 0) continue;
        ++cubes;
        for (int f = 0; f < 4; ++f)
          ++count[size_t(f)][(*w >> region_cube::field_shift(f, h.subcube)) &
                             ((1u << region_cube::field_width(f, h.subcube)) - 1)];
      }
      double bits = 0;
      for (const auto& field : count)
        for (double n : field)
          if (n > 0) bits -= n * std::log2(n / cubes);
      return bits;
    };
    const double grown_bits = entropy(grown), settled_bits = entropy(settled);
    EXPECT_LT(settled_bits, 0.97 * grown_bits) << name << ": " << settled_bits << " bits against " << grown_bits;
  }
}

// The regions are planned in chunks on several threads, and appended in region order: the same
// index, word for word, on any number of threads (a 4-piece balance with many regions, with and
// without what a front line answers).
TEST(RegionIndex, TheSameIndexOnAnyNumberOfThreads) {
  for (const char* name : {"KRvKB", "KPvKR"}) {
    const Table& t = **test::shared_store().ensure(*Balance::parse(name));
    const auto cover = test::trie_cover(t, CanonScheme::Full);
    const CoverCanon canon(t.encoding(), CanonScheme::Full);
    for (size_t answered : {size_t{0}, size_t{20}}) {
      const std::span<const logic::CubeWord> front(cover.cubes.data(), std::min(answered, cover.cubes.size()));
      const RegionIndex one(cover.cubes, t.encoding(), canon, front, std::nullopt, logic::Output::None, 0, std::nullopt,
                            1);
      ASSERT_TRUE(one.built()) << name;
      for (int threads : {2, 3}) {
        const RegionIndex many(cover.cubes, t.encoding(), canon, front, std::nullopt, logic::Output::None, 0,
                               std::nullopt, threads);
        EXPECT_EQ(many.fixed_slots(), one.fixed_slots()) << name << " " << threads;
        EXPECT_EQ(many.subcube(), one.subcube()) << name << " " << threads;
        EXPECT_TRUE(std::ranges::equal(many.hot_words(), one.hot_words())) << name << " " << threads;
      }
    }
  }
}

// A region cube's word holds a query exactly when each free piece stands on one of its rows and
// one of its files, whichever field is the subcube one, and the output bits never decide a match.
TEST(RegionIndex, CubeWordsHoldExactlyTheirRowsTimesFiles) {
  std::mt19937_64 rng(11);
  auto random_set = [&](bool subcube) {
    if (!subcube) {
      uint32_t set = 0;
      while (!set) set = uint32_t(rng() & 0xFF);
      return set;
    }
    const uint32_t free_bits = uint32_t(rng() & 7), base = uint32_t(rng() & 7) & ~free_bits;
    uint32_t set = 0;
    for (uint32_t x = 0; x < 8; ++x)
      if ((x & ~free_bits) == 0) set |= 1u << (base | x);
    return set;
  };
  for (int subcube = 0; subcube <= RegionIndex::kNoSubcube; ++subcube) {
    const int nfree = subcube == RegionIndex::kNoSubcube ? 1 : 2;
    for (int trial = 0; trial < 200; ++trial) {
      std::array<uint32_t, 4> sets{};
      for (int f = 0; f < 2 * nfree; ++f) sets[size_t(f)] = random_set(f == subcube);
      const unsigned out = unsigned(trial % 4);
      const uint32_t w = region_cube::word(sets, nfree, subcube, out);
      EXPECT_EQ(w >> RegionIndex::kOutputShift, out);
      auto on = [&](int piece, uint32_t sq) {
        return (sets[size_t(2 * piece)] >> (sq >> 3) & 1) && (sets[size_t(2 * piece + 1)] >> (sq & 7) & 1);
      };
      int wrong = 0;
      for (uint32_t a = 0; a < 64; ++a)
        for (uint32_t b = 0; b < (nfree == 2 ? 64u : 1u); ++b) {
          const uint32_t q =
              region_cube::kQueryBits[size_t(subcube)][0][a] | region_cube::kQueryBits[size_t(subcube)][1][b];
          wrong += ((w & q) == q) != (on(0, a) && (nfree == 1 || on(1, b)));
        }
      ASSERT_EQ(wrong, 0) << "subcube field " << subcube << " trial " << trial;
    }
  }
}

// Four pieces, each of the four fields as the subcube one: every legal representative drawn gets
// its value from the hot path.
TEST(RegionIndex, FourPieceRegionsAreExactWithEachSubcubeField) {
  const Table& t = **test::shared_store().ensure(*Balance::parse("KRvKP"));
  const Encoding& enc = t.encoding();
  const auto cover = test::trie_cover(t, CanonScheme::Full);
  const CoverCanon canon(enc, CanonScheme::Full);
  for (uint8_t subcube = 0; subcube < RegionIndex::kNoSubcube; ++subcube) {
    const RegionIndex idx(cover.cubes, enc, canon, {}, std::nullopt, logic::Output::None, 0, subcube);
    ASSERT_TRUE(idx.built());
    EXPECT_EQ(idx.subcube(), subcube);
    std::mt19937_64 rng(subcube);
    int bad = 0, checked = 0;
    while (checked < 200000 && bad < 5) {
      const Placement p = enc.decode(rng() & (enc.size() - 1));
      if (!enc.is_legal(p) || !canon.is_representative(p)) continue;
      ++checked;
      const std::array<uint32_t, 4> sq{p.sq[0], p.sq[1], p.sq[2], p.sq[3]};
      if (RegionIndex::find_output<4>(idx.hot(), p.stm, sq) != logic::Output(uint8_t(t.value(p))))
        ++bad, ADD_FAILURE() << "subcube field " << int(subcube) << " index " << enc.encode(p);
    }
    EXPECT_EQ(bad, 0);
  }
  // One free piece has no subcube field, two need one.
  EXPECT_FALSE(
      RegionIndex(cover.cubes, enc, canon, {}, std::nullopt, logic::Output::None, 0, RegionIndex::kNoSubcube).built());
}

// answer() names the first cube of the region holding the index, and says a free piece's square
// is held exactly when, the other free piece moved to some square, a cube of the region holds it.
TEST(RegionIndex, AnswerNamesTheHoldingCubeAndTheHeldSquares) {
  const Table& t = **test::shared_store().ensure(*Balance::parse("KRvKP"));
  const Encoding& enc = t.encoding();
  const auto cover = test::trie_cover(t, CanonScheme::Full);
  const CoverCanon canon(enc, CanonScheme::Full);
  const RegionIndex idx(cover.cubes, enc, canon);
  ASSERT_TRUE(idx.built());
  std::vector<int> free;
  for (int slot = 0; slot < 4; ++slot)
    if (std::find(idx.fixed_slots().begin(), idx.fixed_slots().end(), slot) == idx.fixed_slots().end())
      free.push_back(slot);
  ASSERT_EQ(free.size(), 2u);
  // The index with free slot `slot` on `sq` (slot i at bit 6 (3 - i)).
  auto moved = [](uint64_t i, int slot, uint64_t sq) {
    const int shift = 6 * (3 - slot);
    return (i & ~(uint64_t{63} << shift)) | sq << shift;
  };
  std::mt19937_64 rng(3);
  int checked = 0, held_by_cube = 0, fallbacks = 0, unheld = 0;
  while (checked < 2000) {
    const uint64_t i = rng() & (enc.size() - 1);
    const Placement p = enc.decode(i);
    if (!enc.is_legal(p) || !canon.is_representative(p)) continue;
    ++checked;
    const RegionIndex::Answer a = idx.answer(i);
    ASSERT_LT(a.cube, int(a.region_cubes));
    if (a.cube >= 0) {
      ++held_by_cube;
      EXPECT_TRUE(a.first_square_held && a.second_square_held) << "index " << i;
      EXPECT_NE(idx.output(i), logic::Output::None);
    } else {
      ++fallbacks;
    }
    bool first = false, second = false;
    for (uint64_t sq = 0; sq < 64; ++sq) {
      first = first || idx.answer(moved(i, free[1], sq)).cube >= 0;
      second = second || idx.answer(moved(i, free[0], sq)).cube >= 0;
    }
    EXPECT_EQ(a.first_square_held, first) << "index " << i;
    EXPECT_EQ(a.second_square_held, second) << "index " << i;
    unheld += !(first && second);
  }
  // Each case occurs, so that the checks above test something.
  EXPECT_GT(held_by_cube, 0);
  EXPECT_GT(fallbacks, 0);
  EXPECT_GT(unheld, 0);
}

// With the capture search's freedom (RegionFreedom), a region's answer s and the best value c a
// capture reaches give every representative its value (the better of the two, as the probe of a
// capture-resolved cover takes them), and the regions need fewer cubes than when they answer as
// the cover does. Balances whose captures decide much: a rook or pawn against a minor piece. Also
// with White's win implied (its cubes dropped): a position where a capture reaches only a draw and
// no cube holds it is then a win, which the region must keep even where it falls back to a draw.
TEST(RegionIndex, FreedomLeavesToTheCaptureSearchWhatItDecides) {
  for (const char* name : {"KRvKN", "KPvKB"}) {
    const Balance b = *Balance::parse(name);
    const Table& t = **test::shared_store().ensure(b);
    for (const Balance& s : successor_balances(b)) ASSERT_TRUE(test::shared_store().ensure(s)) << s.name();
    const SuccessorTables successors(b, test::shared_lookup());
    const SuccessorValue value = [&](const Position& after) { return successors.value_stm(after); };
    const Encoding& enc = t.encoding();
    const CoverCanon canon(enc, CanonScheme::Full);
    const std::vector<logic::CubeWord> every_cube = test::trie_cover(t, CanonScheme::Full).cubes;
    const RegionFreedom freedom = capture_freedom(enc, canon, value, 2);
    ASSERT_GT(std::ranges::count_if(freedom.capture_wins, [](uint64_t w) { return w != 0; }), 0) << name;
    ASSERT_GT(std::ranges::count_if(freedom.capture_draws, [](uint64_t w) { return w != 0; }), 0) << name;
    for (const logic::Output implied : {logic::Output::None, logic::Output::Win}) {
      std::vector<logic::CubeWord> cubes = every_cube;
      std::erase_if(cubes, [&](logic::CubeWord c) { return logic::output_of(c) == implied; });
      const std::string what = std::string(name) + (implied == logic::Output::None ? "" : ", win implied");
      const RegionIndex plain(cubes, enc, canon, {}, std::nullopt, implied);
      const RegionIndex freed(cubes, enc, canon, {}, std::nullopt, implied, 0, std::nullopt, 2, &freedom);
      ASSERT_TRUE(plain.built() && freed.built()) << what;
      EXPECT_LT(freed.region_cubes(), plain.region_cubes()) << what;
      int bad = 0, differ = 0;
      for (uint64_t i = 0; i < enc.size() && bad < 5; ++i) {
        const Placement p = enc.decode(i);
        if (!enc.is_legal(p) || !canon.is_representative(p)) continue;
        const std::array<uint32_t, 4> sq{p.sq[0], p.sq[1], p.sq[2], p.sq[3]};
        const auto out = RegionIndex::find_output<4>(freed.hot(), p.stm, sq);
        const Wdl white = out == logic::Output::None ? Wdl::Illegal : Wdl(uint8_t(out));
        const Wdl stored = p.stm == White ? white : negate(white);
        const Wdl truth = fold(p.stm == White ? t.value(p) : negate(t.value(p)));
        const Wdl reached = fold(capture_value(enc.position(p), value));
        differ += out != logic::Output(uint8_t(fold(t.value(p))));
        if (better(stored, reached) != truth)
          ++bad, ADD_FAILURE() << what << " index " << i << ": region " << int(out) << ", capture " << int(reached)
                               << ", value " << int(truth);
      }
      EXPECT_EQ(bad, 0) << what;
      EXPECT_GT(differ, 0) << what << ": the freedom was never used";
    }
  }
}

// A balance's table and the values its evasion searches read, for the side to move: `value` of the
// positions its captures and promotions reach (their tables'), `same` of its own (its table's).
struct SearchValues {
  const Table& t;
  SuccessorTables successors;
  SuccessorValue value, same;
  explicit SearchValues(const Balance& b) : t(**test::shared_store().ensure(b)), successors(b, ensure_successors(b)) {
    value = [this](const Position& after) { return successors.value_stm(after); };
    same = [this](const Position& p) {
      const Wdl white = t.value(p);
      return p.side_to_move() == White || white == Wdl::Illegal ? white : negate(white);
    };
  }
  SearchValues(const SearchValues&) = delete;
  SearchValues& operator=(const SearchValues&) = delete;

 private:
  static TableLookup ensure_successors(const Balance& b) {
    for (const Balance& s : successor_balances(b))
      if (!test::shared_store().ensure(s)) ADD_FAILURE() << s.name();
    return test::shared_lookup();
  }
};

// Positions in check that no move answers with check are left to the evasion search when it gives
// each of them its value: the regions then need fewer cubes, and the search, the region's answer
// and the capture search together give every representative its value (as a probe takes them:
// the search first where it decides, then the better of the region and the captures).
TEST(RegionIndex, EvasionsLeftToTheSearchNeedFewerCubes) {
  for (const char* name : {"KRvKN", "KRvKP"}) {
    const Balance b = *Balance::parse(name);
    const SearchValues v(b);
    const Table& t = v.t;
    const SuccessorValue &value = v.value, &same = v.same;
    const SuccessorValue child = [&](const Position& after) {
      return Balance::of(after).canonical() == b ? same(after) : value(after);
    };
    const Encoding& enc = t.encoding();
    const CoverCanon canon(enc, CanonScheme::Full);
    const std::vector<logic::CubeWord> cubes = test::trie_cover(t, CanonScheme::Full).cubes;
    RegionFreedom with = capture_freedom(enc, canon, value, 2, &same);
    RegionFreedom without = with, never = with;
    without.evasions.clear();
    // Every region whose cubes the search spares any word, and none (no saving is that large).
    with.min_bytes_per_thousand_searched = 0;
    never.min_bytes_per_thousand_searched = UINT32_MAX;
    ASSERT_TRUE(std::ranges::any_of(with.evasions, [](uint64_t w) { return w != 0; })) << name;
    const RegionIndex stored(cubes, enc, canon, {}, std::nullopt, logic::Output::None, 0, std::nullopt, 2, &without);
    const RegionIndex searched(cubes, enc, canon, {}, std::nullopt, logic::Output::None, 0, std::nullopt, 2, &with);
    const RegionIndex kept(cubes, enc, canon, {}, std::nullopt, logic::Output::None, 0, std::nullopt, 2, &never);
    ASSERT_TRUE(stored.built() && searched.built() && kept.built()) << name;
    EXPECT_EQ(stored.evasions(), CheckEvasions::Stored);
    EXPECT_EQ(kept.evasions(), CheckEvasions::Stored);
    EXPECT_EQ(kept.searched_regions(), 0u);
    EXPECT_EQ(searched.evasions(), CheckEvasions::Searched);
    EXPECT_GT(searched.searched_regions(), 0u);
    EXPECT_LT(searched.region_cubes(), stored.region_cubes()) << name;
    int bad = 0, by_search = 0;
    for (uint64_t i = 0; i < enc.size() && bad < 5; ++i) {
      const Placement p = enc.decode(i);
      if (!enc.is_legal(p) || !canon.is_representative(p)) continue;
      const Position pos = enc.position(p);
      const Wdl truth = same(pos);
      Wdl got = evasion_value(pos, child);
      // The bitmap marks exactly the representatives the search decides.
      EXPECT_EQ(got != Wdl::Illegal, bool(with.evasions[i >> 6] >> (i & 63) & 1)) << name << " index " << i;
      EXPECT_FALSE(kept.searched(i)) << name << " index " << i;
      // A region that leaves them to the search may say anything there; the others answer all.
      if (got != Wdl::Illegal && searched.searched(i)) {
        ++by_search;
      } else {
        const std::array<uint32_t, 4> sq{p.sq[0], p.sq[1], p.sq[2], p.sq[3]};
        const auto out = RegionIndex::find_output<4>(searched.hot(), p.stm, sq);
        const Wdl white = out == logic::Output::None ? Wdl::Illegal : Wdl(uint8_t(out));
        got = better(p.stm == White ? white : negate(white), capture_value(pos, value));
      }
      if (fold(got) != fold(truth)) ++bad, ADD_FAILURE() << name << " index " << i;
    }
    EXPECT_EQ(bad, 0) << name;
    EXPECT_GT(by_search, 0) << name;
  }
}

// A region holding a position the search misses (at five pieces, a win searched that the 50-move
// rule makes cursed) keeps all its positions in check, since its probes would search every one;
// the other regions still leave theirs to the search. The misses are planted: no balance of four
// pieces has one.
TEST(RegionIndex, ARegionTheSearchMissesAPositionOfKeepsItsPositionsInCheck) {
  const SearchValues v(*Balance::parse("KRvKN"));
  const Table& t = v.t;
  const SuccessorValue &value = v.value, &same = v.same;
  const Encoding& enc = t.encoding();
  const CoverCanon canon(enc, CanonScheme::Full);
  const std::vector<logic::CubeWord> cubes = test::trie_cover(t, CanonScheme::Full).cubes;
  RegionFreedom freedom = capture_freedom(enc, canon, value, 2, &same);
  freedom.min_bytes_per_thousand_searched = 0;
  ASSERT_TRUE(std::ranges::none_of(freedom.evasions_missed, [](uint64_t w) { return w != 0; }));
  const RegionIndex before(cubes, enc, canon, {}, std::nullopt, logic::Output::None, 0, std::nullopt, 2, &freedom);
  ASSERT_GT(before.searched_regions(), 1u);
  // Three of the searched positions, far apart, become misses.
  std::vector<uint64_t> left;
  for (uint64_t i = 0; i < enc.size(); ++i)
    if ((freedom.evasions[i >> 6] >> (i & 63) & 1) && before.searched(i)) left.push_back(i);
  const std::array planted{left[0], left[left.size() / 3], left[2 * left.size() / 3]};
  for (uint64_t i : planted) {
    freedom.evasions[i >> 6] &= ~(uint64_t{1} << (i & 63));
    freedom.evasions_missed[i >> 6] |= uint64_t{1} << (i & 63);
  }
  const RegionIndex after(cubes, enc, canon, {}, std::nullopt, logic::Output::None, 0, std::nullopt, 2, &freedom);
  for (uint64_t i : planted) EXPECT_FALSE(after.searched(i)) << "index " << i;
  EXPECT_GT(after.searched_regions(), 0u);
  EXPECT_LT(after.searched_regions(), before.searched_regions());
  EXPECT_GE(after.searched_regions() + planted.size(), before.searched_regions());
  // What a probe takes: the search where the region leaves a position to it, the region and the
  // captures elsewhere; a planted miss is never searched, so its region answers it exactly.
  int bad = 0;
  for (uint64_t i = 0; i < enc.size() && bad < 5; ++i) {
    const Placement p = enc.decode(i);
    if (!enc.is_legal(p) || !canon.is_representative(p) || after.searched(i)) continue;
    const std::array<uint32_t, 4> sq{p.sq[0], p.sq[1], p.sq[2], p.sq[3]};
    const auto out = RegionIndex::find_output<4>(after.hot(), p.stm, sq);
    const Wdl white = out == logic::Output::None ? Wdl::Illegal : Wdl(uint8_t(out));
    const Position pos = enc.position(p);
    if (fold(better(p.stm == White ? white : negate(white), capture_value(pos, value))) != fold(same(pos)))
      ++bad, ADD_FAILURE() << "index " << i;
  }
  EXPECT_EQ(bad, 0);
}

// A layout keeps every rule's draw but those the evasion search decides in a region that leaves
// them to it: a draw decided in a region that answers them itself stays, as does one the search
// does not decide, and one past the decided bits (a freedom of fewer positions) stays.
TEST(RegionIndex, RuleDrawsLeftDropOnlyTheSearchedDecidedOnes) {
  RegionFreedom freedom;
  freedom.evasions.assign(2, 0);
  for (const uint32_t decided : {3u, 5u, 64u, 70u}) freedom.evasions[decided >> 6] |= uint64_t{1} << (decided & 63);
  const std::vector<uint32_t> draws = {1, 3, 5, 64, 70, 71, 200};
  // Regions: the indices below 64 leave positions to the search, the rest answer them.
  auto searched = [](uint64_t index) { return index < 64 || index == 200; };
  EXPECT_EQ(rule_draws_left(draws, freedom, searched), (std::vector<uint32_t>{1, 64, 70, 71, 200}));
  EXPECT_EQ(rule_draws_left(draws, freedom, [](uint64_t) { return false; }), draws);
  EXPECT_EQ(rule_draws_left(draws, RegionFreedom{}, [](uint64_t) { return true; }), draws);
}

}  // namespace
}  // namespace egtmin::probe
