// SPDX-License-Identifier: GPL-3.0-or-later
// The smallest set of balances a capture search can run in: KPvK and every balance its captures
// and promotions reach. Tests of capture-resolved covers make their covers from this request.
#pragma once

#include <filesystem>
#include <string>

#include "logic/pass_sequence.hpp"
#include "probe/probe_layout.hpp"
#include "run/minimize_run.hpp"
#include "store/cover_file.hpp"

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

// KRvKN's capture-resolved cover and the covers its search reaches (KvK, KRvK, KNvK) made under
// `dir`, then KRvKN's layout with regions that leave positions in check to the evasion search
// (some of KRvKN's do). Empty when all went well, else what failed.
inline std::string make_krkn_searching_evasions(const std::filesystem::path& dir) {
  run::MinimizeRequest r = kpk_closure_request(dir);
  r.balances.clear();
  for (const char* b : {"KvK", "KRvK", "KNvK", "KRvKN"}) r.balances.push_back(*Balance::parse(b));
  auto made = run::run_minimize(r);
  if (!made) return made.error().message;
  if (!made->ok()) return "minimize of the KRvKN closure failed";
  const auto cover = store::cover_path(dir, *Balance::parse("KRvKN"), store::CoverKind::CaptureResolved);
  if (auto st = probe::make_layout(cover, 2, probe::CheckEvasions::Searched); !st) return st.error().message;
  return {};
}

}  // namespace egtmin::test
