// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <ostream>

#include "chess/balance.hpp"
#include "support/test_names.hpp"
#include "util/defaults.hpp"

namespace egtmin {
namespace {

TEST(Balance, ParsesAndNames) {
  auto b = Balance::parse("krpvkr");
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(b->name(), "KRPvKR");
  EXPECT_EQ(b->pieces(), 5);
  EXPECT_TRUE(b->has_pawns());
  EXPECT_EQ(Balance::parse("KQ-KR")->name(), "KQvKR");
}

TEST(Balance, CanonicalFormIsSyzygys) {
  auto canon = [](const char* n) { return Balance::parse(n)->canonical().name(); };
  EXPECT_EQ(canon("KvKR"), "KRvK");
  EXPECT_EQ(canon("KRvKQ"), "KQvKR");
  EXPECT_EQ(canon("KNvKB"), "KBvKN");
  EXPECT_EQ(canon("KPvKN"), "KNvKP");
  EXPECT_EQ(canon("KRvKQR"), "KQRvKR");
  EXPECT_EQ(canon("KQvKQ"), "KQvKQ");
  EXPECT_TRUE(Balance::parse("KQvKQ")->is_symmetric());
  EXPECT_FALSE(Balance::parse("KQvKR")->is_symmetric());
}

TEST(Balance, AllUpToFourMatchesSyzygysSet) {
  auto all = Balance::all_up_to(4);
  EXPECT_EQ(all.size(), 36u);  // KvK plus the 35 three- and four-piece tables
  EXPECT_EQ(all.front().name(), "KvK");
  EXPECT_EQ(Balance::all_up_to(5).size(), 36u + 110u);  // Syzygy has 110 five-piece tables
}

TEST(Balance, OfPosition) {
  auto p = Position::from_fen("8/8/8/8/8/2k5/3r4/KQ6 w - - 0 1");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(Balance::of(*p).name(), "KQvKR");
  EXPECT_EQ(Balance::of(p->color_flipped()).name(), "KRvKQ");
}

struct BadBalance {
  const char* name;
  const char* expect;  // a substring the message must contain
};

void PrintTo(const BadBalance& b, std::ostream* os) { *os << '"' << b.name << "\" (expect \"" << b.expect << "\")"; }

class BalanceErrors : public ::testing::TestWithParam<BadBalance> {};

TEST_P(BalanceErrors, NamesTheProblem) {
  auto b = Balance::parse(GetParam().name);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find(GetParam().expect), std::string::npos) << b.error().message;
}

INSTANTIATE_TEST_SUITE_P(All, BalanceErrors,
                         ::testing::Values(BadBalance{"KRK", "separated by 'v'"}, BadBalance{"KRvKvK", "more than one"},
                                           BadBalance{"KXvK", "unknown piece letter 'X'"},
                                           BadBalance{"RvK", "White needs exactly one king"},
                                           BadBalance{"KvKK", "Black needs exactly one king"},
                                           BadBalance{"vK", "White's side is empty"},
                                           BadBalance{"KQQQQvKRRR", "more pieces than supported"}),
                         [](const ::testing::TestParamInfo<BadBalance>& p) { return test::test_name(p.param.name); });

// One check, read by the CLI, the GUI, the run services and the cluster: 2 to 5 pieces.
TEST(Balance, SupportedPieceCounts) {
  for (const Balance& b : Balance::all_up_to(kMaxSupportedPieces)) {
    EXPECT_TRUE(is_supported(b)) << b.name();
    EXPECT_TRUE(check_supported(b)) << b.name();
  }
  const Balance six = *Balance::parse("KQRBNvK");
  EXPECT_FALSE(is_supported(six));
  const Status s = check_supported(six);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "KQRBNvK has 6 pieces; egtmin handles 2 to 5");
}

}  // namespace
}  // namespace egtmin
