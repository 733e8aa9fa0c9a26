// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <vector>

#include "util/atomic_file.hpp"
#include "util/mapped_file.hpp"

namespace egtmin {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const char* name) {
  const fs::path dir = fs::temp_directory_path() / "egtmin_test_mapped_file";
  fs::create_directories(dir);
  return dir / name;
}

std::vector<uint8_t> pattern(size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = uint8_t(i * 131 + (i >> 12));
  return v;
}

TEST(MappedFile, SmallFileMapsWhole) {
  const fs::path p = scratch("small.bin");
  const auto data = pattern(5000);
  ASSERT_TRUE(write_file_atomically(p, data));
  auto m = MappedFile::open(p);
  ASSERT_TRUE(m) << m.error().message;
  ASSERT_EQ(m->size(), data.size());
  EXPECT_TRUE(std::equal(data.begin(), data.end(), m->bytes().begin()));
}

// A file of huge-page size or more starts at a 2 MiB boundary (where a 2 MiB page can map it),
// reads back exactly, including the partial 4 KiB page at its end, and still does after its
// cached pages were dropped.
TEST(MappedFile, LargeFileMapsAtHugePageBoundary) {
  const fs::path p = scratch("large.bin");
  const auto data = pattern(MappedFile::kHugePage * 2 + 12345);
  ASSERT_TRUE(write_file_atomically(p, data));
  MappedFile::forget_cached_pages(p);
  std::vector<MappedFile> maps;  // several at once: each aligned, none overlapping the others
  for (int i = 0; i < 3; ++i) {
    auto m = MappedFile::open(p);
    ASSERT_TRUE(m) << m.error().message;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(m->bytes().data()) % MappedFile::kHugePage, 0u);
    ASSERT_EQ(m->size(), data.size());
    EXPECT_TRUE(std::equal(data.begin(), data.end(), m->bytes().begin()));
    maps.push_back(std::move(*m));
  }
  maps.clear();  // unmapped: opening again still works
  auto again = MappedFile::open(p);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->bytes()[data.size() - 1], data.back());
}

TEST(MappedFile, MissingAndEmptyFilesNameTheProblem) {
  const fs::path missing = scratch("missing.bin");
  fs::remove(missing);
  auto m = MappedFile::open(missing);
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("cannot open"), std::string::npos) << m.error().message;
  const fs::path empty = scratch("empty.bin");
  ASSERT_TRUE(write_file_atomically(empty, std::vector<uint8_t>{}));
  auto e = MappedFile::open(empty);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("empty file"), std::string::npos) << e.error().message;
  MappedFile::forget_cached_pages(missing);  // best effort: nothing to do, no error
}

}  // namespace
}  // namespace egtmin
