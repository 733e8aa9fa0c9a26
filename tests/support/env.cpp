// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/env.hpp"

#include <cstdlib>
#include <stdexcept>

namespace egtmin::test {

std::filesystem::path syzygy_dir() {
  std::filesystem::path p;
  if (const char* e = std::getenv("EGTMIN_SYZYGY"); e && *e)
    p = e;
  else
    p = std::filesystem::path(EGTMIN_SOURCE_DIR) / ".." / "shared" / "syzygy";
  std::error_code ec;
  if (!std::filesystem::exists(p / "KQvK.rtbw", ec)) return {};
  return std::filesystem::canonical(p, ec);
}

std::string syzygy_missing_message() {
  return "Syzygy tables not found (looked in $EGTMIN_SYZYGY, then ../shared/syzygy beside the source tree): "
         "comparisons with Syzygy are skipped";
}

std::filesystem::path test_data_dir() {
  const char* env = std::getenv("EGTMIN_TEST_DATA");
  return env && *env ? std::filesystem::path(env) : std::filesystem::path(EGTMIN_TEST_DATA);
}

TableStore& shared_store() {
  // One directory per build tree, shared by every test process (ctest runs each test alone):
  // tables are generated once and written atomically, so concurrent tests are safe.
  static TableStore store(test_data_dir());
  return store;
}

TableLookup shared_lookup() {
  return [](const Balance& b) -> const Table* {
    auto r = shared_store().ensure(b);
    return r ? *r : nullptr;
  };
}

const Table& shared_table(const std::string& balance) {
  auto b = Balance::parse(balance);
  if (!b) throw std::invalid_argument(b.error().message);
  auto t = shared_store().ensure(*b);
  if (!t) throw std::runtime_error(t.error().message);
  return **t;
}

}  // namespace egtmin::test
