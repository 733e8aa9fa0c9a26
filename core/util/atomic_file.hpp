// SPDX-License-Identifier: GPL-3.0-or-later
// Files are written whole or not at all: a temporary file beside the target, fsync, rename. A crash
// or a failed run never leaves a half-written table or cover where a good one was.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "util/result.hpp"

namespace egtmin {

Status write_file_atomically(const std::filesystem::path& path, std::span<const uint8_t> bytes);
Result<std::vector<uint8_t>> read_file(const std::filesystem::path& path);

}  // namespace egtmin
