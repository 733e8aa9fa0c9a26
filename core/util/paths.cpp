// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/paths.hpp"

#include <cstdlib>

namespace egtmin {

std::filesystem::path default_data_dir() {
  if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x) return std::filesystem::path(x) / "egtmin";
  if (const char* h = std::getenv("HOME"); h && *h) return std::filesystem::path(h) / ".local/share/egtmin";
  return std::filesystem::path(".egtmin");
}

std::filesystem::path syzygy_dir_from_env(const std::filesystem::path& fallback) {
  if (const char* s = std::getenv("EGTMIN_SYZYGY"); s && *s) return s;
  return fallback;
}

}  // namespace egtmin
