// SPDX-License-Identifier: GPL-3.0-or-later
// The generated tables against Syzygy's: every legal position of the 3-piece balances, a
// deterministic sample of 4-piece ones (skipped, saying why, without Syzygy's files).
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <string>

#include "probe/syzygy.hpp"
#include "support/env.hpp"
#include "support/test_names.hpp"
#include "table/verify.hpp"

namespace egtmin {
namespace {

struct SyzygyCase {
  const char* balance;
  uint64_t stride;  // compare every stride-th index
};

void PrintTo(const SyzygyCase& c, std::ostream* os) { *os << c.balance << " every " << c.stride; }

class AgainstSyzygy : public ::testing::TestWithParam<SyzygyCase> {};

TEST_P(AgainstSyzygy, NoMismatch) {
  EGTMIN_REQUIRE_SYZYGY();
  auto syz = Syzygy::open(test::syzygy_dir());
  ASSERT_TRUE(syz.ok()) << syz.error().message;
  VerifyOptions o;
  o.stride = GetParam().stride;
  VerifyReport r = verify_against_syzygy(test::shared_table(GetParam().balance), **syz, o);
  EXPECT_GT(r.positions, 0u);
  EXPECT_EQ(r.mismatches, 0u) << (r.examples.empty() ? "" : r.examples.front());
}

// Three pieces: every legal position. Four pieces: a deterministic sample (every Nth index).
std::string balance_name(const ::testing::TestParamInfo<SyzygyCase>& info) {
  return test::test_name(info.param.balance);
}
INSTANTIATE_TEST_SUITE_P(ThreePieceExhaustive, AgainstSyzygy,
                         ::testing::Values(SyzygyCase{"KQvK", 1}, SyzygyCase{"KRvK", 1}, SyzygyCase{"KBvK", 1},
                                           SyzygyCase{"KNvK", 1}, SyzygyCase{"KPvK", 1}),
                         balance_name);
INSTANTIATE_TEST_SUITE_P(FourPieceSampled, AgainstSyzygy,
                         ::testing::Values(SyzygyCase{"KQvKR", 31}, SyzygyCase{"KPvKP", 7}, SyzygyCase{"KRvKP", 31},
                                           SyzygyCase{"KBNvK", 31}, SyzygyCase{"KRRvK", 31}, SyzygyCase{"KNvKP", 31}),
                         balance_name);

}  // namespace
}  // namespace egtmin
