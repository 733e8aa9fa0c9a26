// SPDX-License-Identifier: GPL-3.0-or-later
#include "cluster/job_files.hpp"

#include <algorithm>
#include <deque>
#include <fstream>
#include <set>

#include "util/atomic_file.hpp"

namespace egtmin::cluster {

namespace fs = std::filesystem;

namespace {
std::string stem(const Balance& b, run::BatchStage s) { return b.name() + "." + std::string(name_of(s)); }
}  // namespace

fs::path jobs_dir(const fs::path& data_dir) { return data_dir / "cluster" / "jobs"; }
fs::path logs_dir(const fs::path& data_dir) { return data_dir / "cluster" / "logs"; }

fs::path script_path(const fs::path& data_dir, const Balance& b, run::BatchStage s) {
  return jobs_dir(data_dir) / (stem(b, s) + ".sh");
}

fs::path job_id_path(const fs::path& data_dir, const Balance& b, run::BatchStage s) {
  return jobs_dir(data_dir) / (stem(b, s) + ".job");
}

fs::path log_path(const fs::path& data_dir, const Balance& b, run::BatchStage s, const std::string& id) {
  return logs_dir(data_dir) / (stem(b, s) + "." + id + ".log");
}

std::optional<std::string> read_job_id(const fs::path& data_dir, const Balance& b, run::BatchStage s) {
  std::ifstream in(job_id_path(data_dir, b, s));
  std::string id;
  if (!(in >> id) || id.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return id;
}

Status write_job_id(const fs::path& data_dir, const Balance& b, run::BatchStage s, const std::string& id) {
  const std::string text = id + "\n";
  return write_file_atomically(job_id_path(data_dir, b, s),
                               std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

std::vector<Balance> balances_with_jobs(const fs::path& data_dir) {
  std::set<Balance> found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(jobs_dir(data_dir), ec)) {
    if (e.path().extension() != ".job") continue;
    const std::string name = e.path().stem().string();  // NAME.STAGE
    if (auto b = Balance::parse(name.substr(0, name.find('.')))) found.insert(b->canonical());
  }
  return {found.begin(), found.end()};
}

std::vector<std::string> last_lines(const fs::path& file, size_t lines) {
  std::ifstream in(file);
  std::deque<std::string> tail;
  for (std::string line; std::getline(in, line);) {
    // A progress bar's carriage returns: keep what the line shows last.
    if (auto cr = line.find_last_of('\r'); cr != std::string::npos) line = line.substr(cr + 1);
    tail.push_back(line);
    if (tail.size() > lines) tail.pop_front();
  }
  return {tail.begin(), tail.end()};
}

}  // namespace egtmin::cluster
