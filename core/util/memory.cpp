// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/memory.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace egtmin {

namespace {

// The kB figure of the line starting with `key` in a /proc file such as /proc/meminfo, in bytes.
uint64_t proc_kb_field(const char* file, const char* key) {
  std::FILE* f = std::fopen(file, "r");
  if (!f) return 0;
  char line[256];
  uint64_t kb = 0;
  const size_t n = std::strlen(key);
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, key, n) == 0) {
      kb = std::strtoull(line + n, nullptr, 10);
      break;
    }
  std::fclose(f);
  return kb * 1024;
}

}  // namespace

uint64_t peak_memory_bytes() { return proc_kb_field("/proc/self/status", "VmHWM:"); }

bool reset_peak_memory() {
  std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
  if (!f) return false;
  const bool ok = std::fputs("5", f) >= 0;
  return std::fclose(f) == 0 && ok;
}

uint64_t available_memory_bytes() { return proc_kb_field("/proc/meminfo", "MemAvailable:"); }

uint64_t total_memory_bytes() { return proc_kb_field("/proc/meminfo", "MemTotal:"); }

Result<uint64_t> parse_byte_size(std::string_view text) {
  const std::string t(text);
  const auto bad = [&] {
    return Error{"'" + t + "' is not a size: give bytes, or a number with K, M, G or T (for example 12G)"};
  };
  if (t.empty()) return bad();
  char* end = nullptr;
  const double number = std::strtod(t.c_str(), &end);
  if (end == t.c_str() || !(number >= 0)) return bad();
  std::string unit(end);
  for (char& c : unit) c = char(std::toupper(static_cast<unsigned char>(c)));
  if (unit.size() > 1 && (unit.substr(1) == "B" || unit.substr(1) == "IB")) unit.resize(1);
  double scale = 1;
  if (unit.empty() || unit == "B")
    scale = 1;
  else if (unit == "K")
    scale = 1024.0;
  else if (unit == "M")
    scale = 1024.0 * 1024;
  else if (unit == "G")
    scale = 1024.0 * 1024 * 1024;
  else if (unit == "T")
    scale = 1024.0 * 1024 * 1024 * 1024;
  else
    return bad();
  const double bytes = number * scale;
  if (bytes >= 1.8e19) return bad();
  return uint64_t(bytes);
}

}  // namespace egtmin
