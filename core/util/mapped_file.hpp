// SPDX-License-Identifier: GPL-3.0-or-later
// A whole file mapped read-only: opening costs no copy, untouched pages cost no memory, and
// processes mapping the same file share its pages in the page cache (the probe layout files).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <utility>

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

  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  size_t size() const { return size_; }

 private:
  void release();
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace egtmin
