// SPDX-License-Identifier: GPL-3.0-or-later
// The pass registry is the one list of passes: a pass registered in one place is parsed by
// --passes, listed in egtmin-cli's help and run by the pipeline (the GUI's pass picker reads the
// same list: tests/ui/test_pass_registry_ui.cpp).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "app.hpp"
#include "logic/pass_registry.hpp"
#include "logic/pass_sequence.hpp"
#include "logic/pipeline.hpp"
#include "support/env.hpp"

namespace {

using namespace egtmin;
using namespace egtmin::logic;
namespace fs = std::filesystem;

// A toy pass: sorts each output's cubes (the cover stays exact), and counts its runs.
int g_toy_runs = 0;
const Pass& toy_pass() {
  static const Pass pass = [] {
    auto p = register_pass({"toysort", "sort each output's cubes (a test pass)", [](PassState& st, const PassContext&) {
                              ++g_toy_runs;
                              for (Cover& c : st.work) std::sort(c.begin(), c.end());
                            }});
    EXPECT_TRUE(p) << (p ? "" : p.error().message);
    return *p;
  }();
  return pass;
}

// Runs egtmin-cli in this process with the given arguments; returns the exit code and stdout.
std::pair<int, std::string> cli(std::vector<std::string> args) {
  args.insert(args.begin(), "egtmin-cli");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  const int code = cli::run(int(argv.size()), argv.data());
  return {code, testing::internal::GetCapturedStdout()};
}

TEST(PassRegistry, BuiltinsComeFirstInTheirOrder) {
  std::vector<std::string> names;
  for (const Pass& p : registered_passes()) names.emplace_back(p.name());
  ASSERT_GE(names.size(), 7u);
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 7),
            (std::vector<std::string>{"canon", "compact", "expand", "irredundant", "reduce", "essential", "espresso"}));
  for (const Pass& p : registered_passes()) EXPECT_FALSE(p.info().description.empty()) << p.name();
  // The default sequence is the paper's, the first preset, and every preset prints as text that
  // parses back to it.
  EXPECT_EQ(passes_string(default_passes()), "canon,compact,expand,irredundant");
  ASSERT_FALSE(pass_presets().empty());
  EXPECT_EQ(pass_presets()[0].passes, default_passes());
  for (const PassPreset& preset : pass_presets()) {
    if (!preset.passes.empty()) {
      auto again = parse_passes(passes_string(preset.passes));
      ASSERT_TRUE(again) << preset.name;
      EXPECT_EQ(*again, preset.passes) << preset.name;
    }
  }
}

TEST(PassRegistry, RefusesBadOrTakenNames) {
  auto noop = [](PassState&, const PassContext&) {};
  EXPECT_FALSE(register_pass({"expand", "again", noop}));
  EXPECT_FALSE(register_pass({"", "nameless", noop}));
  EXPECT_FALSE(register_pass({"a,b", "comma", noop}));
  EXPECT_FALSE(register_pass({"nofunction", "no function", {}}));
  auto unknown = parse_passes("canon,nosuchpass");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("nosuchpass"), std::string::npos);
  EXPECT_NE(unknown.error().message.find("irredundant"), std::string::npos) << "lists the valid passes";
}

TEST(PassRegistry, ToyPassReachesParserPipelineAndCliHelp) {
  const Pass& toy = toy_pass();
  auto parsed = parse_passes("canon, toysort");
  ASSERT_TRUE(parsed);
  EXPECT_EQ((*parsed)[1], toy);
  EXPECT_EQ(passes_string(*parsed), "canon,toysort");

  // The CLI's help for minimize lists it with its description.
  CLI::App app;
  cli::build_app(app);
  const std::string footer = app.get_subcommand("minimize")->get_footer();
  EXPECT_NE(footer.find("toysort"), std::string::npos) << footer;
  EXPECT_NE(footer.find("sort each output's cubes (a test pass)"), std::string::npos) << footer;

  // And egtmin-cli minimize runs it, reporting it like any other pass.
  auto& store = test::shared_store();
  ASSERT_TRUE(store.ensure(*Balance::parse("KRvK")));
  const int before = g_toy_runs;
  auto [code, out] = cli({"minimize", "KRvK", "--passes", "canon,compact,toysort", "--no-save", "--json", "-q",
                          "--data", store.data_dir().string()});
  ASSERT_EQ(code, 0) << out;
  EXPECT_EQ(g_toy_runs, before + 1);
  auto j = nlohmann::json::parse(out);
  ASSERT_EQ(j["balances"][0]["passes"].size(), 3u);
  EXPECT_EQ(j["balances"][0]["passes"][2]["pass"], "toysort");
  EXPECT_EQ(j["balances"][0]["passes"][2]["cubes"], j["balances"][0]["passes"][1]["cubes"]);
}

}  // namespace
