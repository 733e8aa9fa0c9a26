// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/launch.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace egtmin::engine {

namespace fs = std::filesystem;

std::optional<fs::path> find_program(const std::string& name) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos) return fs::path(name);
  std::string dirs = std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin";
  dirs += ":/usr/games";
  for (size_t start = 0; start <= dirs.size();) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const fs::path candidate =
        fs::path(dirs.substr(start, end - start).empty() ? "." : dirs.substr(start, end - start)) / name;
    if (::access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<fs::path> find_fathom_dir(const fs::path& program_dir, const std::vector<fs::path>& candidates) {
  for (const fs::path& c : candidates) {
    const fs::path dir = (c.is_absolute() ? c : program_dir / c).lexically_normal();
    std::error_code ec;
    if (fs::exists(dir / kFathomLibrary, ec)) return dir;
  }
  return std::nullopt;
}

EngineCommand drop_in_command(const fs::path& fathom_dir, const std::optional<fs::path>& covers,
                              std::vector<std::string> argv) {
  EngineCommand c;
  c.argv = std::move(argv);
  std::string path = fathom_dir.string();
  if (const char* old = std::getenv("LD_LIBRARY_PATH"); old && *old) path += std::string(":") + old;
  c.set_env.push_back("LD_LIBRARY_PATH=" + path);
  if (covers) c.set_env.push_back("EGTMIN_COVERS=" + covers->string());
  return c;
}

Error exec_engine(const EngineCommand& command) {
  if (command.argv.empty()) return Error{"no engine command"};
  const std::optional<fs::path> program = find_program(command.argv[0]);
  if (!program) return Error{"cannot find " + command.argv[0] + " on PATH or in /usr/games"};
  std::vector<std::string> argv = command.argv;
  argv[0] = program->string();
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> env = environment_for(command);
  std::vector<char*> envp;
  for (std::string& s : env) envp.push_back(s.data());
  envp.push_back(nullptr);
  ::execve(args[0], args.data(), envp.data());
  return Error{"cannot run " + command.argv[0] + ": " + std::strerror(errno)};
}

}  // namespace egtmin::engine
