// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/defaults.hpp"

#include <algorithm>
#include <thread>

namespace egtmin {

int default_threads() { return int(std::max(1u, std::thread::hardware_concurrency())); }

int resolve_threads(int requested) { return requested > 0 ? requested : default_threads(); }

}  // namespace egtmin
