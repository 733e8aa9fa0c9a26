// SPDX-License-Identifier: GPL-3.0-or-later
// Shared test fixtures: where Syzygy is, and a data directory of generated tables that all tests
// in one run share (generated once, lazily).
#pragma once

#include <filesystem>
#include <string>

#include "table/table_store.hpp"

namespace egtmin::test {

// $EGTMIN_SYZYGY, else ../shared/syzygy beside the source tree; empty when absent.
std::filesystem::path syzygy_dir();
// The reason Syzygy tests are skipped, stated plainly.
std::string syzygy_missing_message();

// The build tree's test-data directory, or $EGTMIN_TEST_DATA (the sanitizer scripts reuse tables
// and covers a plain build made, rather than generating them at a sanitizer's speed).
std::filesystem::path test_data_dir();
// A TableStore over test_data_dir().
TableStore& shared_store();
// Its tables as generate, self_check and resolve_captures look them up (made on first use).
TableLookup shared_lookup();
// Its table of a balance named as Balance::parse reads it, made on first use; throws (a failed
// test) when the name or the table is bad.
const Table& shared_table(const std::string& balance);

}  // namespace egtmin::test

#define EGTMIN_REQUIRE_SYZYGY()                                                                         \
  do {                                                                                                  \
    if (::egtmin::test::syzygy_dir().empty()) GTEST_SKIP() << ::egtmin::test::syzygy_missing_message(); \
  } while (0)

// For the tests whose five-piece covers are made from parts of Syzygy's KRPvKR file
// (test::syzygy_parts): declares `syz` (the Syzygy directory), `krpkr`, `enc` and `canon` (the full
// scheme), and skips the test where the directory or the file is missing.
#define EGTMIN_KRPKR_FROM_SYZYGY()                                                                   \
  EGTMIN_REQUIRE_SYZYGY();                                                                           \
  auto syz = ::egtmin::Syzygy::open(::egtmin::test::syzygy_dir());                                   \
  ASSERT_TRUE(syz.ok()) << syz.error().message;                                                      \
  const ::egtmin::Balance krpkr = *::egtmin::Balance::parse("KRPvKR");                               \
  if (!(*syz)->has_wdl(krpkr)) GTEST_SKIP() << "no KRPvKR.rtbw in " << ::egtmin::test::syzygy_dir(); \
  const ::egtmin::Encoding enc(krpkr);                                                               \
  const ::egtmin::CoverCanon canon(enc, ::egtmin::CanonScheme::Full)
