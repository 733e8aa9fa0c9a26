// SPDX-License-Identifier: GPL-3.0-or-later
// The probe memory levels (probe/probe_memory.hpp): names, and on real minimized covers opened from
// files, that every level answers as the table does, through both probe paths, while each level
// keeps less resident than the one before it.
#include <gtest/gtest.h>

#include <set>

#include "logic/pipeline.hpp"
#include "probe/cover_prober.hpp"
#include "probe/probe.hpp"
#include "probe/probe_memory.hpp"
#include "support/env.hpp"
#include "support/temp_dir.hpp"
#include "table/table_store.hpp"

namespace egtmin::probe {
namespace {

TEST(ProbeMemory, NamesParseAndErrorsListThem) {
  std::set<std::string_view> names;
  for (const ProbeMemoryLevel& l : probe_memory_levels()) {
    EXPECT_TRUE(names.insert(l.name).second) << l.name;
    EXPECT_FALSE(l.description.empty()) << l.name;
    auto parsed = parse_probe_memory(l.name);
    ASSERT_TRUE(parsed.ok()) << l.name;
    EXPECT_EQ(*parsed, l.level);
    EXPECT_EQ(probe_memory_level(l.level).name, l.name);
  }
  EXPECT_EQ(probe_memory_levels().front().level, kDefaultProbeMemory);  // most memory first
  EXPECT_EQ(probe_memory_names(), "fast or smallest");
  auto bad = parse_probe_memory("tiny");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("'tiny'"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find(probe_memory_names()), std::string::npos) << bad.error().message;
}

TEST(ProbeMemory, EveryLevelAnswersAsTheTableWithLessMemoryEachStep) {
  test::TempDir dir("probe-memory-test");
  const std::vector<const char*> names = {"KQvK", "KRvK", "KPvK"};
  for (const char* name : names) {
    auto t = test::shared_store().ensure(*Balance::parse(name));
    ASSERT_TRUE(t.ok()) << t.error().message;
    const char* pipeline = "canon,compact,expand,irredundant";
    auto m = logic::minimize_table(**t, *logic::parse_passes(pipeline), {});
    ASSERT_TRUE(m.ok()) << m.error().message;
    const store::CoverFile f{
        (**t).balance(),    (**t).encoding().bits(), m->scheme, pipeline, m->cover, {}, store::CoverKind::Standalone,
        logic::Output::None};
    ASSERT_TRUE(store::save_cover(store::cover_path(dir.path, f.balance), f).ok());
  }
  size_t previous = 0;
  for (const ProbeMemoryLevel& level : probe_memory_levels()) {
    OpenOptions options;
    options.memory = level.level;
    options.threads = 2;
    auto covers = Covers::open(dir.path, options);
    ASSERT_TRUE(covers.ok()) << covers.error().message;
    EXPECT_EQ(covers->stats().memory, level.level);
    EXPECT_EQ(covers->stats().balances.size(), names.size());
    const CoverProber& prober = covers->prober();
    for (const char* name : names) {
      const LoadedCover* lc = prober.cover(*Balance::parse(name));
      ASSERT_TRUE(lc) << name;
      EXPECT_EQ(lc->indexed(), level.max_copies != CoverProber::kNoIndex) << level.name << " " << name;
      const Table& t = **test::shared_store().ensure(*Balance::parse(name));
      const Encoding& enc = t.encoding();
      int bad = 0;
      for (uint64_t i = 0; i < enc.size() && bad < 5; ++i) {  // every legal position
        const Placement p = enc.decode(i);
        if (!enc.is_legal(p)) continue;
        const Position pos = enc.position(p);
        const Wdl expect = p.stm == White ? t.value(p) : negate(t.value(p));
        auto full = covers->probe(pos);
        const Wdl fast = covers->probe_wdl(pos);
        // A cover without an index scans its cubes whatever method is asked for.
        const Wdl indexed = prober.probe_wdl(pos, Method::Indexed);
        if (!full.ok() || full->wdl != expect || fast != expect || indexed != expect)
          if (++bad < 3)
            ADD_FAILURE() << level.name << " " << pos.fen() << ": " << (full.ok() ? name_of(full->wdl) : "error")
                          << " / " << name_of(fast) << " / " << name_of(indexed) << ", table " << name_of(expect);
      }
      EXPECT_EQ(bad, 0) << level.name << " " << name;
    }
    const size_t bytes = covers->stats().memory_bytes;
    EXPECT_GT(bytes, 0u) << level.name;
    if (previous) {
      EXPECT_LT(bytes, previous) << level.name;
    }
    previous = bytes;
  }
}

}  // namespace
}  // namespace egtmin::probe
