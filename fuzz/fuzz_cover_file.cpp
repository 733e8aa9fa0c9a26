// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the cover-file reader (store::parse_cover) on arbitrary bytes. It must return
// a cover or an error, never crash, hang or read out of bounds; a cover it accepts must survive
// being written and read back.
#include <cstddef>
#include <cstdint>
#include <span>

#include "store/cover_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto c = egtmin::store::parse_cover(std::span<const uint8_t>(data, size), "fuzz");
  if (c) {
    auto again = egtmin::store::parse_cover(egtmin::store::serialize_cover(*c), "round trip");
    if (!again || again->cubes.size() != c->cubes.size()) __builtin_trap();
  }
  return 0;
}
