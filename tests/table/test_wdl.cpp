// SPDX-License-Identifier: GPL-3.0-or-later
// The five values of the 50-move rule: negation, folding to win/draw/loss, order and names.
#include <gtest/gtest.h>

#include "table/table.hpp"

namespace egtmin {
namespace {

TEST(Wdl, FiveValuesNegateFoldAndOrder) {
  EXPECT_EQ(negate(Wdl::CursedWin), Wdl::BlessedLoss);
  EXPECT_EQ(negate(Wdl::BlessedLoss), Wdl::CursedWin);
  EXPECT_EQ(negate(Wdl::Draw), Wdl::Draw);
  EXPECT_EQ(fold(Wdl::CursedWin), Wdl::Win);
  EXPECT_EQ(fold(Wdl::BlessedLoss), Wdl::Loss);
  EXPECT_EQ(better(Wdl::CursedWin, Wdl::Win), Wdl::Win);
  EXPECT_EQ(better(Wdl::BlessedLoss, Wdl::Draw), Wdl::Draw);
  EXPECT_EQ(better(Wdl::BlessedLoss, Wdl::Loss), Wdl::BlessedLoss);
  EXPECT_EQ(better(Wdl::Illegal, Wdl::Loss), Wdl::Loss);
  EXPECT_EQ(wdl_score(Wdl::Loss), -2);
  EXPECT_EQ(wdl_score(Wdl::Win), 2);
  EXPECT_EQ(name_of(Wdl::CursedWin), "cursed win");
}

}  // namespace
}  // namespace egtmin
