// SPDX-License-Identifier: GPL-3.0-or-later
// The indexed probe on minimized covers, whose cubes overlap (unlike the trie covers of
// test_cover_prober.cpp): the front line, the containment pruning of tree nodes and the bit-sliced
// leaves must answer every care position with the value a linear scan gives.
#include <gtest/gtest.h>

#include <bit>
#include <memory>
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
// (including none, where the tree cannot split), with either kind of leaf rows.
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
  for (const LeafRows rows : {LeafRows::Values, LeafRows::Inputs})
    for (double copies : {1.0, 2.0, 8.0}) {
      const CubeIndex index(cover.cubes, cover.inputs, copies, 2.0, queries, CubeIndex::kFront, rows);
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
          ADD_FAILURE() << cover.balance.name() << " index " << i << " copies " << copies << " rows " << int(rows)
                        << ": linear " << int(want) << ", indexed " << int(logic::output_of(found)) << "/"
                        << int(index.find_output_fixed<K>(i));
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

// A leaf of input rows: fewer words than one of value rows for the same cubes, read back from its state and words it
// answers every index as built, and a layout whose block header names an input the cover does not have, or whose blocks
// run past the words, is refused.
TEST(CubeIndex, InputRowsTakeFewerWordsAndAreReadBackOrRefused) {
  const store::CoverFile cover = minimized_cover("KBNvK");
  auto t = test::shared_store().ensure(cover.balance);
  ASSERT_TRUE(t.ok());
  const Encoding& enc = (*t)->encoding();
  std::vector<uint64_t> queries;
  std::mt19937_64 rng(3);
  for (int n = 0; n < 5000; ++n) queries.push_back(rng() & (enc.size() - 1));
  const CubeIndex values(cover.cubes, cover.inputs, 1.0, 2.0, queries, 64, LeafRows::Values);
  const CubeIndex inputs(cover.cubes, cover.inputs, 1.0, 2.0, queries, 64, LeafRows::Inputs);
  auto leaf_words = [](const CubeIndex& index) {
    return index.hot_words().size() - size_t(index.hot().slices - index.hot_words().data());
  };
  EXPECT_LT(leaf_words(inputs) * 3, leaf_words(values) * 2);

  ByteWriter w;
  inputs.save_state(w);
  auto read_back = [&](std::span<const uint64_t> words) {
    auto index = std::make_unique<CubeIndex>();
    ByteReader r(w.bytes());
    index->load_state(r);
    EXPECT_TRUE(r.ok());
    return index->attach_hot_words(words) ? std::move(index) : nullptr;
  };
  const std::vector<uint64_t> words(inputs.hot_words().begin(), inputs.hot_words().end());
  const auto stored = read_back(words);
  ASSERT_TRUE(stored);
  int differ = 0;
  // Read back, every index alike; against the value rows, the care positions (elsewhere the first
  // cube found may be another, of another output).
  const CoverCanon canon(enc, cover.canon);
  for (uint64_t i = 0; i < enc.size() && differ < 3; ++i) {
    const Placement p = enc.decode(i);
    const bool care = enc.is_legal(p) && canon.is_representative(p);
    if (stored->find_output_fixed<4>(i) != inputs.find_output(i) ||
        (care && values.find_output(i) != inputs.find_output(i)))
      ++differ, ADD_FAILURE() << "index " << i;
  }
  EXPECT_EQ(differ, 0);

  // The leaf is the root (one leaf, no copies). Its blocks' headers, second of each block's two
  // words in the directory after the leaf's two.
  const CubeIndex::Hot hot = stored->hot();
  ASSERT_TRUE(CubeIndex::is_leaf(hot.root));
  ASSERT_EQ(CubeIndex::leaf_rows(hot.root), LeafRows::Inputs);
  const size_t leaf = size_t(hot.slices - words.data()) + size_t(CubeIndex::leaf_offset(hot.root));
  const size_t blocks = CubeIndex::leaf_blocks(hot.root);
  std::vector<size_t> heads;
  for (size_t b = 0; b < blocks; ++b) heads.push_back(leaf + 2 + 2 * b + 1);
  ASSERT_GT(heads.size(), 2u);
  std::vector<uint64_t> damaged = words;
  damaged[heads[0]] |= uint64_t{1} << (2 * cover.inputs);
  EXPECT_FALSE(read_back(damaged));
  damaged = words;
  damaged[heads.back()] |= (uint64_t{1} << (2 * cover.inputs)) - 1;  // every row stored: past the words
  ASSERT_NE(damaged[heads.back()], words[heads.back()]);
  EXPECT_FALSE(read_back(damaged));
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
