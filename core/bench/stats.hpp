// SPDX-License-Identifier: GPL-3.0-or-later
// Summary statistics of per-probe times.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace egtmin::bench {

struct TimeStats {
  double mean_ns = 0, sd_ns = 0, median_ns = 0, p99_ns = 0, total_s = 0;
};

inline TimeStats summarize(std::vector<uint32_t> ns) {  // by value: sorted here
  TimeStats s;
  if (ns.empty()) return s;
  double sum = 0, sq = 0;
  for (uint32_t v : ns) sum += v, sq += double(v) * v;
  const double n = double(ns.size());
  s.mean_ns = sum / n;
  s.sd_ns = std::sqrt(std::max(0.0, sq / n - s.mean_ns * s.mean_ns));
  s.total_s = sum * 1e-9;
  auto at = [&](double q) {
    auto k = size_t(std::min(n - 1, std::floor(q * (n - 1))));
    std::nth_element(ns.begin(), ns.begin() + long(k), ns.end());
    return double(ns[k]);
  };
  s.median_ns = at(0.5);
  s.p99_ns = at(0.99);
  return s;
}

}  // namespace egtmin::bench
