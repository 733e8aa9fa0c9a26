// SPDX-License-Identifier: GPL-3.0-or-later
// liblzma in-process.
//
// xz_compress: xz -9e, the same encoder the xz tool runs (single-threaded stream encoder, preset
// 9 | extreme, CRC-64 check), so sizes match `xz -9e` byte for byte (bench size compresses
// Syzygy's files with it; version 1 cover files hold such a stream). The one-shot buffer encoder
// would also record block sizes in the header, a few bytes more per file.
//
// lzma2_raw_*: a bare LZMA2 stream (no .xz container, no check: cover files carry their own
// CRC-64), preset 9 | extreme with the literal/position context bits given, and a dictionary just
// large enough for the data, so that the decoder needs no more memory than the data itself. The
// decoder is told the exact decompressed size and rejects streams that decode to more or less.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "util/result.hpp"

namespace egtmin::store {

Result<std::vector<uint8_t>> xz_compress(std::span<const uint8_t> bytes);

struct Lzma2Options {
  uint32_t preset = 9;  // 0..9; extreme is added when `extreme`
  bool extreme = true;
  uint32_t lc = 0, lp = 0, pb = 0;  // lc + lp <= 4, pb <= 4
};

// The dictionary size both sides use for `size` decompressed bytes.
uint32_t lzma2_dict_size(uint64_t size);

Result<std::vector<uint8_t>> lzma2_raw_compress(std::span<const uint8_t> bytes, const Lzma2Options& options = {});
// Decodes all of `in` into exactly out.size() bytes. Errors say whether the stream is corrupt,
// holds more or fewer bytes than expected, or has bytes after its end.
Status lzma2_raw_decompress(std::span<const uint8_t> in, std::span<uint8_t> out);

}  // namespace egtmin::store
