// SPDX-License-Identifier: GPL-3.0-or-later
// Cover files (DATA/covers/NAME.egtc): one minimized ON-cover per balance, as sorted 64-bit PCN
// words (logic/cube.hpp) compressed with liblzma at preset 9 | extreme (the paper's xz -9e),
// behind a versioned header. Format: docs/file-format.md. Written atomically; the reader rejects
// truncated, corrupted, wrong-version and wrong-balance files with a message naming the problem.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "chess/balance.hpp"
#include "logic/cube.hpp"
#include "table/cover_canon.hpp"
#include "util/result.hpp"

namespace egtmin::store {

struct CoverFile {
  Balance balance;                   // canonical balance
  int inputs = 0;                    // 1 + 6 * pieces
  CanonScheme canon = CanonScheme::Full;
  std::string passes;                // the pipeline that made it, e.g. "compact,expand,irredundant"
  std::vector<logic::CubeWord> cubes;  // ON-cover; each cube has an output (W/D/L for White)
};

std::filesystem::path cover_path(const std::filesystem::path& data_dir, const Balance& b);

// Sorts the cubes, compresses, writes atomically.
std::vector<uint8_t> serialize_cover(const CoverFile& cover);
Status save_cover(const std::filesystem::path& path, const CoverFile& cover);

// `expected`: when given, a file holding another balance is rejected.
Result<CoverFile> parse_cover(std::span<const uint8_t> bytes, const std::string& origin,
                              const Balance* expected = nullptr);
Result<CoverFile> load_cover(const std::filesystem::path& path, const Balance* expected = nullptr);

}  // namespace egtmin::store
