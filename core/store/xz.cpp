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

uint32_t lzma2_dict_size(uint64_t size) {
  // A dictionary at least as large as the data compresses exactly as well as a larger one. Powers
  // of two keep the LZMA2 properties byte exact; 4 KiB is liblzma's minimum, 1.5 GiB its maximum,
  // so 1 GiB is the largest power of two it takes.
  constexpr uint64_t kMaxDictSize = uint64_t{1} << 30;
  uint64_t d = LZMA_DICT_SIZE_MIN;
  while (d < size && d < kMaxDictSize) d <<= 1;
  return uint32_t(d);
}

namespace {

bool raw_filters(lzma_options_lzma& opt, lzma_filter (&filters)[2], uint64_t size, const Lzma2Options& o) {
  if (lzma_lzma_preset(&opt, o.preset | (o.extreme ? LZMA_PRESET_EXTREME : 0))) return false;
  opt.dict_size = lzma2_dict_size(size);
  opt.lc = o.lc;
  opt.lp = o.lp;
  opt.pb = o.pb;
  filters[0] = {LZMA_FILTER_LZMA2, &opt};
  filters[1] = {LZMA_VLI_UNKNOWN, nullptr};
  return true;
}

}  // namespace

Result<std::vector<uint8_t>> lzma2_raw_compress(std::span<const uint8_t> bytes, const Lzma2Options& o) {
  lzma_options_lzma opt;
  lzma_filter filters[2];
  if (!raw_filters(opt, filters, bytes.size(), o)) return Error{"bad LZMA2 preset " + std::to_string(o.preset)};
  // LZMA2's worst case is the data in uncompressed chunks: 3 bytes per 64 KiB plus the end byte.
  std::vector<uint8_t> out(bytes.size() + bytes.size() / 16384 + 64);
  size_t out_pos = 0;
  lzma_ret r = lzma_raw_buffer_encode(filters, nullptr, bytes.data(), bytes.size(), out.data(), &out_pos, out.size());
  if (r != LZMA_OK) return Error{"LZMA2 compression failed (error " + std::to_string(int(r)) + ")"};
  out.resize(out_pos);
  return out;
}

Status lzma2_raw_decompress(std::span<const uint8_t> in, std::span<uint8_t> out) {
  lzma_options_lzma opt;
  lzma_filter filters[2];
  if (!raw_filters(opt, filters, out.size(), {})) return Error{"cannot set up the LZMA2 decoder"};
  if (in.empty()) return Error{"the compressed stream is empty"};
  // liblzma wants a non-null output buffer even for no bytes.
  uint8_t none = 0;
  uint8_t* out_data = out.empty() ? &none : out.data();
  size_t in_pos = 0, out_pos = 0;
  lzma_ret r = lzma_raw_buffer_decode(filters, nullptr, in.data(), &in_pos, in.size(), out_data, &out_pos, out.size());
  if (r == LZMA_BUF_ERROR)
    return Error{"the compressed stream holds more than the expected " + std::to_string(out.size()) + " bytes"};
  if (r == LZMA_DATA_ERROR) return Error{"the compressed stream is corrupt or truncated"};
  if (r != LZMA_OK) return Error{"cannot decompress (liblzma error " + std::to_string(int(r)) + ")"};
  if (out_pos != out.size())
    return Error{"the compressed stream holds " + std::to_string(out_pos) + " bytes, expected " +
                 std::to_string(out.size())};
  if (in_pos != in.size()) return Error{"trailing bytes after the compressed stream"};
  return ok_status();
}

}  // namespace egtmin::store
