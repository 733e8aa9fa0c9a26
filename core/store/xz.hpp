// SPDX-License-Identifier: GPL-3.0-or-later
// xz -9e in-process: the same encoder the xz tool runs (single-threaded stream encoder, preset
// 9 | extreme, CRC-64 check), so sizes match `xz -9e` byte for byte. The one-shot buffer encoder
// would also record block sizes in the header, a few bytes more per file.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "util/result.hpp"

namespace egtmin::store {

Result<std::vector<uint8_t>> xz_compress(std::span<const uint8_t> bytes);

}  // namespace egtmin::store
