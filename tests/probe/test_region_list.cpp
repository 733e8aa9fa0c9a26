// SPDX-License-Identifier: GPL-3.0-or-later
// A region's exception list: every listed place found with its value and no other place, for
// lists of one place to every place, with one value or two; and damaged or short words answered
// as "not listed" or with a value, never by reading outside them.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "probe/region_list.hpp"

namespace egtmin::probe {
namespace {

using region_list::Entry;

// Entries at k random places of 2^ubits, values drawn from {a} or {a, b}.
std::vector<Entry> random_entries(uint32_t k, int ubits, bool two_values, std::mt19937& rng) {
  std::vector<uint32_t> places(size_t{1} << ubits);
  for (uint32_t i = 0; i < places.size(); ++i) places[i] = i;
  std::shuffle(places.begin(), places.end(), rng);
  places.resize(k);
  std::sort(places.begin(), places.end());
  std::vector<Entry> e;
  for (uint32_t p : places) e.push_back({p, uint8_t(two_values && rng() % 3 == 0 ? 3 : 1)});
  return e;
}

TEST(RegionList, FindsEveryListedPlaceWithItsValueAndNoOther) {
  std::mt19937 rng(5);
  const uint32_t fallback = 2;  // the values listed are 1 and 3: the output that is neither is 3
  for (int ubits : {6, 12}) {
    const uint32_t u = 1u << ubits;
    for (uint32_t k : {1u, 2u, 3u, 7u, 31u, 64u, 65u, 200u, u / 2, u - 1, u}) {
      if (k > u) continue;
      for (bool two : {false, true}) {
        const std::vector<Entry> e = random_entries(k, ubits, two, rng);
        const uint32_t kept = k % 7;
        const std::vector<uint32_t> w = region_list::encode(e, ubits, kept);
        ASSERT_GE(w.size(), 1u);
        EXPECT_EQ(region_list::kept_cubes(w[0]), kept);
        EXPECT_EQ(
            w.size(),
            1 + region_list::stream_words(
                    k, ubits, two && std::any_of(e.begin(), e.end(), [](auto x) { return x.value == 3; }) ? 1 : 0));
        std::vector<uint32_t> want(u, 0);
        for (const Entry& x : e) want[x.place] = x.value;
        for (uint32_t p = 0; p < u; ++p)
          ASSERT_EQ(region_list::find(w[0], w.data() + 1, uint32_t(w.size() - 1), p, ubits, fallback), want[p])
              << "ubits " << ubits << " k " << k << " place " << p;
      }
    }
  }
}

// The stream is short of what its header says, or the header and stream are noise: each look-up
// reads only the words given (a vector of exactly that size, which the sanitizer builds check)
// and answers 0 or an output number.
TEST(RegionList, DamagedWordsNeverReadOutsideThemselves) {
  std::mt19937 rng(6);
  const std::vector<Entry> e = random_entries(300, 12, true, rng);
  const std::vector<uint32_t> w = region_list::encode(e, 12, 3);
  for (size_t words = 0; words + 1 < w.size(); ++words) {
    const std::vector<uint32_t> stream(w.begin() + 1, w.begin() + 1 + long(words));
    for (uint32_t p = 0; p < 4096; p += 7)
      EXPECT_EQ(region_list::find(w[0], stream.data(), uint32_t(stream.size()), p, 12, 2), 0u) << words;
  }
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<uint32_t> noise(1 + rng() % 40);
    for (uint32_t& x : noise) x = uint32_t(rng());
    const uint32_t head = uint32_t(rng());
    for (uint32_t p : {0u, 1u, 2047u, 4095u, uint32_t(rng() % 4096)}) {
      const uint32_t v = region_list::find(head, noise.data(), uint32_t(noise.size()), p, 12, rng() % 4);
      EXPECT_LE(v, 3u);
    }
  }
}

// About seven bits a place among 4,096 for a hundred places, with a value bit: what makes a list
// shorter than the 32-bit cubes it replaces.
TEST(RegionList, TakesAFewBitsAPlace) {
  std::mt19937 rng(7);
  const std::vector<Entry> e = random_entries(100, 12, true, rng);
  const std::vector<uint32_t> w = region_list::encode(e, 12, 0);
  EXPECT_LE((w.size() - 1) * 32, 100u * 10);
}

}  // namespace
}  // namespace egtmin::probe
