// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the PLA reader (logic::parse_pla) on arbitrary text: a cover or an error
// naming the line, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "logic/pla.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto p = egtmin::logic::parse_pla(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
  (void)p;
  return 0;
}
