// SPDX-License-Identifier: GPL-3.0-or-later
#include "table/table_store.hpp"

#include <cerrno>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

namespace egtmin {

namespace {
constexpr double kGenerateShare = 0.5;  // of making a table, when it is self-checked too
}  // namespace

TableStore::TableStore(std::filesystem::path data_dir) : dir_(std::move(data_dir)) {}

std::filesystem::path TableStore::path_for(const Balance& b) const {
  return dir_ / "tables" / (b.canonical().name() + ".egtt");
}

bool TableStore::on_disk(const Balance& b) const { return std::filesystem::exists(path_for(b)); }

Result<const Table*> TableStore::get(const Balance& b) {
  Balance c = b.canonical();
  std::lock_guard lock(mutex_);
  if (auto it = loaded_.find(c); it != loaded_.end()) return static_cast<const Table*>(it->second.get());
  if (!std::filesystem::exists(path_for(c)))
    return Error{"no table for " + c.name() + " in " + (dir_ / "tables").string() + "; run: egtmin-cli gen " +
                 c.name()};
  auto t = Table::load(path_for(c));
  if (!t) return t.error();
  if (t->balance() != c) return Error{path_for(c).string() + " holds " + t->balance().name() + ", not " + c.name()};
  auto& slot = loaded_[c];
  slot = std::make_unique<Table>(std::move(*t));
  return static_cast<const Table*>(slot.get());
}

TableLookup TableStore::lookup() {
  return [this](const Balance& b) -> const Table* {
    auto r = get(b);
    return r ? *r : nullptr;
  };
}

Result<const Table*> TableStore::ensure(const Balance& b, const GenerateOptions& opts, const Progress& progress,
                                        const OnGenerated& on_generated) {
  std::set<Balance> pinned;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [loaded, table] : loaded_) pinned.insert(loaded);
  }
  return ensure_from(b.canonical(), opts, progress, on_generated, pinned);
}

Result<const Table*> TableStore::ensure_from(const Balance& c, const GenerateOptions& opts, const Progress& progress,
                                             const OnGenerated& on_generated, const std::set<Balance>& pinned) {
  if (on_disk(c) && !Table::is_older_format(path_for(c))) return get(c);
  // Depth-first over dependencies: everything c leads to is generated before c.
  const std::vector<Balance> successors = successor_balances(c);
  for (const Balance& dep : successors) {
    auto r = ensure_from(dep, opts, progress, on_generated, pinned);
    if (!r) return r;
  }
  {
    std::lock_guard lock(mutex_);
    std::erase_if(loaded_, [&](const auto& entry) {
      const Balance& b = entry.first;
      return !pinned.contains(b) && std::find(successors.begin(), successors.end(), b) == successors.end();
    });
  }
  // Another process (a second CLI run, the GUI, a parallel test) may be generating the same table:
  // take an exclusive lock per balance and look again once it is ours, rather than doing the work twice.
  std::error_code ec;
  std::filesystem::create_directories(dir_ / "tables", ec);
  std::string lock_name = ".";  // appended, not "." + name: GCC 12 warns (-Wrestrict) on the temporary
  lock_name += c.name();
  lock_name += ".lock";
  const std::string lock_path = (dir_ / "tables" / lock_name).string();
  const int lock_fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  struct Unlock {
    int fd;
    ~Unlock() {
      if (fd >= 0) ::close(fd);  // closing releases the flock
    }
  } unlock{lock_fd};
  if (lock_fd >= 0) {
    while (::flock(lock_fd, LOCK_EX) != 0 && errno == EINTR) {
    }
    if (on_disk(c) && !Table::is_older_format(path_for(c))) return get(c);
  }
  const TableLookup lookup = this->lookup();
  auto seconds_since = [](auto start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  Generated report;
  std::vector<uint8_t> distances;
  GenerateOptions gen = opts;
  if (opts.self_check) gen.distances = &distances;
  // One bar for making the table: generating it, then proving it. The share is the self-check's
  // measured part of the time at 4 and 5 pieces.
  const double gen_share = opts.self_check ? kGenerateShare : 1.0;
  Progress gen_part(
      progress, [&](const ProgressEvent& e) { progress.report(Stage::Generate, gen_share * e.fraction, e.detail); });
  Progress check_part(progress, [&](const ProgressEvent& e) {
    progress.report(Stage::Generate, gen_share + (1 - gen_share) * e.fraction, c.name() + ": self-check");
  });
  auto start = std::chrono::steady_clock::now();
  auto t = generate(c, lookup, gen, gen_part);
  if (!t) return t.error();
  report.seconds = seconds_since(start);
  if (opts.self_check) {
    start = std::chrono::steady_clock::now();
    SelfCheckOptions so;
    so.threads = opts.threads;
    report.self_check = self_check(*t, lookup, distances, so, check_part);
    report.self_check_seconds = seconds_since(start);
    if (progress.cancelled()) return Error{"cancelled"};
    if (!report.self_check->ok())
      return Error{"the generated table of " + c.name() + " fails its self-check (" +
                   std::to_string(report.self_check->failures) + " positions, first: " +
                   (report.self_check->examples.empty() ? std::string("none") : report.self_check->examples.front()) +
                   "); it was not written"};
  }
  distances = {};
  if (auto s = t->save(path_for(c)); !s) return s.error();
  {
    std::lock_guard lock(mutex_);
    loaded_[c] = std::make_unique<Table>(std::move(*t));
  }
  if (on_generated) on_generated(c, report);
  return get(c);
}

void TableStore::unload_all() {
  std::lock_guard lock(mutex_);
  loaded_.clear();
}

bool TableStore::is_loaded(const Balance& b) {
  std::lock_guard lock(mutex_);
  return loaded_.contains(b.canonical());
}

Result<Wdl> TableStore::probe_stm(const Position& pos) {
  if (auto why = pos.illegal_reason()) return Error{"illegal position: " + *why};
  Balance b = Balance::of(pos);
  if (auto s = check_supported(b); !s) return s.error();
  const bool flip = !b.is_canonical();
  Position p = flip ? pos.color_flipped() : pos;
  auto t = get(b);
  if (!t) return t.error();
  Wdl white = (*t)->value(p);
  Wdl best = p.side_to_move() == White ? white : negate(white);
  if (p.ep_square() != NoSquare) {
    // The table has no en-passant rights: the capture is one more option for the side to move.
    for (const Move& m : legal_moves(p)) {
      if (!m.en_passant) continue;
      auto v = probe_stm(p.after(m));
      if (!v) return v.error();
      best = better(best, negate(*v));
    }
  }
  return best;
}

}  // namespace egtmin
