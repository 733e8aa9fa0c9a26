// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/stage.hpp"

#include "probe/probe_layout.hpp"
#include "store/cover_file.hpp"
#include "table/generator.hpp"

namespace egtmin::run {

MadeCover make_cover(StageContext& c, store::CoverKind kind) {
  c.store.unload_all();
  MinimizeRequest m;
  m.balances = {c.balance};
  m.passes = c.request.passes;
  m.canon = c.request.canon;
  m.effort = c.request.effort;
  m.threads = c.threads;
  m.data_dir = c.request.data_dir;
  m.memory_limit = c.request.memory_limit;
  m.kind = kind;
  if (auto size = c.request.syzygy_sizes.find(c.balance.name());
      size != c.request.syzygy_sizes.end() && c.request.layout_bound > 0) {
    const double syzygy = double(size->second);
    m.layout_bytes[c.balance.name()] = {
        .target = uint64_t(syzygy * c.request.layout_bound),
        .ceiling = uint64_t(syzygy * kLayoutSyzygyCeiling)};  // under the target, chosen_framing reads the target
  }
  MadeCover made;
  made.figures = measured([&] {
    auto run = run_minimize(m, {}, c.progress);
    if (!run) {
      if (!c.progress.cancelled()) made.error = run.error().message;
      return;
    }
    if (run->balances.empty() || !run->balances.front().ok()) {
      made.error = run->balances.empty() ? std::string("no result") : run->balances.front().error;
      return;
    }
    made.result = run->balances.front();
  });
  if (made.result) {
    std::error_code ec;
    made.bytes = std::filesystem::file_size(made.result->cover_path, ec);
    made.layout = probe::layout_on_disk(probe::layout_path(made.result->cover_path));
  }
  c.figures = made.figures;
  c.error = made.error;
  return made;
}

bool cover_exists(const std::filesystem::path& data_dir, const Balance& b, store::CoverKind kind) {
  std::error_code ec;
  return std::filesystem::exists(store::cover_path(data_dir, b, kind), ec);
}

std::vector<Balance> missing_successor_covers(const std::filesystem::path& data_dir, const Balance& b) {
  std::vector<Balance> missing;
  for (const Balance& s : successor_balances(b.canonical()))
    if (!cover_exists(data_dir, s, store::CoverKind::Standalone) &&
        !cover_exists(data_dir, s, store::CoverKind::CaptureResolved))
      missing.push_back(s);
  return missing;
}

bool successor_covers_there(StageContext& c) {
  if (c.request.successors == SuccessorValues::Tables) return true;  // the table stage made their tables
  const std::vector<Balance> missing = missing_successor_covers(c.request.data_dir, c.balance);
  if (missing.empty()) return true;
  std::string listed, command;
  for (const Balance& m : missing) {
    if (!listed.empty()) listed += ", ";
    listed += m.name();
    command += ' ';  // appended, not " " + name: GCC 12 warns (-Wrestrict) on the temporary
    command += m.name();
  }
  c.error = c.balance.name() +
            "'s capture-resolved cover needs the covers of the balances its captures and promotions reach; "
            "missing: " +
            listed + " (a batch asked for capture-resolved covers makes them; or: egtmin-cli minimize" + command + ")";
  return false;
}

}  // namespace egtmin::run
