// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli minimize / check / pla end to end: exit codes, messages, JSON, and that a failed run
// leaves a saved cover alone.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/env.hpp"

namespace {

namespace fs = std::filesystem;

struct CliRun {
  int code = -1;
  std::string out;
};

CliRun cli(const std::string& args) {
  std::string cmd = std::string(EGTMIN_CLI) + " " + args + " 2>&1";
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string slurp(const fs::path& p) {
  std::ifstream is(p, std::ios::binary);
  std::ostringstream ss;
  ss << is.rdbuf();
  return ss.str();
}

// A data directory of its own for covers, sharing the test tables.
fs::path data_dir() {
  static fs::path dir = [] {
    auto& store = egtmin::test::shared_store();
    for (const char* b : {"KRvK", "KQvK"}) {
      auto t = store.ensure(*egtmin::Balance::parse(b));
      EXPECT_TRUE(t);
    }
    fs::path d = fs::temp_directory_path() / ("egtmin-logic-cli-" + std::to_string(::getpid()));
    fs::create_directories(d);
    std::error_code ec;
    fs::create_directory_symlink(fs::absolute(store.data_dir() / "tables"), d / "tables", ec);
    return d;
  }();
  // Removed at exit (the symlink only, not the shared tables it points to).
  static struct Cleanup {
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup;
  return dir;
}

TEST(LogicCli, MinimizeCheckAndJson) {
  std::string d = " --data " + data_dir().string() + " -q";
  auto m = cli("minimize KRvK KQvK --json" + d);
  ASSERT_EQ(m.code, 0) << m.out;
  auto j = nlohmann::json::parse(m.out);
  ASSERT_EQ(j["balances"].size(), 2u);
  for (const auto& b : j["balances"]) {
    EXPECT_GT(b["cubes"].get<int>(), 0);
    ASSERT_EQ(b["passes"].size(), 4u);
    EXPECT_EQ(b["passes"][0]["pass"], "canon");
    EXPECT_EQ(b["passes"][3]["pass"], "irredundant");
    // The output with the most cubes is left implied: the file stores the rest.
    EXPECT_LT(b["cubes"].get<int>(), b["passes"][3]["cubes"].get<int>());
    EXPECT_NE(b["implied"], "none");
    for (const char* k : {"literals", "seconds", "peak_bytes"}) EXPECT_TRUE(b["passes"][0].contains(k)) << k;
  }
  auto c = cli("check KRvK KQvK --json --probe" + d);
  ASSERT_EQ(c.code, 0) << c.out;
  auto cj = nlohmann::json::parse(c.out);
  EXPECT_EQ(cj["mismatches"], 0);
  EXPECT_EQ(cj["positions"], 399112 + 368452);  // every legal position of both balances
  for (const auto& b : cj["balances"]) {        // and each probed through the index of its layout file
    EXPECT_EQ(b["probe"]["positions"], b["positions"]);
    EXPECT_EQ(b["probe"]["mismatches"], 0);
  }
  // Every placement probed, not one of each class: the same positions counted.
  auto every = cli("check KRvK --json --probe --every-placement" + d);
  ASSERT_EQ(every.code, 0) << every.out;
  auto ej = nlohmann::json::parse(every.out);
  EXPECT_EQ(ej["balances"][0]["probe"]["positions"], 399112);
  EXPECT_EQ(ej["balances"][0]["probe"]["mismatches"], 0);
  // Without --probe there is nothing to probe every placement of: a usage error that names it.
  auto alone = cli("check KRvK --every-placement" + d);
  EXPECT_EQ(alone.code, 2) << alone.out;
  EXPECT_NE(alone.out.find("--probe"), std::string::npos) << alone.out;
}

TEST(LogicCli, HighEffortSavesACheckedCover) {
  std::string d = " --data " + data_dir().string() + " -q";
  auto normal = cli("minimize KQvK --json --no-save" + d);
  auto high = cli("minimize KQvK --effort high --json" + d);
  ASSERT_EQ(normal.code, 0) << normal.out;
  ASSERT_EQ(high.code, 0) << high.out;
  auto hj = nlohmann::json::parse(high.out)["balances"][0];
  EXPECT_EQ(hj["effort"], "high");
  EXPECT_EQ(nlohmann::json::parse(normal.out)["balances"][0]["effort"], "normal");
  EXPECT_LE(hj["cubes"].get<int>(), nlohmann::json::parse(normal.out)["balances"][0]["cubes"].get<int>());
  auto c = cli("check KQvK --json" + d);
  ASSERT_EQ(c.code, 0) << c.out;
  EXPECT_EQ(nlohmann::json::parse(c.out)["mismatches"], 0);
  auto help = cli("minimize --help");
  EXPECT_NE(help.out.find("--effort"), std::string::npos) << help.out;
}

TEST(LogicCli, UsageErrorsAndFailedRunsKeepTheSavedCover) {
  std::string d = " --data " + data_dir().string() + " -q";
  ASSERT_EQ(cli("minimize KRvK" + d).code, 0);
  fs::path cover = data_dir() / "covers" / "KRvK.egtc";
  std::string before = slurp(cover);
  ASSERT_FALSE(before.empty());

  auto bad_pass = cli("minimize KRvK --passes canon,compakt --no-save" + d);
  EXPECT_EQ(bad_pass.code, 2);
  EXPECT_NE(bad_pass.out.find("unknown pass \"compakt\""), std::string::npos) << bad_pass.out;
  auto bad_balance = cli("minimize KRvX" + d);
  EXPECT_EQ(bad_balance.code, 2);
  EXPECT_NE(bad_balance.out.find("KRvX"), std::string::npos) << bad_balance.out;
  EXPECT_EQ(cli("minimize" + d).code, 2);
  EXPECT_EQ(cli("minimize KRvK --passes expand,foo" + d).code, 2);
  auto bad_effort = cli("minimize KRvK --effort extreme" + d);
  EXPECT_EQ(bad_effort.code, 2);
  EXPECT_NE(bad_effort.out.find("--effort: unknown effort \"extreme\" (valid efforts: normal, high)"),
            std::string::npos)
      << bad_effort.out;
  EXPECT_EQ(slurp(cover), before);

  auto missing = cli("check KQvKQ" + d);
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.out.find("minimize KQvKQ"), std::string::npos) << missing.out;
}

TEST(LogicCli, PlaExportImportRoundTrip) {
  std::string d = " --data " + data_dir().string() + " -q";
  ASSERT_EQ(cli("minimize KQvK --passes canon,compact,expand" + d).code, 0);
  fs::path pla = data_dir() / "kqvk.pla";
  ASSERT_EQ(cli("pla export KQvK --out " + pla.string() + d).code, 0);
  std::string text = slurp(pla);
  EXPECT_NE(text.find(".i 19\n.o 3\n"), std::string::npos);
  EXPECT_NE(text.find(".type fd"), std::string::npos);
  auto imp = cli("pla import " + pla.string() + " --balance KQvK --json" + d);
  ASSERT_EQ(imp.code, 0) << imp.out;
  EXPECT_EQ(nlohmann::json::parse(imp.out)["canon"], "full");
  EXPECT_EQ(cli("check KQvK" + d).code, 0);

  auto wrong = cli("pla import " + pla.string() + " --balance KRvKR" + d);
  EXPECT_EQ(wrong.code, 1);
  EXPECT_NE(wrong.out.find(":2:"), std::string::npos) << wrong.out;  // the .i line
  fs::path table = data_dir() / "krvk-table.pla";
  ASSERT_EQ(cli("pla export KRvK --what table --canon full --out " + table.string() + d).code, 0);
  EXPECT_NE(slurp(table).find(".type fr"), std::string::npos);
}

}  // namespace
