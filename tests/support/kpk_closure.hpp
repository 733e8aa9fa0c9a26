// SPDX-License-Identifier: GPL-3.0-or-later
// The smallest set of balances a capture search can run in: KPvK and every balance its captures
// and promotions reach. Tests of capture-resolved covers make their covers from this request.
#pragma once

#include <filesystem>

#include "logic/pass_sequence.hpp"
#include "run/minimize_run.hpp"

namespace egtmin::test {

// A minimize request, with the default passes, for KvK, KQvK, KRvK, KBvK, KNvK and KPvK under `dir`.
inline run::MinimizeRequest kpk_closure_request(const std::filesystem::path& dir,
                                                store::CoverKind kind = store::CoverKind::CaptureResolved) {
  run::MinimizeRequest r;
  for (const char* b : {"KvK", "KQvK", "KRvK", "KBvK", "KNvK", "KPvK"}) r.balances.push_back(*Balance::parse(b));
  r.passes = logic::default_passes();
  r.kind = kind;
  r.data_dir = dir;
  return r;
}

}  // namespace egtmin::test
