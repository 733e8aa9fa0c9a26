// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>

namespace egtmin {

// $XDG_DATA_HOME/egtmin, else ~/.local/share/egtmin: where tables and cover files live by default.
std::filesystem::path default_data_dir();

// The Syzygy directory named by $EGTMIN_SYZYGY, else `fallback` (may not exist).
std::filesystem::path syzygy_dir_from_env(const std::filesystem::path& fallback);

}  // namespace egtmin
