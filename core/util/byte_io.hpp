// SPDX-License-Identifier: GPL-3.0-or-later
// Plain little-endian records of trivially copyable fields, vectors and strings, for files that
// are written by this program and read back on the same kind of machine (x86-64): the probe
// layout files. A reader never reads past its bytes: a short or damaged record makes ok() false
// and every later read a no-op, so a caller checks once at the end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace egtmin {

class ByteWriter {
 public:
  template <class T>
  requires std::is_trivially_copyable_v<T>
  void put(const T& v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  template <class T>
  void put(const std::vector<T>& v) {
    put(uint64_t(v.size()));
    const auto* p = reinterpret_cast<const uint8_t*>(v.data());
    bytes_.insert(bytes_.end(), p, p + v.size() * sizeof(T));
  }
  void put(const std::string& s) {
    put(uint64_t(s.size()));
    bytes_.insert(bytes_.end(), s.begin(), s.end());
  }
  // An array the reader will use in place (view()): its length, then the words from a multiple
  // of `align` bytes.
  void put_aligned(std::span<const uint64_t> words, size_t align = 64) {
    put(uint64_t(words.size()));
    bytes_.resize((bytes_.size() + align - 1) / align * align, 0);
    const auto* p = reinterpret_cast<const uint8_t*>(words.data());
    bytes_.insert(bytes_.end(), p, p + words.size_bytes());
  }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

class ByteReader {
 public:
  // `base_offset`: where `bytes` start in their file, which put_aligned's alignment refers to.
  explicit ByteReader(std::span<const uint8_t> bytes, size_t base_offset = 0) : bytes_(bytes), base_(base_offset) {}

  template <class T>
  requires std::is_trivially_copyable_v<T>
  void get(T& v) {
    if (!take(sizeof(T))) return;
    std::memcpy(&v, bytes_.data() + at_ - sizeof(T), sizeof(T));
  }
  template <class T>
  void get(std::vector<T>& v) {
    uint64_t n = 0;
    get(n);
    if (!ok_ || n > (bytes_.size() - at_) / sizeof(T)) return fail();
    v.resize(n);
    // An empty vector's data() may be null, which memcpy must not get even for 0 bytes (UBSan).
    if (n) std::memcpy(v.data(), bytes_.data() + at_, n * sizeof(T));
    at_ += n * sizeof(T);
  }
  void get(std::string& s) {
    uint64_t n = 0;
    get(n);
    if (!ok_ || n > bytes_.size() - at_) return fail();
    s.assign(reinterpret_cast<const char*>(bytes_.data() + at_), n);
    at_ += n;
  }
  // What put_aligned wrote, in place.
  std::span<const uint64_t> view_aligned(size_t align = 64) {
    uint64_t n = 0;
    get(n);
    const size_t start = (base_ + at_ + align - 1) / align * align - base_;
    if (!ok_ || start > bytes_.size() || n > (bytes_.size() - start) / sizeof(uint64_t)) {
      fail();
      return {};
    }
    at_ = start + n * sizeof(uint64_t);
    return {reinterpret_cast<const uint64_t*>(bytes_.data() + start), size_t(n)};
  }
  bool ok() const { return ok_; }
  bool at_end() const { return at_ == bytes_.size(); }

 private:
  bool take(size_t n) {
    if (!ok_ || n > bytes_.size() - at_) {
      fail();
      return false;
    }
    at_ += n;
    return true;
  }
  void fail() { ok_ = false; }

  std::span<const uint8_t> bytes_;
  size_t base_ = 0;
  size_t at_ = 0;
  bool ok_ = true;
};

}  // namespace egtmin
