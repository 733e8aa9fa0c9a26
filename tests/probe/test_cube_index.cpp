// SPDX-License-Identifier: GPL-3.0-or-later
// The indexed probe on minimized covers, whose cubes overlap (unlike the trie covers of
// test_cover_prober.cpp): the front line, the containment pruning of tree nodes and the bit-sliced
// leaves must answer every care position with the value a linear scan gives.
#include <gtest/gtest.h>

#include <random>

#include "logic/pipeline.hpp"
#include "probe/cover_prober.hpp"
#include "support/env.hpp"

namespace egtmin::probe {
namespace {

store::CoverFile minimized_cover(const char* name) {
  auto t = test::shared_store().ensure(*Balance::parse(name));
  EXPECT_TRUE(t.ok()) << t.error().message;
  auto passes = logic::parse_passes("canon,compact,expand,irredundant");
  auto m = logic::minimize_table(**t, *passes, logic::MinimizeOptions{});
  EXPECT_TRUE(m.ok()) << m.error().message;
  store::CoverFile c;
  c.balance = (*t)->balance();
  c.inputs = (*t)->encoding().bits();
  c.canon = m->scheme;
  c.passes = "canon,compact,expand,irredundant";
  c.cubes = m->cover;
  return c;
}

logic::Output linear_output(const std::vector<logic::CubeWord>& cubes, logic::CubeWord minterm) {
  for (logic::CubeWord c : cubes)
    if (logic::contains(c, minterm)) return logic::output_of(c);
  return logic::Output::None;
}

// Every care position (legal representative) of the balance: the index's cube, the output the hot
// path reads from the slices, and the linear scan's output agree, at several memory budgets
// (including none, where the tree cannot split).
template <int K>
void check_index_on(const store::CoverFile& cover, const Table& table) {
  const Encoding& enc = table.encoding();
  const CoverCanon canon(enc, cover.canon);
  std::vector<uint64_t> queries;
  std::mt19937_64 rng(11);
  while (queries.size() < 20000) {
    const Placement p = enc.decode(rng() & (enc.size() - 1));
    if (enc.is_legal(p)) queries.push_back(enc.encode(canon.canonical(p).placement));
  }
  for (double copies : {1.0, 2.0, 8.0}) {
    const CubeIndex index(cover.cubes, cover.inputs, copies, 2.0, queries);
    EXPECT_GT(index.front_size(), 0);
    int bad = 0;
    uint64_t care = 0;
    for (uint64_t i = 0; i < enc.size() && bad < 5; ++i) {
      const Placement p = enc.decode(i);
      if (!enc.is_legal(p) || !canon.is_representative(p)) continue;
      ++care;
      const logic::CubeWord m = logic::minterm(i, cover.inputs);
      const logic::Output want = linear_output(cover.cubes, m);
      ASSERT_NE(want, logic::Output::None) << "the cover misses index " << i;
      const logic::CubeWord found = index.find(i, m);
      const bool ok = found != 0 && logic::contains(found, m) && logic::output_of(found) == want &&
                      index.find_output(i) == want && index.find_output_fixed<K>(i) == want;
      if (!ok && ++bad <= 3)
        ADD_FAILURE() << cover.balance.name() << " index " << i << " copies " << copies << ": linear " << int(want)
                      << ", indexed " << int(logic::output_of(found)) << "/" << int(index.find_output_fixed<K>(i));
    }
    EXPECT_EQ(bad, 0);
    EXPECT_GT(care, 10000u);
  }
}

TEST(CubeIndex, MinimizedThreePieceCoversEveryCarePosition) {
  for (const char* name : {"KRvK", "KPvK", "KQvK"}) {
    const store::CoverFile cover = minimized_cover(name);
    auto t = test::shared_store().ensure(cover.balance);
    ASSERT_TRUE(t.ok());
    check_index_on<3>(cover, **t);
  }
}

// Identical pieces (the compare-exchange in the hot path) and a 4-piece tree.
TEST(CubeIndex, MinimizedFourPieceCoverWithIdenticalPieces) {
  const store::CoverFile cover = minimized_cover("KNNvK");
  auto t = test::shared_store().ensure(cover.balance);
  ASSERT_TRUE(t.ok());
  check_index_on<4>(cover, **t);

  // And through the prober's hot path, from positions with the knights in either order.
  CoverProber prober;
  ASSERT_TRUE(prober.add(cover).ok());
  const Encoding& enc = (*t)->encoding();
  std::mt19937_64 rng(5);
  int probed = 0;
  while (probed < 20000) {
    const Placement p = enc.decode(rng() & (enc.size() - 1));
    if (!enc.is_legal(p)) continue;
    const Position pos = enc.position(p);
    const Wdl white = (*t)->value(p);
    const Wdl want = p.stm == White ? white : negate(white);
    ASSERT_EQ(prober.probe_wdl(pos, Method::Indexed), want) << pos.fen();
    ASSERT_EQ(prober.probe_wdl(pos, Method::Linear), want) << pos.fen();
    ++probed;
  }
}

TEST(CubeIndex, EmptyAndTinyCovers) {
  const CubeIndex empty(std::vector<logic::CubeWord>{}, 19, 2.0, 2.0, std::vector<uint64_t>{1, 2, 3});
  EXPECT_EQ(empty.find_output_fixed<3>(5), logic::Output::None);
  EXPECT_EQ(empty.find(5, logic::minterm(5, 19)), 0u);
  // One all-don't-care cube (KvK-like): every index answers with it.
  const logic::CubeWord all = logic::universe(logic::Output::Draw);
  const CubeIndex one(std::vector<logic::CubeWord>{all}, 13, 2.0, 2.0, std::vector<uint64_t>{7, 9});
  for (uint64_t i : {0ull, 77ull, 8191ull}) {
    EXPECT_EQ(one.find_output_fixed<2>(i), logic::Output::Draw);
    EXPECT_EQ(one.find(i, logic::minterm(i, 13)), all);
  }
}

}  // namespace
}  // namespace egtmin::probe
