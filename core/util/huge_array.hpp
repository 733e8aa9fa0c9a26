// SPDX-License-Identifier: GPL-3.0-or-later
// A fixed-size array of 64-bit words for large read-mostly tables that are read at random (the
// probe index): allocated 2 MiB-aligned and, on Linux, advised to the kernel as transparent huge
// pages before it is first touched. Random reads into tens of megabytes otherwise miss the TLB
// on almost every probe; with huge pages the whole index needs a handful of TLB entries. Where
// huge pages are unavailable the advice is ignored and this is a plain aligned array.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <span>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace egtmin {

class HugeArray {
 public:
  HugeArray() = default;
  explicit HugeArray(std::span<const uint64_t> words) : size_(words.size()) {
    if (size_ == 0) return;
    const size_t bytes = size_ * sizeof(uint64_t);
    // Below one huge page the advice cannot help; a plain cache-line-aligned block will do.
    const size_t align = bytes >= kHugePage / 2 ? kHugePage : 64;
    const size_t rounded = (bytes + align - 1) / align * align;
    data_ = static_cast<uint64_t*>(std::aligned_alloc(align, rounded));
    if (!data_) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (align == kHugePage) madvise(data_, rounded, MADV_HUGEPAGE);
#endif
    std::memcpy(data_, words.data(), bytes);
    capacity_bytes_ = rounded;
  }
  HugeArray(const HugeArray& o) : HugeArray(std::span<const uint64_t>(o.data_, o.size_)) {}
  HugeArray(HugeArray&& o) noexcept { swap(o); }
  HugeArray& operator=(HugeArray o) noexcept {
    swap(o);
    return *this;
  }
  ~HugeArray() { std::free(data_); }

  const uint64_t* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  uint64_t operator[](size_t i) const { return data_[i]; }
  size_t memory_bytes() const { return capacity_bytes_; }

 private:
  static constexpr size_t kHugePage = size_t{2} << 20;
  void swap(HugeArray& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(capacity_bytes_, o.capacity_bytes_);
  }
  uint64_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_bytes_ = 0;
};

}  // namespace egtmin
