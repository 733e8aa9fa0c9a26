// SPDX-License-Identifier: GPL-3.0-or-later
// Test covers built straight from a table, independent of the minimizer: the index space is split
// like a binary trie, and every subtree whose care positions (legal representatives) all have one
// value becomes one cube. Exact on the care set, and small enough to scan.
#pragma once

#include <algorithm>
#include <vector>

#include "probe/syzygy.hpp"
#include "store/cover_file.hpp"
#include "table/cover_canon.hpp"
#include "table/table.hpp"

namespace egtmin::test {

// `white_value(placement)` gives White's value of a legal placement. Only the index ranges whose top
// `prefix_bits` bits are one of `prefixes` are covered (all of them when prefix_bits = 0), so
// 4-piece tests can cover the part they probe.
template <class ValueFn>
store::CoverFile trie_cover(const Balance& balance, CanonScheme scheme, ValueFn white_value, int prefix_bits = 0,
                            std::vector<uint64_t> prefixes = {0}) {
  const Encoding enc(balance);
  CoverCanon canon(enc, scheme);
  const int n = enc.bits();
  const int rest = n - prefix_bits;
  std::vector<uint8_t> val(uint64_t{1} << rest, 0);  // 0 = don't care, else the output (White's view)
  store::CoverFile c;
  c.balance = balance;
  c.inputs = n;
  c.canon = scheme;
  c.passes = "test-trie";
  // Returns the single value of [lo, lo + 2^bits) (0 none, 4 mixed); emits cubes for mixed ranges.
  uint64_t base = 0;
  auto rec = [&](auto&& self, uint64_t lo, int bits) -> uint8_t {
    if (bits == 0) return val[lo];
    const uint64_t half = uint64_t{1} << (bits - 1);
    const uint8_t a = self(self, lo, bits - 1), b = self(self, lo + half, bits - 1);
    auto emit = [&](uint64_t start, int w, uint8_t v) {
      if (v == 0 || v == 4) return;
      logic::CubeWord cube = logic::minterm(base + start, n, logic::Output(v));
      for (int k = 0; k < w; ++k) cube |= logic::pair_mask(n - 1 - k);  // the low w index bits free
      c.cubes.push_back(cube);
    };
    if (a == 4 || b == 4 || (a && b && a != b)) {
      if (a != 4) emit(lo, bits - 1, a);
      if (b != 4) emit(lo + half, bits - 1, b);
      return 4;
    }
    return a ? a : b;
  };
  for (uint64_t prefix : prefixes) {
    base = prefix << rest;
    for (uint64_t i = 0; i < val.size(); ++i) {
      Placement p = enc.decode(base + i);
      val[i] = enc.is_legal(p) && canon.is_representative(p) ? uint8_t(white_value(p)) : 0;
    }
    uint8_t top = rec(rec, 0, rest);
    if (top != 0 && top != 4) {
      logic::CubeWord cube = logic::minterm(base, n, logic::Output(top));
      for (int k = 0; k < rest; ++k) cube |= logic::pair_mask(n - 1 - k);
      c.cubes.push_back(cube);
    }
  }
  return c;
}

inline store::CoverFile trie_cover(const Table& t, CanonScheme scheme) {
  return trie_cover(t.balance(), scheme, [&](const Placement& p) { return t.value(p); });
}

// A cover of a few parts of a balance's index space, valued by Syzygy: for tests that need a
// five-piece cover without generating the balance's table. Each part is the indices that share
// the top `prefix_bits` bits of a random legal placement's representative (`parts` drawn, the
// same ones merged).
struct SyzygyParts {
  std::vector<uint64_t> prefixes;  // ascending
  int rest = 0;                    // the index bits below a prefix
  store::CoverFile cover;

  // A random index in one of the parts.
  template <class Rng>
  uint64_t random_index(Rng& rng) const {
    return prefixes[rng() % prefixes.size()] << rest | (rng() & ((uint64_t{1} << rest) - 1));
  }
};
template <class Rng>
SyzygyParts syzygy_parts(const Syzygy& syz, const Encoding& enc, const CoverCanon& canon, int prefix_bits, size_t parts,
                         Rng& rng) {
  SyzygyParts out;
  out.rest = enc.bits() - prefix_bits;
  while (out.prefixes.size() < parts) {
    const Placement p = enc.decode(rng() & (enc.size() - 1));
    if (enc.is_legal(p)) out.prefixes.push_back(enc.encode(canon.canonical(p).placement) >> out.rest);
  }
  std::sort(out.prefixes.begin(), out.prefixes.end());
  out.prefixes.erase(std::unique(out.prefixes.begin(), out.prefixes.end()), out.prefixes.end());
  auto white_value = [&](const Placement& p) {
    const auto v = syz.wdl(enc, p);
    const Wdl stm = v ? to_wdl(*v) : Wdl::Illegal;
    return p.stm == White ? stm : negate(stm);
  };
  out.cover = trie_cover(enc.balance(), canon.scheme(), white_value, prefix_bits, out.prefixes);
  return out;
}

}  // namespace egtmin::test
