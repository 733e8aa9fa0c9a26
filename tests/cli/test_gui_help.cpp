// SPDX-License-Identifier: GPL-3.0-or-later
// `egtmin --help` and `egtmin --version` answer without a display: they are run here with no
// DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM, where constructing a QApplication would abort.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/process.hpp"

namespace {

#ifdef EGTMIN_GUI
egtmin::test::ProgramRun run_headless(const std::vector<std::string>& args) {
  return egtmin::test::run_program(
      EGTMIN_GUI, args, egtmin::test::environment_without({"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}));
}

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }
#endif

}  // namespace

TEST(GuiHelp, HelpWorksWithoutADisplay) {
#ifndef EGTMIN_GUI
  GTEST_SKIP() << "built without the GUI (EGTMIN_BUILD_GUI=OFF)";
#else
  for (const char* flag : {"--help", "-h"}) {
    SCOPED_TRACE(flag);
    auto r = run_headless({flag});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "Usage:")) << r.out;
    EXPECT_TRUE(contains(r.out, "egtmin workbench")) << r.out;
    for (const char* option : {"--help", "--version", "--screenshot <dir>", "--data <dir>", "--syzygy <dir>"})
      EXPECT_TRUE(contains(r.out, option)) << option << " missing from\n" << r.out;
  }
#endif
}

TEST(GuiHelp, VersionWorksWithoutADisplay) {
#ifndef EGTMIN_GUI
  GTEST_SKIP() << "built without the GUI (EGTMIN_BUILD_GUI=OFF)";
#else
  for (const char* flag : {"--version", "-v"}) {
    SCOPED_TRACE(flag);
    auto r = run_headless({flag});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, std::string("egtmin ") + EGTMIN_VERSION + "\n");
  }
#endif
}

TEST(GuiHelp, UnknownOptionBesideHelpIsStillAUsageError) {
#ifndef EGTMIN_GUI
  GTEST_SKIP() << "built without the GUI (EGTMIN_BUILD_GUI=OFF)";
#else
  auto r = run_headless({"--bogus", "--help"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_TRUE(contains(r.err, "bogus")) << r.err;
#endif
}
