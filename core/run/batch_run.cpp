// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/batch_run.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <type_traits>
#include <utility>

#include "run/run_plan.hpp"
#include "store/cover_file.hpp"
#include "util/atomic_file.hpp"
#include "util/defaults.hpp"

namespace egtmin::run {

namespace {

std::filesystem::path record_path(const std::filesystem::path& data_dir, const Balance& b) {
  return data_dir / "batch" / (b.name() + ".rec");
}

// Every field of a record with its key, in file order: each stage's figures, then what it found.
// The one list both directions read.
template <class Record, class Visit>
void for_each_field(Record& r, Visit&& v) {
  for_each_stage([&]<BatchStage S>() {
    v(stage_key(S).c_str(), r.template at<S>().figures);
    Stage<S>::each(r.template at<S>().results, v);
  });
}

// Keys older records wrote, and the keys they are now.
constexpr std::pair<std::string_view, std::string_view> kRenamedKeys[] = {
    {"table_expected_peak", "table_expected_peak_bytes"},
    {"minimize_expected_peak", "minimize_expected_peak_bytes"},
    {"cr_minimize_expected_peak", "cr_minimize_expected_peak_bytes"},
    {"counts", "values"},
    {"pass", "passes"}};

// Values on a line after the key, space-separated.
template <class T>
void put_values(std::ostream& o, const T& v) {
  if constexpr (std::is_enum_v<T>)
    o << ' ' << name_of(v);
  else
    o << ' ' << v;
}
void put_values(std::ostream& o, const StageFigures& s) {
  o << ' ' << s.done << ' ' << s.seconds << ' ' << s.peak_bytes << ' ' << s.cpu_seconds;
}
void put_values(std::ostream& o, const Table::Counts& c) {
  for (uint64_t v : c.by_code) o << ' ' << v;
}
void put_values(std::ostream& o, const std::vector<int>& a) {
  for (int v : a) o << ' ' << v;
}

template <class T>
void get_values(std::istream& in, T& v) {
  if constexpr (std::is_enum_v<T>) {
    std::string name;
    in >> name;
    if (const std::optional<T> e = parse_enum<T>(name))
      v = *e;
    else
      in.setstate(std::ios::failbit);
  } else {
    in >> v;
  }
}
// Older records have no CPU time: it reads as 0.
void get_values(std::istream& in, StageFigures& s) { in >> s.done >> s.seconds >> s.peak_bytes >> s.cpu_seconds; }
void get_values(std::istream& in, Table::Counts& c) {
  for (uint64_t& v : c.by_code) in >> v;
}
void get_values(std::istream& in, std::vector<int>& a) {
  for (int v; in >> v;) a.push_back(v);
}

// The record as "key value..." lines: small, readable, and any key a newer egtmin adds is ignored.
std::string to_text(const BatchRecord& r) {
  std::ostringstream o;
  o.precision(17);
  o << "balance " << r.balance.name() << '\n';
  for_each_field(r, [&](const char* key, const auto& field) {
    using F = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<F, std::vector<logic::PassReport>>) {
      for (const logic::PassReport& p : field)
        o << key << ' ' << p.pass << ' ' << p.cubes << ' ' << p.seconds << ' ' << p.cpu_seconds << ' ' << p.peak_bytes
          << '\n';
    } else {
      o << key;
      put_values(o, field);
      o << '\n';
    }
  });
  return o.str();
}

std::optional<BatchRecord> from_text(const std::string& text, const Balance& b) {
  BatchRecord r;
  r.balance = b;
  std::istringstream in(text);
  std::string line;
  bool named = false;
  while (std::getline(in, line)) {
    std::istringstream l(line);
    std::string key;
    l >> key;
    if (key == "balance") {
      std::string name;
      l >> name;
      named = name == b.name();
      continue;
    }
    for (const auto& [was, is] : kRenamedKeys)
      if (key == was) key = is;
    if (key == "syzygy") {  // older records: the comparison's three figures on one line
      auto& v = r.results<BatchStage::Verify>();
      l >> v.syzygy_compared >> v.syzygy_positions >> v.syzygy_mismatches;
    }
    for_each_field(r, [&](const char* k, auto&& field) {
      if (key != k) return;
      using F = std::decay_t<decltype(field)>;
      if constexpr (std::is_same_v<F, std::vector<logic::PassReport>>) {
        logic::PassReport p;
        l >> p.pass >> p.cubes >> p.seconds >> p.cpu_seconds >> p.peak_bytes;
        field.push_back(p);
      } else {
        get_values(l, field);
      }
    });
    if (l.fail() && !l.eof()) return std::nullopt;
  }
  if (!named) return std::nullopt;
  return r;
}

Status save_record(const std::filesystem::path& data_dir, const BatchRecord& r) {
  std::error_code ec;
  std::filesystem::create_directories(record_path(data_dir, r.balance).parent_path(), ec);
  const std::string text = to_text(r);
  return write_file_atomically(record_path(data_dir, r.balance),
                               std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

// Removes NAME.*.tmp-* in dir: the temporaries of b's files that a killed writer left (the
// target itself was never touched; write_file_atomically renames only a whole file).
void remove_temporaries(const std::filesystem::path& dir, const Balance& b) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return;
  const std::string prefix = b.name() + ".";
  std::vector<std::filesystem::path> stale;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && name.find(".tmp-") != std::string::npos) stale.push_back(e.path());
  }
  for (const auto& p : stale) std::filesystem::remove(p, ec);
}

// Whether the run asked for runs stage s of b: the stage asked for alone, or the stages of the
// covers asked for (the Syzygy comparison when given Syzygy's directory). A balance the run
// reaches only for its table (SuccessorValues::Tables: a capture or promotion of a balance asked
// for leads to it) gets its table's stages alone.
bool wanted_stage(const BatchRequest& request, const Balance& b, BatchStage s) {
  if (request.only) return *request.only == s;
  if (!serves(part_of(s), request.covers) || (s == BatchStage::Verify && request.syzygy_dir.empty())) return false;
  return part_of(s) == StagePart::Table || request.successors == SuccessorValues::Covers ||
         std::any_of(request.balances.begin(), request.balances.end(),
                     [&](const Balance& asked) { return asked.canonical() == b.canonical(); });
}

// Marks undone every stage that needs one not done.
void undo_stages_needing_undone(BatchRecord& r) {
  // Only an earlier stage can be needed, and the loops say so: GCC 12 otherwise warns
  // (-Warray-bounds) of an index past the stages' list that no enumerator has.
  for (size_t l = 1; l < kAllBatchStages.size(); ++l)
    for (size_t e = 0; e < l; ++e)
      if (needs(kAllBatchStages[l], kAllBatchStages[e]) && !r.stage(kAllBatchStages[e]).done)
        r.stage(kAllBatchStages[l]).done = false;
}

}  // namespace

std::string stage_key(BatchStage s) {
  std::string key(name_of(s));
  std::replace(key.begin(), key.end(), '-', '_');
  return key;
}

StageFigures& BatchRecord::stage(BatchStage s) { return const_cast<StageFigures&>(std::as_const(*this).stage(s)); }

const StageFigures& BatchRecord::stage(BatchStage s) const {
  const StageFigures* out = nullptr;
  for_each_stage([&]<BatchStage S>() {
    if (S == s) out = &at<S>().figures;
  });
  return *out;
}

Result<std::map<std::string, uint64_t>> read_syzygy_sizes(const std::filesystem::path& tsv) {
  std::ifstream in(tsv);
  if (!in) return Error{"cannot read the Syzygy sizes file " + tsv.string()};
  std::map<std::string, uint64_t> sizes;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::istringstream l(line);
    std::string bytes, file;
    if (!(l >> bytes >> file)) continue;
    if (n == 1 && bytes == "bytes") continue;  // the header
    const auto dot = file.find(".rtbw");
    uint64_t v = 0;
    try {
      size_t used = 0;
      v = std::stoull(bytes, &used);
      if (used != bytes.size()) throw std::invalid_argument(bytes);
    } catch (const std::exception&) {
      return Error{tsv.string() + ":" + std::to_string(n) + ": \"" + bytes + "\" is not a byte count"};
    }
    if (dot != std::string::npos) sizes[file.substr(0, dot)] = v;
  }
  return sizes;
}

std::optional<BatchRecord> load_record(const std::filesystem::path& data_dir, const Balance& b) {
  auto bytes = read_file(record_path(data_dir, b));
  if (!bytes) return std::nullopt;
  return from_text(std::string(bytes->begin(), bytes->end()), b);
}

BatchRecord record_as_found(const std::filesystem::path& data_dir, const Balance& b) {
  BatchRecord r = load_record(data_dir, b).value_or(BatchRecord{});
  r.balance = b;
  r.error.clear();
  for_each_stage([&]<BatchStage S>() {
    if (!Stage<S>::outputs_there(data_dir, b, r.results<S>())) r.stage(S).done = false;
  });
  undo_stages_needing_undone(r);
  return r;
}

void record_dependency_table(const std::filesystem::path& data_dir, const Balance& b, const TableStore::Generated& g) {
  if (!g.self_check || !g.self_check->ok()) return;  // a table that fails is not written
  BatchRecord d = record_as_found(data_dir, b);
  for (BatchStage s : kAllBatchStages)
    if (needs(s, BatchStage::Table)) d.stage(s).done = false;
  d.stage(BatchStage::Table) = {true, g.seconds + g.self_check_seconds, peak_memory_bytes()};
  auto& t = d.results<BatchStage::Table>();
  t.expected_peak_bytes = table_peak_bytes(b);
  t.generate_seconds = g.seconds;
  t.self_check_seconds = g.self_check_seconds;
  t.positions = g.self_check->positions;
  t.values = g.self_check->counts;
  // The record is a shortcut, not the table: a run that cannot write it proves the table again.
  (void)save_record(data_dir, d);
}

uint64_t expected_stage_peak_bytes(const Balance& b, BatchStage s, int cpus) {
  return with_stage(s, [&]<BatchStage S>() { return Stage<S>::expected_memory_bytes(b, cpus); });
}

std::chrono::seconds expected_stage_seconds(const Balance& b, BatchStage s, int cpus) {
  const double per_slot =
      with_stage(s, [&]<BatchStage S>() { return Stage<S>::kSecondsPerSlot.of(BalanceKind::of(b)); });
  // The rates were measured on one to two cores; more cores help up to the parts in flight, so
  // count no more than half of each core beyond two.
  const double speedup = cpus <= 2 ? 1.0 : 1.0 + 0.5 * double(cpus - 2) / 2.0;
  return std::chrono::seconds(int64_t(std::ceil(per_slot * double(table_slots(b)) / speedup)));
}

std::chrono::seconds BatchPlan::seconds_to_do() const {
  std::chrono::seconds t{0};
  for (const PlannedStage& p : stages)
    if (!p.done) t += p.expected_seconds;
  return t;
}

uint64_t BatchPlan::peak_bytes_to_do() const {
  uint64_t peak = 0;
  for (const PlannedStage& p : stages)
    if (!p.done) peak = std::max(peak, p.expected_peak_bytes);
  return peak;
}

BatchPlan plan_batch(const BatchRequest& request) {
  BatchPlan plan;
  const int threads = resolve_threads(request.threads);
  for (const Balance& b : batch_balances(request)) {
    const BatchRecord r = record_as_found(request.data_dir, b);
    for (BatchStage s : kAllBatchStages)
      if (wanted_stage(request, b, s))
        plan.stages.push_back(
            {b, s, r.stage(s).done, expected_stage_seconds(b, s, threads), expected_stage_peak_bytes(b, s, threads)});
  }
  return plan;
}

std::vector<Balance> batch_balances(const BatchRequest& request) {
  std::vector<Balance> all = request.balances;
  if (!request.only && serves(StagePart::CaptureResolved, request.covers)) {
    if (request.successors == SuccessorValues::Tables) {
      // The tables the balances' captures and promotions reach, each a step of its own.
      const std::vector<Balance> tables = missing_tables(request.data_dir, all);
      all.insert(all.end(), tables.begin(), tables.end());
    } else {
      std::set<Balance> listed;
      for (const Balance& b : all) listed.insert(b.canonical());
      for (size_t i = 0; i < all.size(); ++i)
        for (const Balance& s : missing_successor_covers(request.data_dir, all[i]))
          if (listed.insert(s.canonical()).second) all.push_back(s.canonical());
    }
  }
  return dependency_order(all);
}

Result<std::vector<BatchRecord>> run_batch(const BatchRequest& request, const BatchEvents& events,
                                           const Progress& progress) {
  const std::vector<Balance> order = batch_balances(request);
  for (const Balance& b : order)
    if (auto s = check_supported(b); !s) return s.error();
  if (request.only == BatchStage::Verify && request.syzygy_dir.empty())
    return Error{"the verify stage compares with Syzygy: give its directory"};
  const int threads = resolve_threads(request.threads);
  TableStore store(request.data_dir);
  std::vector<BatchRecord> records;
  records.reserve(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    if (progress.cancelled()) return Error{"cancelled"};
    const Balance& b = order[i];
    auto wanted = [&](BatchStage s) { return wanted_stage(request, b, s); };
    BatchRecord& r = records.emplace_back(record_as_found(request.data_dir, b));
    if (auto it = request.syzygy_sizes.find(b.name()); it != request.syzygy_sizes.end())
      r.syzygy_wdl_bytes = it->second;
    const std::string where = b.name() + " (" + std::to_string(i + 1) + "/" + std::to_string(order.size()) + ")";
    Progress stage_progress(progress, [&](const ProgressEvent& e) {
      progress.report(e.stage, e.fraction, where + ": " + std::string(e.detail));
    });
    remove_temporaries(record_path(request.data_dir, b).parent_path(), b);
    remove_temporaries(store.path_for(b).parent_path(), b);
    remove_temporaries(store::cover_path(request.data_dir, b).parent_path(), b);
    for (BatchStage s : kAllBatchStages) {
      if (!wanted(s)) {
        // One stage alone needs the stages before it of its own cover and of the table.
        if (request.only && needs(*request.only, s) && !r.stage(s).done) {
          r.error =
              std::string(name_of(*request.only)) + ": needs the " + std::string(name_of(s)) + " stage done first";
          if (events.stage_done) events.stage_done(r, *request.only, false);
          break;
        }
        continue;
      }
      const bool skipped = r.stage(s).done;
      if (!skipped) {
        for (BatchStage later : kAllBatchStages)
          if (needs(later, s)) r.stage(later).done = false;  // made from what this stage remakes
        with_stage(s, [&]<BatchStage S>() {
          StageContext c{request, store, b, threads, stage_progress, r.stage(S), {}};
          Stage<S>::run(c, r.results<S>());
          if (!c.error.empty()) r.error = std::string(name_of(S)) + ": " + c.error;
        });
        if (progress.cancelled()) break;
        if (auto saved = save_record(request.data_dir, r); !saved) r.error = "record: " + saved.error().message;
      }
      if (events.stage_done) events.stage_done(r, s, skipped);
      if (!r.error.empty()) break;
    }
    store.unload_all();  // 5-piece tables are hundreds of MB each
    if (progress.cancelled()) return Error{"cancelled"};
  }
  return records;
}

}  // namespace egtmin::run
