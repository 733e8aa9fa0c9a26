// SPDX-License-Identifier: GPL-3.0-or-later
// A whole file mapped read-only: opening costs no copy, untouched pages cost no memory, and
// processes mapping the same file share its pages in the page cache (the probe layout files).
//
// Huge pages: a probe reads a few cache lines at random places of a layout (tens of MB at 5
// pieces), so with 4 KiB pages nearly every probe also misses the TLB and walks the page tables.
// A file of at least 2 MiB is therefore mapped at a 2 MiB boundary and marked MADV_HUGEPAGE, so
// that a kernel that keeps files in 2 MiB folios (Linux 6.x with large folios on ext4, xfs and
// others) reads it in and maps it in 2 MiB pages, still shared, and a probe's page walk stays in
// the caches (docs/measured.md). Where the kernel cannot, the advice does nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <utility>

#include "util/huge_pages.hpp"
#include "util/result.hpp"

namespace egtmin {

class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  MappedFile(MappedFile&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  MappedFile& operator=(MappedFile&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  ~MappedFile() { release(); }

  // Errors name the file and the reason (missing, unreadable, empty).
  static Result<MappedFile> open(const std::filesystem::path& path);

  // Drops the file's clean pages from the page cache (a file just written and synced): the next
  // mapping reads it again, in huge pages where it can (above), where the pages the writes left
  // would stay 4 KiB ones. Pages other processes have mapped stay. Best effort: errors are ignored.
  static void forget_cached_pages(const std::filesystem::path& path);
  // Files of at least this size are mapped for huge pages.
  static constexpr size_t kHugePage = egtmin::kHugePage;

  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  size_t size() const { return size_; }

 private:
  void release();
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace egtmin
