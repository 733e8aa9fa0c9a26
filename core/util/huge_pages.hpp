// SPDX-License-Identifier: GPL-3.0-or-later
// 2 MiB-aligned address ranges, where a kernel can back memory (HugeArray) or a mapped file
// (MappedFile) with transparent huge pages: a 2 MiB page maps 2 MiB at a 2 MiB boundary.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace egtmin {

inline constexpr size_t kHugePage = size_t{2} << 20;

#if defined(__linux__)
// A fresh anonymous mapping of `bytes` (rounded up to whole pages) with protection `prot`,
// starting at a multiple of kHugePage, or MAP_FAILED: over-mapped by one huge page, both ends
// trimmed. Released with munmap(p, bytes).
inline void* map_huge_aligned(size_t bytes, int prot) {
  const uintptr_t page = uintptr_t(::sysconf(_SC_PAGESIZE));
  const size_t length = (bytes + page - 1) & ~(page - 1);
  void* m = ::mmap(nullptr, length + kHugePage, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return m;
  const uintptr_t start = uintptr_t(m), aligned = (start + kHugePage - 1) & ~uintptr_t(kHugePage - 1);
  if (aligned > start) ::munmap(m, aligned - start);
  const uintptr_t end = start + length + kHugePage;
  if (end > aligned + length) ::munmap(reinterpret_cast<void*>(aligned + length), end - aligned - length);
  return reinterpret_cast<void*>(aligned);
}
#endif

}  // namespace egtmin
