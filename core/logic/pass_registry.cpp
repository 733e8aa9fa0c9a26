// SPDX-License-Identifier: GPL-3.0-or-later
#include "logic/pass_registry.hpp"

#include <deque>
#include <mutex>

namespace egtmin::logic {

class PassRegistry {
 public:
  static PassRegistry& instance() {
    static PassRegistry r;
    return r;
  }
  std::vector<Pass> all() {
    std::lock_guard lock(mutex_);
    std::vector<Pass> out;
    for (const PassInfo& p : passes_) out.push_back(Pass(&p));
    return out;
  }
  Result<Pass> add(PassInfo info) {
    if (info.name.empty() || info.name.find_first_of(", \t") != std::string::npos)
      return Error{"a pass name must be one word without commas: \"" + info.name + "\""};
    if (!info.run) return Error{"pass \"" + info.name + "\" has no function"};
    std::lock_guard lock(mutex_);
    for (const PassInfo& p : passes_)
      if (p.name == info.name) return Error{"a pass named \"" + info.name + "\" is already registered"};
    passes_.push_back(std::move(info));  // a deque: earlier handles stay valid
    return Pass(&passes_.back());
  }

 private:
  PassRegistry() {
    for (PassInfo& p : builtin_passes()) passes_.push_back(std::move(p));
  }
  std::mutex mutex_;
  std::deque<PassInfo> passes_;
};

std::vector<Pass> registered_passes() { return PassRegistry::instance().all(); }

Result<Pass> register_pass(PassInfo info) { return PassRegistry::instance().add(std::move(info)); }

Result<Pass> find_pass(std::string_view name) {
  const std::vector<Pass> all = registered_passes();
  std::string valid;
  for (const Pass& p : all) {
    if (p.name() == name) return p;
    valid += (valid.empty() ? "" : ", ") + std::string(p.name());
  }
  return Error{"unknown pass \"" + std::string(name) + "\" (valid passes: " + valid + ")"};
}

}  // namespace egtmin::logic
