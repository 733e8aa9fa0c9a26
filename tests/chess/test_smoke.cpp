// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include "chess/position.hpp"

TEST(Smoke, ParsesFen) { EXPECT_TRUE(egtmin::Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1").ok()); }
