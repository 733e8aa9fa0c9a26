// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/mapped_file.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace egtmin {

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
  void* p = ::mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
  const int e = errno;
  ::close(fd);  // the mapping keeps the file
  if (p == MAP_FAILED) return Error{path.string() + ": cannot map (" + std::strerror(e) + ")"};
  MappedFile m;
  m.data_ = static_cast<const uint8_t*>(p);
  m.size_ = size_t(st.st_size);
  return m;
}

void MappedFile::release() {
  if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
}

}  // namespace egtmin
