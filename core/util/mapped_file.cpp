// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/mapped_file.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace egtmin {

namespace {

// The file mapped at a multiple of kHugePage and advised MADV_HUGEPAGE before its first read, or
// MAP_FAILED with errno set: mapped over a fresh aligned reservation.
void* map_for_huge_pages(int fd, size_t size) {
  void* r = map_huge_aligned(size, PROT_NONE);
  if (r == MAP_FAILED) return r;
  void* p = ::mmap(r, size, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0);
  if (p == MAP_FAILED) {
    const int e = errno;
    ::munmap(r, size);
    errno = e;
    return p;
  }
#if defined(MADV_HUGEPAGE)
  ::madvise(p, size, MADV_HUGEPAGE);
#endif
  return p;
}

}  // namespace

Result<MappedFile> MappedFile::open(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error{path.string() + ": cannot open (" + std::strerror(errno) + ")"};
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    return Error{path.string() + ": cannot read its size (" + std::strerror(e) + ")"};
  }
  if (st.st_size <= 0) {
    ::close(fd);
    return Error{path.string() + ": empty file"};
  }
  const size_t size = size_t(st.st_size);
  void* p = size >= kHugePage ? map_for_huge_pages(fd, size) : ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  const int e = errno;
  ::close(fd);  // the mapping keeps the file
  if (p == MAP_FAILED) return Error{path.string() + ": cannot map (" + std::strerror(e) + ")"};
  MappedFile m;
  m.data_ = static_cast<const uint8_t*>(p);
  m.size_ = size;
  return m;
}

void MappedFile::forget_cached_pages(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

void MappedFile::release() {
  if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
}

}  // namespace egtmin
