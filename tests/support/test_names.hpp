// SPDX-License-Identifier: GPL-3.0-or-later
// Names for the instances of value-parameterized tests. GoogleTest's default suffix is the
// instance's index, and CMake's gtest_discover_tests names the ctest test after the printed
// parameter instead (raw bytes for a struct, addresses for a const char*): unreadable and
// different from build to build. Every INSTANTIATE_TEST_SUITE_P passes a name generator built
// from these, so the ctest names read like the case and are the same in every build.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace egtmin::test {

// `text` as a GoogleTest name (letters, digits and '_' only): every run of other characters
// becomes one '_', none at either end; "empty" for a text with no letter or digit.
inline std::string test_name(std::string_view text) {
  std::string out;
  bool gap = false;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      if (gap && !out.empty()) out += '_';
      out += c;
      gap = false;
    } else {
      gap = true;
    }
  }
  return out.empty() ? "empty" : out;
}

}  // namespace egtmin::test
