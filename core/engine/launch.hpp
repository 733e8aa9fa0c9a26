// SPDX-License-Identifier: GPL-3.0-or-later
// Running a chess engine with egtmin's libfathom.so.1 in place of the system's (egtmin-cli engine):
// the dynamic linker is pointed at the library's private directory, so that an engine linked with
// Fathom probes covers, and SyzygyPath names a directory of covers.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/uci_engine.hpp"
#include "util/result.hpp"

namespace egtmin::engine {

inline constexpr const char* kFathomLibrary = "libfathom.so.1";

// `name` as a program to run: itself when it holds a '/', else the first match on PATH, then in
// /usr/games (where Debian installs chess engines, and which root's PATH lacks); none if not found.
std::optional<std::filesystem::path> find_program(const std::string& name);

// The first of `candidates` (absolute, or relative to `program_dir`) that holds libfathom.so.1.
std::optional<std::filesystem::path> find_fathom_dir(const std::filesystem::path& program_dir,
                                                     const std::vector<std::filesystem::path>& candidates);

// `argv` with LD_LIBRARY_PATH starting at `fathom_dir` (what it held kept after it) and, when
// given, EGTMIN_COVERS naming more cover directories for the library's tb_init.
EngineCommand drop_in_command(const std::filesystem::path& fathom_dir,
                              const std::optional<std::filesystem::path>& covers, std::vector<std::string> argv);

// Replaces this process with the engine (its stdin and stdout stay the caller's, so that a GUI
// talks to the engine itself); returns only when that fails, with why.
Error exec_engine(const EngineCommand& command);

}  // namespace egtmin::engine
