// SPDX-License-Identifier: GPL-3.0-or-later
// Byte sizes as users type them (--memory-limit and the like), and the machine's memory as the
// run plan reads it.
#include <gtest/gtest.h>

#include <cstdint>

#include "util/memory.hpp"

namespace {

using namespace egtmin;

TEST(ByteSize, ReadsSizesAsUsersTypeThem) {
  EXPECT_EQ(*parse_byte_size("4096"), 4096u);
  EXPECT_EQ(*parse_byte_size("12G"), uint64_t{12} << 30);
  EXPECT_EQ(*parse_byte_size("12GiB"), uint64_t{12} << 30);
  EXPECT_EQ(*parse_byte_size("1.5g"), uint64_t{3} << 29);
  EXPECT_EQ(*parse_byte_size("800M"), uint64_t{800} << 20);
  for (const char* bad : {"", "G", "12X", "-1G", "twelve"}) {
    auto r = parse_byte_size(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().message.find("not a size"), std::string::npos);
  }
  EXPECT_GT(total_memory_bytes(), 0u);
  EXPECT_GT(available_memory_bytes(), 0u);
  EXPECT_LE(available_memory_bytes(), total_memory_bytes());
}

}  // namespace
