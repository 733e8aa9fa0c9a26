// SPDX-License-Identifier: GPL-3.0-or-later
// The table store: what making a table's dependencies keeps in memory.
#include <gtest/gtest.h>

#include <filesystem>

#include "table/table_store.hpp"

namespace egtmin {
namespace {

// Making a table's dependencies keeps in memory only the successors of the table being made
// (and whatever the caller had loaded): a closure batch of five-piece tables, half a gigabyte
// each, held every table it made until it outgrew the machine.
TEST(TableStore, EnsureKeepsOnlyWhatTheNextTableNeeds) {
  const auto dir = std::filesystem::path(EGTMIN_TEST_DATA) / "store-eviction";
  std::filesystem::remove_all(dir);
  TableStore store(dir);
  const Balance kqvk = Balance::parse("KQvK").value();
  ASSERT_TRUE(store.ensure(kqvk).ok());
  store.unload_all();
  ASSERT_TRUE(store.get(kqvk).ok());  // what the caller holds
  const Balance krvkn = Balance::parse("KRvKN").value();
  ASSERT_TRUE(store.ensure(krvkn).ok());
  EXPECT_TRUE(store.on_disk(Balance::parse("KvK").value()));
  EXPECT_FALSE(store.is_loaded(Balance::parse("KvK").value())) << "KvK is no successor of KRvKN";
  EXPECT_TRUE(store.is_loaded(Balance::parse("KRvK").value()));
  EXPECT_TRUE(store.is_loaded(krvkn));
  EXPECT_TRUE(store.is_loaded(kqvk)) << "loaded before the call: the caller may hold it";
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace egtmin
