// SPDX-License-Identifier: GPL-3.0-or-later
#include "cluster/slurm.hpp"

#include <set>
#include <sstream>

namespace egtmin::cluster {

namespace {

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, sep)) fields.push_back(field);
  if (!line.empty() && line.back() == sep) fields.emplace_back();
  return fields;
}

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  const auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::string joined(const std::vector<std::string>& ids, char sep) {
  std::string s;
  for (const std::string& id : ids) s += (s.empty() ? "" : std::string(1, sep)) + id;
  return s;
}

// The command's own last words: Slurm's clients print retries and notes before the line that says
// what went wrong.
Error command_error(const std::vector<std::string>& argv, const CommandOutput& o) {
  std::string err = trim(o.err.empty() ? o.out : o.err);
  if (auto nl = err.find_last_of('\n'); nl != std::string::npos) err = trim(err.substr(nl + 1));
  return Error{argv[0] + " failed (exit " + std::to_string(o.exit_code) + ")" + (err.empty() ? "" : ": " + err)};
}

}  // namespace

bool is_alive(const JobState& j) {
  static const std::set<std::string> kAlive = {"PENDING",      "RUNNING",  "CONFIGURING", "COMPLETING", "REQUEUED",
                                               "REQUEUE_HOLD", "RESIZING", "SUSPENDED",   "STAGE_OUT",  "SIGNALING"};
  return kAlive.count(j.state) && j.reason != "DependencyNeverSatisfied";
}

bool is_running(const JobState& j) {
  return j.state == "RUNNING" || j.state == "COMPLETING" || j.state == "CONFIGURING" || j.state == "STAGE_OUT" ||
         j.state == "SIGNALING";
}

Result<std::string> parse_sbatch_output(const std::string& out) {
  const std::string line = trim(out.substr(0, out.find('\n')));
  const std::string id = line.substr(0, line.find(';'));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    return Error{"sbatch did not answer with a job id: '" + trim(out) + "'"};
  return id;
}

std::map<std::string, JobState> parse_squeue(const std::string& out) {
  std::map<std::string, JobState> jobs;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    auto f = split(trim(line), '|');
    if (f.size() < 2 || f[0].empty()) continue;
    jobs[f[0]] = {f[0], f[1], f.size() > 2 ? f[2] : "", ""};
  }
  return jobs;
}

std::map<std::string, JobState> parse_sacct(const std::string& out) {
  std::map<std::string, JobState> jobs;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    auto f = split(trim(line), '|');
    if (f.size() < 2 || f[0].empty() || f[0].find('.') != std::string::npos) continue;  // job steps
    std::string state = f[1].substr(0, f[1].find(' '));
    jobs[f[0]] = {f[0], state, "", f.size() > 2 ? f[2] : ""};  // the last record of a requeued job wins
  }
  return jobs;
}

Result<std::string> Slurm::submit(const std::string& script, const std::vector<std::string>& after,
                                  const std::vector<std::string>& extra_args) {
  std::vector<std::string> argv = {"sbatch", "--parsable"};
  if (!after.empty()) {
    argv.push_back("--dependency=afterok:" + joined(after, ':'));
    argv.push_back("--kill-on-invalid-dep=yes");
  }
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  argv.push_back(script);
  auto o = run_(argv);
  if (!o) return o.error();
  if (o->exit_code != 0) return command_error(argv, *o);
  return parse_sbatch_output(o->out);
}

Result<std::map<std::string, JobState>> Slurm::queue(const std::vector<std::string>& ids) {
  // Listing the whole queue rather than -j: squeue fails outright when a listed job has left it.
  std::vector<std::string> argv = {"squeue", "-h", "-o", "%i|%T|%r"};
  auto o = run_(argv);
  if (!o) return o.error();
  if (o->exit_code != 0) return command_error(argv, *o);
  auto all = parse_squeue(o->out);
  if (ids.empty()) return all;
  std::map<std::string, JobState> wanted;
  for (const std::string& id : ids)
    if (auto it = all.find(id); it != all.end()) wanted.insert(*it);
  return wanted;
}

Result<std::map<std::string, JobState>> Slurm::accounting(const std::vector<std::string>& ids) {
  if (ids.empty()) return std::map<std::string, JobState>{};
  std::vector<std::string> argv = {"sacct", "-n", "-P", "-X", "-o", "JobID,State,ExitCode", "-j", joined(ids, ',')};
  auto o = run_(argv);
  if (!o) return o.error();
  if (o->exit_code != 0) return command_error(argv, *o);
  return parse_sacct(o->out);
}

Status Slurm::cancel(const std::string& id) {
  std::vector<std::string> argv = {"scancel", id};
  auto o = run_(argv);
  if (!o) return o.error();
  if (o->exit_code != 0) return command_error(argv, *o);
  return ok_status();
}

}  // namespace egtmin::cluster
