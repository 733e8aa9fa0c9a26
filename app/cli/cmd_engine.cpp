// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli engine: runs a chess engine with egtmin's libfathom.so.1 in place of the system's, so
// that an engine linked with Fathom probes covers (engine/launch.hpp).
#include <filesystem>
#include <iostream>
#include <optional>

#include "common.hpp"
#include "drop_in.hpp"
#include "engine/launch.hpp"

namespace egtmin::cli {

namespace fs = std::filesystem;

// Where the library lies relative to this program: installed (bin/ -> the private library
// directory) and in its build tree (app/ -> lib/fathom), both set by app/CMakeLists.txt.
std::optional<fs::path> fathom_dir() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return std::nullopt;
  return engine::find_fathom_dir(self.parent_path(), {EGTMIN_FATHOM_FROM_BIN, EGTMIN_FATHOM_FROM_BUILD});
}

namespace {

Command add_engine(CLI::App& app) {
  struct Args {
    Common common;
    std::string covers;
    std::vector<std::string> command;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand("engine",
                                 "Run a chess engine that links Fathom with egtmin's libfathom.so.1: it "
                                 "probes covers");
  sub->add_option("--covers", a->covers,
                  "Directory of covers (or a data directory) the engine reads besides those its SyzygyPath names "
                  "(default: DATA/covers when --data is given, else none)");
  sub->add_option("command", a->command, "The engine and its arguments, after --")->required();
  add_common(sub, a->common);
  sub->footer(
      "The engine runs with the dynamic linker pointed at egtmin's libfathom.so.1 (Fathom's API answered\n"
      "from covers, in a private directory; the system's libfathom is untouched). Its SyzygyPath option\n"
      "then names directories of covers; --covers adds one. Its input and output are the engine's own, so\n"
      "a GUI's engine command can be this line. Without DTZ the engine searches at the root and probes\n"
      "WDL in its tree (docs/fathom-library.md).\n"
      "Examples:\n  egtmin-cli engine -- ethereal-chess\n"
      "  egtmin-cli engine --covers ~/.local/share/egtmin -- /usr/games/ethereal-chess");
  return {
      sub, [a] {
        std::optional<fs::path> covers;
        if (!a->covers.empty())
          covers = fs::absolute(a->covers);
        else if (!a->common.data.empty())
          covers = fs::absolute(a->common.data_dir() / "covers");
        std::error_code ec;
        if (covers && !fs::is_directory(*covers, ec)) {
          fail(std::string(a->covers.empty() ? "--data: " : "--covers: ") + covers->string() + " is not a directory");
          return int(kUsage);
        }
        const std::optional<fs::path> dir = fathom_dir();
        if (!dir)
          return fail(std::string("egtmin's ") + engine::kFathomLibrary +
                      " is not installed beside this program (package egtmin-fathom)");
        // Only an error comes back: on success the engine has taken over this process.
        return fail(engine::exec_engine(engine::drop_in_command(*dir, covers, a->command)).message);
      }};
}

const CommandRegistration kRegistered(75, add_engine);

}  // namespace

}  // namespace egtmin::cli
