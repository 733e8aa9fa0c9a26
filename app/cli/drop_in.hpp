// SPDX-License-Identifier: GPL-3.0-or-later
// Where egtmin's libfathom.so.1 lies beside this program (egtmin-cli engine and bench engine).
#pragma once

#include <filesystem>
#include <optional>

namespace egtmin::cli {

// The directory of egtmin's libfathom.so.1, installed or in the build tree; none when absent.
std::optional<std::filesystem::path> fathom_dir();

}  // namespace egtmin::cli
