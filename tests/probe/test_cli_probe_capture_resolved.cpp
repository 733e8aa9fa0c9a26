// SPDX-License-Identifier: GPL-3.0-or-later
// probe --capture-resolved end to end, on capture-resolved covers of the 3-piece balances made by
// the run service.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "run/minimize_run.hpp"
#include "store/cover_file.hpp"
#include "support/kpk_closure.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace egtmin {
namespace {

// probe --capture-resolved answers from NAME.egtcr and the covers its capture search reaches: a
// pawn that promotes to a won KQvK, whose capture-resolved cover need not hold the win.
TEST(CliProbeCaptureResolved, AnswersThroughTheCaptureSearch) {
  const test::TempDir dir("cli-probe-cr");
  const run::MinimizeRequest r = test::kpk_closure_request(dir.path);
  auto made = run::run_minimize(r);
  ASSERT_TRUE(made && made->ok());
  const std::string fen = "K1k5/4P3/8/8/8/8/8/8 w - - 0 1";
  const test::ProgramRun cr =
      test::run_program(EGTMIN_CLI, {"probe", fen, "--capture-resolved", "--json", "--data", dir.path.string()});
  ASSERT_EQ(cr.exit_code, 0) << cr.out << cr.err;
  auto j = nlohmann::json::parse(cr.out);
  EXPECT_EQ(j["cover_wdl"], "win");
  EXPECT_EQ(j["table_wdl"], "win");
  // Without the flag the probe reads standalone covers, and there are none here.
  const test::ProgramRun plain = test::run_program(EGTMIN_CLI, {"probe", fen, "--json", "--data", dir.path.string()});
  ASSERT_EQ(plain.exit_code, 0) << plain.out << plain.err;
  EXPECT_TRUE(nlohmann::json::parse(plain.out)["cover_wdl"].is_null());
}

}  // namespace
}  // namespace egtmin
