// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/xz.hpp"

#include <lzma.h>

#include <string>

namespace egtmin::store {

Result<std::vector<uint8_t>> xz_compress(std::span<const uint8_t> bytes) {
  lzma_stream s = LZMA_STREAM_INIT;
  if (lzma_easy_encoder(&s, 9 | LZMA_PRESET_EXTREME, LZMA_CHECK_CRC64) != LZMA_OK)
    return Error{"cannot start the xz encoder (out of memory?)"};
  std::vector<uint8_t> out(lzma_stream_buffer_bound(bytes.size()));
  s.next_in = bytes.data();
  s.avail_in = bytes.size();
  s.next_out = out.data();
  s.avail_out = out.size();
  lzma_ret r = lzma_code(&s, LZMA_FINISH);
  const size_t n = out.size() - s.avail_out;
  lzma_end(&s);
  if (r != LZMA_STREAM_END) return Error{"xz compression failed (error " + std::to_string(int(r)) + ")"};
  out.resize(n);
  return out;
}

}  // namespace egtmin::store
