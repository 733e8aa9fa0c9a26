// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/host.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

namespace egtmin {

namespace {

// The value of the first "key : value" line with this key ("" if none), as /proc/cpuinfo and
// /proc/meminfo write them.
std::string proc_field(const std::string& text, const std::string& key) {
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, end - at);
    at = end + 1;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
    if (name != key) continue;
    const size_t value = line.find_first_not_of(' ', colon + 1);
    return value == std::string::npos ? std::string() : line.substr(value);
  }
  return {};
}

}  // namespace

std::string describe_host(const std::string& cpuinfo, const std::string& meminfo, unsigned cores) {
  const std::string model_name = proc_field(cpuinfo, "model name");
  std::string cpu = model_name.empty() ? "unknown CPU" : model_name;
  const std::string family = proc_field(cpuinfo, "cpu family"), model = proc_field(cpuinfo, "model");
  if (!family.empty() && !model.empty()) {
    std::string flags = " ";
    flags.append(proc_field(cpuinfo, "flags")).append(" ");
    cpu.append(" (family ").append(family).append(", model ").append(model);
    cpu.append(flags.find(" avx512f ") != std::string::npos ? ", AVX-512)" : ", no AVX-512)");
  }
  std::string d = std::to_string(std::max(1u, cores)) + "-core " + cpu;
  const std::string total = proc_field(meminfo, "MemTotal");  // "24589120 kB"
  if (!total.empty()) {
    const double kib = std::atof(total.c_str());
    if (kib > 0) d += ", " + std::to_string(std::lround(kib / (1024.0 * 1024.0))) + " GiB";
  }
  return d;
}

std::string describe_host() {
  auto read = [](const char* path) {
    std::ifstream in(path);
    return in ? std::string(std::istreambuf_iterator<char>(in), {}) : std::string();
  };
  return describe_host(read("/proc/cpuinfo"), read("/proc/meminfo"), std::thread::hardware_concurrency());
}

}  // namespace egtmin
