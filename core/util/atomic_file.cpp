// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

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
  // One allocation of the file's size and large reads: a five-piece table is hundreds of MB, and
  // growing a vector a character at a time made loading the tables a generation reads a serial
  // part of every table's time.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error{"cannot open " + path.string() + ": " + std::strerror(errno)};
  struct Close {
    int fd;
    ~Close() { ::close(fd); }
  } close_on_return{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) return Error{"cannot read " + path.string() + ": " + std::strerror(errno)};
  if (S_ISDIR(st.st_mode)) return Error{"cannot read " + path.string() + ": it is a directory"};
  std::vector<uint8_t> data(S_ISREG(st.st_mode) ? size_t(st.st_size) : 0);
  size_t done = 0;
  std::array<uint8_t, 1 << 16> more;  // past the size fstat gave: a file still growing, or not a regular file
  for (;;) {
    const bool into_data = done < data.size();
    const ssize_t n =
        into_data ? ::read(fd, data.data() + done, data.size() - done) : ::read(fd, more.data(), more.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error{"cannot read " + path.string() + ": " + std::strerror(errno)};
    }
    if (n == 0) break;
    if (!into_data) data.insert(data.end(), more.begin(), more.begin() + n);
    done += size_t(n);
  }
  data.resize(done);
  return data;
}

}  // namespace egtmin
