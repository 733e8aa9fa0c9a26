// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the probe layout reader (probe::parse_layout) and the hot path over what it
// accepts. The input is a layout file. It is read twice: as it is, and with its header made to
// agree with its payload (this egtmin's version, the cover's identity taken from the header, the
// payload's length and CRC-64 written in), so that mutants reach the indexes' checks past the
// checksum. A layout the
// reader accepts must answer probes of its balance without reading outside its bytes: the target
// probes positions spread over the index space through the hot path's own functions (the front
// line, the tree, the region index, the list of the 50-move rule's draws), under AddressSanitizer
// in the fuzz build.
#include <lzma.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "probe/probe_layout.hpp"

namespace {

using namespace egtmin;
using namespace egtmin::probe;

template <int K>
void probe_all(const LoadedCover& lc) {
  const CubeIndex::Hot front = lc.index.hot();
  const RegionIndex::Hot region = lc.region.hot();  // dir null when there is none
  const uint64_t size = lc.encoding.size();
  unsigned sink = 0;
  // 4,096 indices in a fixed stride through the index space, and its last one.
  const uint64_t step = size / 4096 + 1;
  for (uint64_t index = 0; index < size; index += step) {
    const uint32_t stm = uint32_t(index >> stm_shift(K)) & 1;
    std::array<uint32_t, K> sq;
    for (int i = 0; i < K; ++i) sq[size_t(i)] = uint32_t(index >> square_shift(K, i)) & kSquareMask;
    sink += unsigned(CubeIndex::find_output_front0<K>(front, stm, sq));
    sink += unsigned(CubeIndex::find_output_front_rest<K>(front, stm, sq));
    if (!lc.region.built()) {
      sink += unsigned(CubeIndex::find_output_tree<K>(front, stm, sq));
    } else if constexpr (K >= 3) {
      const uint32_t placement = uint32_t(index & ((uint64_t{1} << stm_shift(K)) - 1));
      sink += unsigned(RegionIndex::find_output(region, RegionIndex::locate<K>(region, stm, placement)));
    }
    if (const uint64_t* rules = lc.rules.hot()) sink += unsigned(RuleDraws::contains(rules, index));
  }
  if (sink == ~0u) __builtin_trap();  // keeps the probes
}

void read_and_probe(std::span<const uint8_t> bytes) {
  if (bytes.size() < kLayoutHeaderBytes) {
    (void)parse_layout(bytes, std::nullopt, "fuzz: ");
    return;
  }
  CoverIdentity id;
  std::memcpy(&id.bytes, bytes.data() + 16, sizeof id.bytes);
  std::memcpy(&id.crc64, bytes.data() + 24, sizeof id.crc64);
  auto lc = parse_layout(bytes, id, "fuzz: ");
  if (!lc) return;
  switch ((*lc)->encoding.pieces()) {
    case 2: probe_all<2>(**lc); break;
    case 3: probe_all<3>(**lc); break;
    case 4: probe_all<4>(**lc); break;
    case 5: probe_all<5>(**lc); break;
    default: __builtin_trap();  // the reader accepted a balance it does not support
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The hot words are read as 64-bit words in place: an aligned copy, as a mapping is.
  std::vector<uint64_t> aligned((size + 7) / 8);
  if (size) std::memcpy(aligned.data(), data, size);
  auto* bytes = reinterpret_cast<uint8_t*>(aligned.data());
  read_and_probe({bytes, size});
  if (size >= kLayoutHeaderBytes) {
    const uint64_t payload = size - kLayoutHeaderBytes;
    const uint64_t crc = lzma_crc64(bytes + kLayoutHeaderBytes, size_t(payload), 0);
    std::memcpy(bytes + 8, &kLayoutVersion, sizeof kLayoutVersion);  // seeds of older versions too
    std::memcpy(bytes + 32, &payload, sizeof payload);
    std::memcpy(bytes + 40, &crc, sizeof crc);
    read_and_probe({bytes, size});
  }
  return 0;
}
