// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/progress.hpp"

namespace egtmin {

std::string_view stage_name(Stage s) {
  switch (s) {
    case Stage::Generate: return "generate";
    case Stage::Verify: return "verify";
    case Stage::SelfCheck: return "self-check";
    case Stage::CareSet: return "care set";
    case Stage::Pass: return "pass";
    case Stage::Save: return "save";
    case Stage::Check: return "check";
    case Stage::LoadCovers: return "loading covers";
    case Stage::Sample: return "sampling";
    case Stage::CompareAnchor: return "checking against Fathom";
    case Stage::Time: return "timing";
    case Stage::Summarize: return "summarizing";
    case Stage::Sizes: return "sizes";
  }
  return "working";
}

std::string progress_label(const ProgressEvent& e) {
  // A pass's detail already names it ("expand (3/4)"); other stages read "generate: KQvK".
  if (e.detail.empty()) return std::string(stage_name(e.stage));
  if (e.stage == Stage::Pass) return std::string(e.detail);
  return std::string(stage_name(e.stage)) + ": " + std::string(e.detail);
}

}  // namespace egtmin
