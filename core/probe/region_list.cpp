// SPDX-License-Identifier: GPL-3.0-or-later
// Writing a region's exception list (probe/region_list.hpp); looking up is in the header.
#include "probe/region_list.hpp"

#include <array>

namespace egtmin::probe::region_list {

std::vector<uint32_t> encode(std::span<const Entry> entries, int ubits, uint32_t kept) {
  const uint32_t k = uint32_t(entries.size());
  // The commonest value is a; the other, if any, takes a value bit.
  std::array<uint32_t, 4> count{};
  for (const Entry& e : entries) ++count[e.value & 3];
  uint32_t a = 1;
  for (uint32_t v = 2; v < 4; ++v)
    if (count[v] > count[a]) a = v;
  const int value_bits = count[a] == k ? 0 : 1;
  const int low = low_bits(k, ubits);
  std::vector<uint32_t> w(1 + stream_words(k, ubits, value_bits), 0);
  w[0] = header(kept, k, value_bits != 0, a);
  uint32_t* s = w.data() + 1;
  auto put = [&](uint64_t at, uint32_t v, int n) {
    for (int b = 0; b < n; ++b, ++at) s[at >> 5] |= (v >> b & 1) << (at & 31);
  };
  const uint64_t upper = uint64_t(k) + (uint64_t{1} << (ubits - low));
  for (uint32_t i = 0; i < k; ++i) {
    const Entry& e = entries[i];
    put(uint64_t(e.place >> low) + i, 1, 1);
    put(upper + uint64_t(i) * uint64_t(low), e.place, low);
    if (value_bits) put(upper + uint64_t(k) * uint64_t(low) + i, e.value != a, 1);
  }
  return w;
}

}  // namespace egtmin::probe::region_list
