// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/progress.hpp"

namespace egtmin {

std::string progress_label(const ProgressEvent& e) {
  // A pass's detail already names it ("expand (3/4)"); other stages read "generate: KQvK".
  if (e.detail.empty()) return std::string(name_of(e.stage));
  if (e.stage == Stage::Pass) return std::string(e.detail);
  return std::string(name_of(e.stage)) + ": " + std::string(e.detail);
}

}  // namespace egtmin
