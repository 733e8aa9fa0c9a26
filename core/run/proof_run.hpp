// SPDX-License-Identifier: GPL-3.0-or-later
// The one proving pipeline the CLI (verify, check) and the GUI's workbench both run: for each
// balance, its table (made first if missing, dependencies included), proven by the self-check
// (every value against its successors) and compared with Syzygy where a WDL file is there; its
// cover checked against the table over every legal position (or a sample), and through the
// indexed probe. Per balance: positions, the five values' counts, failures with examples.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "chess/balance.hpp"
#include "logic/check.hpp"
#include "probe/probe_check_scope.hpp"
#include "run/successor_values.hpp"
#include "store/cover_file.hpp"
#include "table/self_check.hpp"
#include "table/verify.hpp"
#include "util/progress.hpp"
#include "util/result.hpp"

namespace egtmin {
class Syzygy;
}

namespace egtmin::run {

struct ProofRequest {
  std::vector<Balance> balances;
  std::filesystem::path data_dir;
  int threads = 0;  // 0: default_threads()
  // The table: self-check, and Syzygy (when given) on the balances it has a WDL file for.
  bool self_check = true;
  const Syzygy* syzygy = nullptr;
  uint64_t syzygy_stride = 0;  // VerifyOptions::stride
  // The cover: check against the table (sample 0: every legal position), and the indexed probe.
  bool check_cover = false;
  uint64_t cover_sample = 0;
  uint64_t cover_seed = 1;
  bool check_probe = false;
  probe::ProbeCheckScope probe_scope = probe::ProbeCheckScope::OneOfEachClass;
  // Which cover to check: a capture-resolved one is checked against its table with the positions
  // a capture reaches left open, and probed (with its capture search, through the covers under the
  // data directory that the search reaches: CoverProber::add_reaching) against the whole table.
  store::CoverKind kind = store::CoverKind::Standalone;
  // Where that capture search takes the values of the balances it reaches: their covers (as
  // above), or their tables.
  SuccessorValues successors = SuccessorValues::Covers;
  std::optional<uint64_t> memory_limit;  // as MinimizeRequest::memory_limit, for missing tables
};

struct BalanceProof {
  Balance balance;
  std::optional<SelfCheckReport> self_check;
  std::optional<VerifyReport> syzygy;  // unset: not asked, or no Syzygy file for the balance
  std::optional<logic::CheckReport> cover;
  std::optional<logic::CheckReport> probe;
  uint64_t cover_cubes = 0;
  std::string error;          // could not be proven at all (no cover file, a table that cannot be made)
  uint64_t failures() const;  // self-check failures + mismatches of every comparison
  bool ok() const { return error.empty() && failures() == 0; }
};

struct ProofEvents {
  std::function<void(const BalanceProof&)> balance_done;  // in request order
};

// Runs every requested proof on every balance; a balance that cannot be proven keeps its error
// and the others go on. Errors: nothing to prove, cancelled, or tables that cannot be made (the
// memory check included).
Result<std::vector<BalanceProof>> run_proof(const ProofRequest& request, const ProofEvents& events = {},
                                            const Progress& progress = no_progress());

}  // namespace egtmin::run
