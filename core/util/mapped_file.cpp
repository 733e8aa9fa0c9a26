// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/mapped_file.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace egtmin {

namespace {

// The file mapped at a multiple of MappedFile::kHugePage (a 2 MiB page maps 2 MiB of the file at a
// 2 MiB boundary of both), or MAP_FAILED with errno set: an anonymous reservation one huge page
// longer, the file mapped over its first boundary, the rest of the reservation given back.
void* map_aligned(int fd, size_t size) {
  const size_t reserve = size + MappedFile::kHugePage;
  void* r = ::mmap(nullptr, reserve, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (r == MAP_FAILED) return r;
  const uintptr_t start = uintptr_t(r),
                  at = (start + MappedFile::kHugePage - 1) & ~uintptr_t(MappedFile::kHugePage - 1);
  void* p = ::mmap(reinterpret_cast<void*>(at), size, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0);
  if (p == MAP_FAILED) {
    const int e = errno;
    ::munmap(r, reserve);
    errno = e;
    return p;
  }
  if (at > start) ::munmap(r, at - start);
  const uintptr_t page = uintptr_t(::sysconf(_SC_PAGESIZE));
  const uintptr_t end = (at + size + page - 1) & ~(page - 1), reserved_end = start + reserve;
  if (reserved_end > end) ::munmap(reinterpret_cast<void*>(end), reserved_end - end);
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
  void* p = size >= kHugePage ? map_aligned(fd, size) : ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  const int e = errno;
  ::close(fd);  // the mapping keeps the file
  if (p == MAP_FAILED) return Error{path.string() + ": cannot map (" + std::strerror(e) + ")"};
#if defined(MADV_HUGEPAGE)
  if (size >= kHugePage) ::madvise(p, size, MADV_HUGEPAGE);  // before the first read faults pages in
#endif
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
