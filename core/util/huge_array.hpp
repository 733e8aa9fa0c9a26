// SPDX-License-Identifier: GPL-3.0-or-later
// A fixed-size array of 64-bit words for large read-mostly tables that are read at random (the
// probe index): on Linux, a fresh 2 MiB-aligned anonymous mapping advised to the kernel as
// transparent huge pages before it is first touched. Random reads into megabytes otherwise miss
// the TLB on almost every probe; with huge pages the whole index needs a handful of TLB entries.
//
// The mapping has to be fresh: memory from the heap has usually been touched already (by the
// temporaries of whatever was built before), is backed by 4 KiB pages, and advice given after
// the fact does not change that (with aligned_alloc most of an index stayed on 4 KiB pages).
// Where huge pages are unavailable the advice is ignored and this is a plain aligned array.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <span>
#include <utility>

#include "util/huge_pages.hpp"

namespace egtmin {

class HugeArray {
 public:
  HugeArray() = default;
  // `words` zeroed words.
  explicit HugeArray(size_t words) : size_(words) {
    if (size_ == 0) return;
    allocate(size_ * sizeof(uint64_t));
    std::memset(data_, 0, size_ * sizeof(uint64_t));
  }
  explicit HugeArray(std::span<const uint64_t> words) : size_(words.size()) {
    if (size_ == 0) return;
    allocate(size_ * sizeof(uint64_t));
    std::memcpy(data_, words.data(), size_ * sizeof(uint64_t));
  }
  HugeArray(const HugeArray& o) : HugeArray(std::span<const uint64_t>(o.data_, o.size_)) {}
  HugeArray(HugeArray&& o) noexcept { swap(o); }
  HugeArray& operator=(HugeArray o) noexcept {
    swap(o);
    return *this;
  }
  ~HugeArray() { release(); }

  uint64_t* data() { return data_; }
  const uint64_t* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  uint64_t operator[](size_t i) const { return data_[i]; }
  size_t memory_bytes() const { return capacity_bytes_; }

 private:
  void allocate(size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    // Below half a huge page the advice cannot help; a plain cache-line-aligned block will do.
    if (bytes >= kHugePage / 2) {
      const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
      void* m = map_huge_aligned(rounded, PROT_READ | PROT_WRITE);
      if (m == MAP_FAILED) throw std::bad_alloc();
      data_ = static_cast<uint64_t*>(m);
      madvise(data_, rounded, MADV_HUGEPAGE);
      capacity_bytes_ = rounded;
      mapped_ = true;
      return;
    }
#endif
    const size_t rounded = (bytes + 63) / 64 * 64;
    data_ = static_cast<uint64_t*>(std::aligned_alloc(64, rounded));
    if (!data_) throw std::bad_alloc();
    capacity_bytes_ = rounded;
  }
  void release() {
#if defined(__linux__)
    if (mapped_) {
      munmap(data_, capacity_bytes_);
      return;
    }
#endif
    std::free(data_);
  }
  void swap(HugeArray& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(capacity_bytes_, o.capacity_bytes_);
    std::swap(mapped_, o.mapped_);
  }
  uint64_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_bytes_ = 0;
  bool mapped_ = false;
};

}  // namespace egtmin
