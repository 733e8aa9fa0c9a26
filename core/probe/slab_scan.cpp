// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/slab_scan.hpp"

#include <cstdlib>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define EGTMIN_X86_SCANS 1
#endif

namespace egtmin::probe {

namespace {

SlabHit scan_portable(const uint64_t* slab, uint64_t blocks, const uint32_t* at, int groups, uint64_t first) {
  for (uint64_t b = first; b < blocks; ++b) {
    uint64_t acc = slab[at[0] + b];
    for (int g = 1; g < groups; ++g) acc &= slab[at[g] + b];
    if (acc) return {b, acc};
  }
  return {};
}

#ifdef EGTMIN_X86_SCANS

__attribute__((target("avx2,bmi"))) SlabHit scan_avx2(const uint64_t* slab, uint64_t blocks, const uint32_t* at,
                                                      int groups, uint64_t first) {
  for (uint64_t b = first; b < blocks; b += 4) {
    __m256i acc = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(slab + at[0] + b));
    for (int g = 1; g < groups; ++g)
      acc = _mm256_and_si256(acc, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(slab + at[g] + b)));
    // Lanes whose word is not zero, as 4 bits, then only the blocks that exist.
    const unsigned zero = unsigned(_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(acc, _mm256_setzero_si256()))));
    const uint64_t left = blocks - b;
    const unsigned lanes = ~zero & (left >= 4 ? 15u : (1u << left) - 1);
    if (lanes) {
      const unsigned lane = unsigned(__builtin_ctz(lanes));
      alignas(32) uint64_t words[4];
      _mm256_store_si256(reinterpret_cast<__m256i*>(words), acc);
      return {b + lane, words[lane]};
    }
  }
  return {};
}

// The word of the one lane set in `lane` (moved to lane 0).
__attribute__((target("avx512f"))) inline uint64_t lane_word(__mmask8 lane, __m512i v) {
  return uint64_t(_mm_cvtsi128_si64(_mm512_castsi512_si128(_mm512_maskz_compress_epi64(lane, v))));
}

__attribute__((target("avx512f,bmi"))) SlabHit scan_avx512(const uint64_t* slab, uint64_t blocks, const uint32_t* at,
                                                           int groups, uint64_t first) {
  for (uint64_t b = first; b < blocks; b += 8) {
    __m512i acc = _mm512_loadu_si512(slab + at[0] + b);
    for (int g = 1; g < groups; ++g) acc = _mm512_and_si512(acc, _mm512_loadu_si512(slab + at[g] + b));
    const uint64_t left = blocks - b;
    const __mmask8 valid = left >= 8 ? __mmask8(0xff) : __mmask8((1u << left) - 1);
    const unsigned lanes = _mm512_mask_test_epi64_mask(valid, acc, acc);
    if (lanes) {
      const unsigned lane = unsigned(__builtin_ctz(lanes));
      return {b + lane, lane_word(__mmask8(1u << lane), acc)};
    }
  }
  return {};
}

#endif

std::vector<SlabScanner> detect() {
  std::vector<SlabScanner> out{{"portable", scan_portable, false}};
#ifdef EGTMIN_X86_SCANS
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi")) out.push_back({"avx2", scan_avx2, true});
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("bmi")) out.push_back({"avx512", scan_avx512, true});
#endif
  return out;
}

}  // namespace

std::vector<SlabScanner> available_slab_scanners() { return detect(); }

const SlabScanner& slab_scanner() {
  static const SlabScanner chosen = [] {
    const std::vector<SlabScanner> all = detect();
    if (const char* want = std::getenv("EGTMIN_SLAB_SCAN"))
      for (const SlabScanner& s : all)
        if (s.name == want) return s;
    return all.back();
  }();
  return chosen;
}

}  // namespace egtmin::probe
