// SPDX-License-Identifier: GPL-3.0-or-later
// The size ablation: each idea that might shrink the cover files, measured against the default
// covers on the same balances, in one run: per idea and balance the file's bytes, its cubes and the
// minimization's time, and per idea the indexed probe's batch mean beside Fathom's on the same
// positions. Each idea's covers go to their own directory (WORK/IDEA/covers, the tables shared by a
// link), so ideas never mix and a finished idea's covers stay for inspection.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "chess/balance.hpp"
#include "run/minimize_run.hpp"
#include "util/progress.hpp"
#include "util/result.hpp"

namespace egtmin::bench {

// One idea: what it changes in the minimize request the default covers are made with.
struct AblationIdea {
  std::string name;
  std::string description;
  std::function<void(run::MinimizeRequest&)> apply;
};
// Every idea, the default covers ("default") first: the one list the CLI, the docs and the GUI use.
const std::vector<AblationIdea>& ablation_ideas();
// The ideas run when none are named: all but those costing several times the default's CPU.
std::vector<std::string> default_ablation_ideas();

struct AblationBalance {
  Balance balance;
  uint64_t bytes = 0;  // the cover file
  uint64_t cubes = 0;  // stored in it
  double minimize_seconds = 0;
};

struct AblationRow {
  std::string idea, description;
  std::vector<AblationBalance> balances;
  uint64_t bytes = 0, cubes = 0;
  double minimize_seconds = 0;
  // Indexed probe and Fathom, batch means over the same random positions (0 without Syzygy files).
  double probe_ns = 0, fathom_ns = 0;
  uint64_t probe_positions = 0, probe_mismatches = 0;
};

struct AblationRequest {
  std::vector<Balance> balances;                // minimized for every idea (include what captures reach)
  std::filesystem::path data_dir;               // its tables/ (generated there first when missing)
  std::filesystem::path work_dir;               // WORK/IDEA/covers
  std::vector<std::string> ideas;               // empty: default_ablation_ideas()
  std::optional<std::filesystem::path> syzygy;  // for the probe timing
  int probe_pieces = 4;
  uint64_t probe_positions = 200'000;
  int threads = 0;
};

Result<std::vector<AblationRow>> run_ablation(const AblationRequest& request, const Progress& progress = no_progress());

}  // namespace egtmin::bench
