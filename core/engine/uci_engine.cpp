// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/uci_engine.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

extern char** environ;

namespace egtmin::engine {

namespace {

using Clock = std::chrono::steady_clock;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

std::vector<std::string> environment_for(const EngineCommand& c) {
  auto name_of = [](std::string_view entry) { return entry.substr(0, entry.find('=')); };
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string_view entry(*e);
    const std::string_view name = name_of(entry);
    const bool replaced =
        std::any_of(c.set_env.begin(), c.set_env.end(), [&](const std::string& s) { return name_of(s) == name; });
    const bool removed = std::find(c.unset_env.begin(), c.unset_env.end(), name) != c.unset_env.end();
    if (!replaced && !removed) env.emplace_back(entry);
  }
  env.insert(env.end(), c.set_env.begin(), c.set_env.end());
  return env;
}

bool parse_info_line(std::string_view line, SearchResult& r) {
  std::istringstream in{std::string(line)};
  std::string word;
  in >> word;
  if (word != "info") return false;
  bool scored = false;
  SearchResult got = r;
  while (in >> word) {
    if (word == "depth") {
      in >> got.depth;
    } else if (word == "nodes") {
      in >> got.nodes;
    } else if (word == "tbhits") {
      in >> got.tbhits;
    } else if (word == "score") {
      std::string kind, value;
      in >> kind >> value;
      got.score = kind + " " + value;
      scored = true;
    } else if (word == "lowerbound" || word == "upperbound") {
      got.score += " " + word;
    } else if (word == "pv" || word == "string") {
      break;  // moves or free text to the end of the line
    }
  }
  if (scored) r = got;
  return scored;
}

Result<std::unique_ptr<UciEngine>> UciEngine::start(const EngineCommand& command, std::chrono::milliseconds timeout) {
  if (command.argv.empty()) return Error{"no engine command"};
  // A write to an engine that has died must be an error to report, not a signal that ends us.
  ::signal(SIGPIPE, SIG_IGN);
  std::unique_ptr<UciEngine> e(new UciEngine);
  e->name_ = command.argv[0];
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) != 0) return Error{std::string("cannot create a pipe: ") + std::strerror(errno)};
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    ::close(in_pipe[0]);
    ::close(in_pipe[1]);
    return Error{std::string("cannot create a pipe: ") + std::strerror(errno)};
  }
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]}) ::close(fd);
    return Error{std::string("cannot create a pipe: ") + std::strerror(errno)};
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  std::vector<char*> args;
  for (const std::string& a : command.argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> env = environment_for(command);
  std::vector<char*> envp;
  for (std::string& s : env) envp.push_back(s.data());
  envp.push_back(nullptr);
  const int spawned = posix_spawnp(&e->pid_, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  e->to_engine_ = in_pipe[1];
  e->from_engine_ = out_pipe[0];
  e->engine_err_ = err_pipe[0];
  if (spawned != 0) {
    e->pid_ = -1;
    return Error{"cannot run " + command.argv[0] + ": " + std::strerror(spawned)};
  }
  if (auto s = e->send("uci"); !s) return s.error();
  for (;;) {
    auto line = e->read_line(timeout);
    if (!line) return line.error();
    if (*line == "uciok") break;
  }
  return e;
}

UciEngine::~UciEngine() {
  if (pid_ > 0) {
    (void)send("quit");
    close_fd(to_engine_);
    int status = 0;
    pid_t done = 0;
    for (int i = 0; i < 200 && (done = ::waitpid(pid_, &status, WNOHANG)) == 0; ++i) ::usleep(10000);
    if (done == 0) {
      ::kill(pid_, SIGKILL);
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
    }
  }
  close_fd(to_engine_);
  close_fd(from_engine_);
  close_fd(engine_err_);
}

Error UciEngine::died(const std::string& what) const {
  std::string tail = err_tail_;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
  return Error{name_ + " " + what + (tail.empty() ? "" : ": " + tail)};
}

void UciEngine::drain_errors() {
  // What the engine said on stderr before it went: it has exited or is exiting, so its end comes
  // soon; a second at most.
  char buf[4096];
  const auto deadline = Clock::now() + std::chrono::seconds(1);
  while (engine_err_ >= 0 && Clock::now() < deadline) {
    pollfd fd{engine_err_, POLLIN, 0};
    if (::poll(&fd, 1, 100) <= 0) continue;
    const ssize_t m = ::read(engine_err_, buf, sizeof buf);
    if (m > 0)
      err_tail_.append(buf, size_t(m));
    else if (m == 0 || errno != EINTR)
      close_fd(engine_err_);
  }
  if (err_tail_.size() > 2048) err_tail_.erase(0, err_tail_.size() - 2048);
}

Status UciEngine::send(std::string_view line) {
  std::string text(line);
  text += '\n';
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(to_engine_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      drain_errors();
      return died("stopped reading its input");
    }
    done += size_t(n);
  }
  return ok_status();
}

Result<std::string> UciEngine::read_line(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    if (const size_t nl = out_buffer_.find('\n'); nl != std::string::npos) {
      std::string line = out_buffer_.substr(0, nl);
      out_buffer_.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    if (from_engine_ < 0) return died("exited");
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return died("said nothing for " + std::to_string(timeout.count() / 1000) + " s");
    pollfd fds[2] = {{from_engine_, POLLIN, 0}, {engine_err_, POLLIN, 0}};
    const int ready = ::poll(fds, engine_err_ >= 0 ? 2 : 1, int(std::min<int64_t>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) return died(std::string("cannot be read: ") + std::strerror(errno));
    char buf[4096];
    if (engine_err_ >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      const ssize_t n = ::read(engine_err_, buf, sizeof buf);
      if (n > 0) {
        err_tail_.append(buf, size_t(n));
        if (err_tail_.size() > 2048) err_tail_.erase(0, err_tail_.size() - 2048);
      } else if (n == 0 || errno != EINTR) {
        close_fd(engine_err_);
      }
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      const ssize_t n = ::read(from_engine_, buf, sizeof buf);
      if (n > 0) {
        out_buffer_.append(buf, size_t(n));
      } else if (n == 0 || errno != EINTR) {
        drain_errors();  // why it stopped
        close_fd(from_engine_);
      }
    }
  }
}

Status UciEngine::sync(std::chrono::milliseconds timeout) {
  if (auto s = send("isready"); !s) return s;
  for (;;) {
    auto line = read_line(timeout);
    if (!line) return line.error();
    if (*line == "readyok") return ok_status();
  }
}

Status UciEngine::set_option(std::string_view name, std::string_view value) {
  if (auto s = send("setoption name " + std::string(name) + " value " + std::string(value)); !s) return s;
  return sync();
}

Result<SearchResult> UciEngine::search(std::string_view fen, int depth, std::chrono::milliseconds timeout) {
  if (auto s = send("ucinewgame"); !s) return s.error();
  if (auto s = send("position fen " + std::string(fen)); !s) return s.error();
  if (auto s = sync(); !s) return s.error();
  SearchResult r;
  const auto start = Clock::now();
  if (auto s = send("go depth " + std::to_string(depth)); !s) return s.error();
  for (;;) {
    auto line = read_line(timeout);
    if (!line) return line.error();
    if (line->rfind("bestmove", 0) == 0) {
      r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
      std::istringstream in(*line);
      std::string word;
      in >> word >> r.bestmove;
      return r;
    }
    parse_info_line(*line, r);
  }
}

std::vector<std::string> UciEngine::mapped_files(std::string_view part) const {
  std::vector<std::string> files;
  std::ifstream maps("/proc/" + std::to_string(pid_) + "/maps");
  for (std::string line; std::getline(maps, line);) {
    const size_t slash = line.find('/');
    if (slash == std::string::npos) continue;
    std::string file = line.substr(slash);
    if (file.find(part) != std::string::npos && std::find(files.begin(), files.end(), file) == files.end())
      files.push_back(file);
  }
  return files;
}

}  // namespace egtmin::engine
