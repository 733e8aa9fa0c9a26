// SPDX-License-Identifier: GPL-3.0-or-later
// A fresh directory under the system's temporary directory, removed with everything in it when
// the test is done. `name` and the process id keep parallel test processes apart.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace egtmin::test {

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("egtmin-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

}  // namespace egtmin::test
