// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the table-file reader (Table::deserialize) on arbitrary bytes: a table or an
// error, never a crash, and never an allocation the file's size does not back.
#include <cstddef>
#include <cstdint>
#include <span>

#include "table/table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto t = egtmin::Table::deserialize(std::span<const uint8_t>(data, size), "fuzz");
  if (t) (void)t->counts();
  return 0;
}
