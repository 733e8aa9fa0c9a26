// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace egtmin {

namespace fs = std::filesystem;

Status write_file_atomically(const fs::path& path, std::span<const uint8_t> bytes) {
  std::error_code ec;
  if (path.has_parent_path()) {
    fs::create_directories(path.parent_path(), ec);
    if (ec) return Error{"cannot create directory " + path.parent_path().string() + ": " + ec.message()};
  }
  std::string tmp = path.string() + ".tmp-XXXXXX";
  int fd = mkstemp(tmp.data());
  if (fd < 0) return Error{"cannot create a temporary file beside " + path.string() + ": " + std::strerror(errno)};
  auto fail = [&](const std::string& what) {
    int err = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    return Error{what + " " + path.string() + ": " + std::strerror(err)};
  };
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("cannot write");
    }
    done += size_t(n);
  }
  if (::fchmod(fd, 0644) != 0) return fail("cannot set permissions of");
  if (::fsync(fd) != 0) return fail("cannot sync");
  if (::close(fd) != 0) {
    ::unlink(tmp.c_str());
    return Error{"cannot close " + tmp};
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return Error{"cannot move the new file into place at " + path.string() + ": " + std::strerror(err)};
  }
  // Make the rename itself durable.
  if (path.has_parent_path()) {
    int dfd = ::open(path.parent_path().c_str(), O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
      ::fsync(dfd);
      ::close(dfd);
    }
  }
  return ok_status();
}

Result<std::vector<uint8_t>> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot open " + path.string() + ": " + std::strerror(errno)};
  std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return Error{"cannot read " + path.string()};
  return data;
}

}  // namespace egtmin
