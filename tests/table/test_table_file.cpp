// SPDX-License-Identifier: GPL-3.0-or-later
// The table file: all five values kept, a round trip, damage refused by name, and a file of the
// format before the five values regenerated rather than used.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "support/env.hpp"
#include "table/symmetry.hpp"
#include "table/table_store.hpp"
#include "util/atomic_file.hpp"

namespace egtmin {
namespace {

TEST(TableFile, KeepsAllFiveValues) {
  Table t(Balance::parse("KRvK").value());
  const Wdl values[] = {Wdl::Win, Wdl::CursedWin, Wdl::Draw, Wdl::BlessedLoss, Wdl::Loss, Wdl::Illegal};
  for (uint64_t s = 0; s < 64; ++s) t.set_slot(s, values[s % 6]);
  auto back = Table::deserialize(t.serialize(), "memory");
  ASSERT_TRUE(back.ok()) << back.error().message;
  for (uint64_t s = 0; s < 64; ++s) EXPECT_EQ(back->at_slot(s), values[s % 6]) << s;
}

// A table written before the five values is refused with a message that says to regenerate, and
// the store regenerates it rather than use it.
TEST(TableFile, OlderFormatIsRegenerated) {
  const auto dir = std::filesystem::path(EGTMIN_TEST_DATA) / "older-format";
  std::filesystem::remove_all(dir);
  TableStore store(dir);
  ASSERT_TRUE(store.ensure(Balance::parse("KRvK").value()).ok());
  const auto path = store.path_for(Balance::parse("KRvK").value());
  auto bytes = read_file(path).value();
  const uint32_t old_version = 1;
  std::memcpy(bytes.data() + 8, &old_version, 4);
  ASSERT_TRUE(write_file_atomically(path, bytes).ok());
  EXPECT_TRUE(Table::is_older_format(path));
  auto loaded = Table::load(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().message.find("regenerate"), std::string::npos) << loaded.error().message;
  EXPECT_NE(loaded.error().message.find("cursed"), std::string::npos) << loaded.error().message;
  TableStore fresh(dir);
  auto t = fresh.ensure(Balance::parse("KRvK").value());
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_FALSE(Table::is_older_format(path));
  std::filesystem::remove_all(dir);
}

TEST(TableFile, RoundTripsAndRejectsDamage) {
  const Table& t = test::shared_table("KRvK");
  auto bytes = t.serialize();
  auto back = Table::deserialize(bytes, "mem");
  ASSERT_TRUE(back.ok()) << back.error().message;
  for (uint64_t s = 0; s < t.slots(); s += 7) ASSERT_EQ(back->at_slot(s), t.at_slot(s));

  auto truncated = bytes;
  truncated.resize(bytes.size() - 3);
  auto r1 = Table::deserialize(truncated, "mem");
  ASSERT_FALSE(r1.ok());
  EXPECT_NE(r1.error().message.find("truncated"), std::string::npos);

  auto flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  auto r2 = Table::deserialize(flipped, "mem");
  ASSERT_FALSE(r2.ok());
  EXPECT_NE(r2.error().message.find("checksum"), std::string::npos);

  auto version = bytes;
  version[8] = 99;
  EXPECT_NE(Table::deserialize(version, "mem").error().message.find("version"), std::string::npos);
  auto magic = bytes;
  magic[0] = 'X';
  EXPECT_NE(Table::deserialize(magic, "mem").error().message.find("magic"), std::string::npos);

  // A header naming a big balance with its piece and slot counts, on a file of the small one's
  // size: refused by its size before anything is allocated (the fuzzer found the reader
  // allocating the named table first, which for 7 pieces is terabytes).
  auto big = bytes;
  const Balance huge = *Balance::parse("KQRBvKQR");
  std::memset(big.data() + 16, 0, 16);
  std::memcpy(big.data() + 16, huge.name().data(), huge.name().size());
  const uint32_t pieces = 7;
  std::memcpy(big.data() + 12, &pieces, sizeof pieces);
  const uint64_t slots = Symmetry(Encoding(huge)).domain_size();
  std::memcpy(big.data() + 32, &slots, sizeof slots);
  auto r3 = Table::deserialize(big, "mem");
  ASSERT_FALSE(r3.ok());
  EXPECT_NE(r3.error().message.find("truncated"), std::string::npos) << r3.error().message;
}

}  // namespace
}  // namespace egtmin
