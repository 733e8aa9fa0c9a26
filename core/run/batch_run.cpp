// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/batch_run.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>
#include <type_traits>
#include <utility>

#include "logic/check.hpp"
#include "probe/probe.hpp"
#include "run/minimize_run.hpp"
#include "run/proof_run.hpp"
#include "store/cover_file.hpp"
#include "table/generator.hpp"
#include "table/self_check.hpp"
#include "table/table_store.hpp"
#include "table/verify.hpp"
#include "util/atomic_file.hpp"
#include "util/defaults.hpp"
#include "util/memory.hpp"

namespace egtmin::run {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::filesystem::path record_path(const std::filesystem::path& data_dir, const Balance& b) {
  return data_dir / "batch" / (b.name() + ".rec");
}

// Every field of a record with its key, in file order: the one list both directions read.
// Several values may share a line (std::tie), and the passes are one line each.
template <class Record, class Visit>
void for_each_field(Record& r, Visit&& v) {
  v("table", r.table);
  v("table_expected_peak", r.table_expected_peak);
  v("generate_seconds", r.generate_seconds);
  v("self_check_seconds", r.self_check_seconds);
  v("positions", r.positions);
  v("counts", r.counts.by_code);
  v("minimize", r.minimize);
  v("minimize_expected_peak", r.minimize_expected_peak);
  v("minimize_cpu_seconds", r.minimize_cpu_seconds);
  v("cubes", r.cubes);
  v("rule_draws", r.rule_draws);
  v("cover_bytes", r.cover_bytes);
  v("split_inputs", r.split_inputs);
  v("care_positions", r.care_positions);
  v("pass", r.passes);
  v("verify", r.verify);
  v("syzygy", std::tie(r.syzygy_compared, r.syzygy_positions, r.syzygy_mismatches));
  v("check", r.check);
  v("checked_positions", r.checked_positions);
  v("mismatches", r.mismatches);
  v("minimize_cr", r.minimize_cr);
  v("cr_minimize_expected_peak", r.cr_minimize_expected_peak);
  v("cr_minimize_cpu_seconds", r.cr_minimize_cpu_seconds);
  v("cr_cubes", r.cr_cubes);
  v("cr_rule_draws", r.cr_rule_draws);
  v("cr_cover_bytes", r.cr_cover_bytes);
  v("cr_search_positions", r.cr_search_positions);
  v("cr_reused_standalone", r.cr_reused_standalone);
  v("check_cr", r.check_cr);
  v("cr_checked_positions", r.cr_checked_positions);
  v("cr_probed_positions", r.cr_probed_positions);
  v("cr_mismatches", r.cr_mismatches);
}

// Values on a line after the key, space-separated.
template <class T>
void put_values(std::ostream& o, const T& v) {
  o << ' ' << v;
}
void put_values(std::ostream& o, const StageFigures& s) {
  o << ' ' << s.done << ' ' << s.seconds << ' ' << s.peak_bytes;
}
template <class T, size_t N>
void put_values(std::ostream& o, const std::array<T, N>& a) {
  for (const T& v : a) o << ' ' << v;
}
void put_values(std::ostream& o, const std::vector<int>& a) {
  for (int v : a) o << ' ' << v;
}
template <class... T>
void put_values(std::ostream& o, const std::tuple<T&...>& t) {
  std::apply([&](const auto&... v) { (put_values(o, v), ...); }, t);
}

template <class T>
void get_values(std::istream& in, T& v) {
  in >> v;
}
void get_values(std::istream& in, StageFigures& s) { in >> s.done >> s.seconds >> s.peak_bytes; }
template <class T, size_t N>
void get_values(std::istream& in, std::array<T, N>& a) {
  for (T& v : a) in >> v;
}
void get_values(std::istream& in, std::vector<int>& a) {
  for (int v; in >> v;) a.push_back(v);
}
template <class... T>
void get_values(std::istream& in, std::tuple<T&...> t) {
  std::apply([&](auto&... v) { (get_values(in, v), ...); }, t);
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

// Measures one stage: wall time and the peak resident set from a fresh start.
template <class Fn>
StageFigures measured(Fn&& fn) {
  StageFigures s;
  reset_peak_memory();
  const auto t0 = Clock::now();
  fn();
  s.seconds = since(t0);
  s.peak_bytes = peak_memory_bytes();
  return s;
}

// A table made and self-checked on the way to another balance's: its record gets the table stage,
// so that a batch of that balance later (the next one of a piece count, mostly) finds it done
// instead of proving the table a second time. Stages made from an older table are undone.
void record_dependency_table(const std::filesystem::path& data_dir, const Balance& b, const TableStore::Generated& g) {
  if (!g.self_check || !g.self_check->ok()) return;  // a table that fails is not written
  BatchRecord d = record_as_found(data_dir, b);
  d.verify.done = d.minimize.done = d.check.done = d.minimize_cr.done = d.check_cr.done = false;
  d.table = {true, g.seconds + g.self_check_seconds, peak_memory_bytes()};
  d.table_expected_peak = table_peak_bytes(b);
  d.generate_seconds = g.seconds;
  d.self_check_seconds = g.self_check_seconds;
  d.positions = g.self_check->positions;
  d.counts = g.self_check->counts;
  // The record is a shortcut, not the table: a run that cannot write it proves the table again.
  (void)save_record(data_dir, d);
}

// Table stage: generate and self-check, or self-check a table made before the record existed.
void table_stage(TableStore& store, BatchRecord& r, int threads, std::optional<uint64_t> memory_limit,
                 const Progress& progress) {
  // The tables a missing dependency chain needs are made here too: the plan covers them all.
  const RunPlan plan = plan_run(store.data_dir(), {r.balance}, false, threads);
  r.table_expected_peak = std::max(plan.peak_bytes(), table_peak_bytes(r.balance));
  if (auto s = check_memory(plan, memory_limit ? *memory_limit : available_memory_bytes()); !s) {
    r.error = "table: " + s.error().message;
    return;
  }
  if (store.on_disk(r.balance) && !Table::is_older_format(store.path_for(r.balance))) {
    SelfCheckReport report;
    r.table = measured([&] {
      auto t = store.get(r.balance);
      if (!t) {
        r.error = "table: " + t.error().message;
        return;
      }
      SelfCheckOptions opts;
      opts.threads = threads;
      report = self_check(**t, store.lookup(), {}, opts, progress);
    });
    if (!r.error.empty() || progress.cancelled()) return;
    if (!report.ok()) {
      r.error = "self-check: " + std::to_string(report.failures) + " positions do not follow from their successors" +
                (report.examples.empty() ? "" : " (first: " + report.examples.front() + ")");
      return;
    }
    r.generate_seconds = 0;
    r.self_check_seconds = r.table.seconds;
    r.positions = report.positions;
    r.counts = report.counts;
    r.table.done = true;
    return;
  }
  std::optional<TableStore::Generated> made;
  r.table = measured([&] {
    GenerateOptions opts;
    opts.threads = threads;
    opts.self_check = true;
    auto t = store.ensure(r.balance, opts, progress, [&](const Balance& b, const TableStore::Generated& g) {
      if (b == r.balance) {
        made = g;
        return;
      }
      record_dependency_table(store.data_dir(), b, g);
      reset_peak_memory();  // the next table's peak is its own
    });
    if (!t && !progress.cancelled()) r.error = "generate: " + t.error().message;
  });
  if (!r.error.empty() || progress.cancelled() || !made || !made->self_check) {
    if (r.error.empty() && !progress.cancelled()) r.error = "generate: the table was not made";
    return;
  }
  r.generate_seconds = made->seconds;
  r.self_check_seconds = made->self_check_seconds;
  r.positions = made->self_check->positions;
  r.counts = made->self_check->counts;
  r.table.done = true;
}

// One balance's cover of `kind` made and saved (with its probe layout) through the run pipeline,
// as `minimize` makes it: the measured stage and its result, or the error (empty when cancelled).
struct MadeCover {
  StageFigures figures;
  std::optional<BalanceResult> result;
  std::string error;
  uint64_t bytes = 0;  // of the cover file
};

MadeCover make_cover(const BatchRequest& req, const Balance& b, store::CoverKind kind, const Progress& progress) {
  MinimizeRequest m;
  m.balances = {b};
  m.passes = req.passes;
  m.canon = req.canon;
  m.effort = req.effort;
  m.threads = req.threads;
  m.data_dir = req.data_dir;
  m.memory_limit = req.memory_limit;
  m.kind = kind;
  MadeCover made;
  made.figures = measured([&] {
    auto run = run_minimize(m, {}, progress);
    if (!run) {
      if (!progress.cancelled()) made.error = run.error().message;
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
  }
  return made;
}

void minimize_stage(const BatchRequest& req, BatchRecord& r, const Progress& progress) {
  r.minimize_expected_peak = minimize_peak_bytes(r.balance, resolve_threads(req.threads), store::CoverKind::Standalone);
  MadeCover made = make_cover(req, r.balance, store::CoverKind::Standalone, progress);
  r.minimize = made.figures;
  if (!made.error.empty()) r.error = "minimize: " + made.error;
  if (!made.result) return;
  const BalanceResult& result = *made.result;
  r.minimize_cpu_seconds = result.cpu_seconds;
  r.cubes = result.cubes;
  r.rule_draws = result.summary.rule_draws.size();
  r.split_inputs = result.summary.split_inputs;
  r.care_positions = result.summary.care_positions;
  r.passes = result.summary.reports;
  r.cover_bytes = made.bytes;
  r.minimize.done = true;
}

// The capture-resolved stages refuse to start without the covers the capture search probes: the
// cover could be made, but neither proven nor probed, and a 5-piece minimization is too long to
// waste.
bool successor_covers_there(const BatchRequest& req, BatchRecord& r, BatchStage stage) {
  const std::vector<Balance> missing = missing_successor_covers(req.data_dir, r.balance);
  if (missing.empty()) return true;
  std::string listed, command;
  for (const Balance& m : missing) {
    listed += (listed.empty() ? "" : ", ") + m.name();
    command += " " + m.name();
  }
  r.error = std::string(name_of(stage)) + ": " + r.balance.name() +
            "'s capture-resolved cover needs the covers of the balances its captures and promotions reach; "
            "missing: " +
            listed + " (list them in the batch, or make them first: egtmin-cli minimize" + command + ")";
  return false;
}

void minimize_cr_stage(const BatchRequest& req, BatchRecord& r, const Progress& progress) {
  if (!successor_covers_there(req, r, BatchStage::MinimizeCr)) return;
  r.cr_minimize_expected_peak =
      minimize_peak_bytes(r.balance, resolve_threads(req.threads), store::CoverKind::CaptureResolved);
  MadeCover made = make_cover(req, r.balance, store::CoverKind::CaptureResolved, progress);
  r.minimize_cr = made.figures;
  if (!made.error.empty()) r.error = "minimize-cr: " + made.error;
  if (!made.result) return;
  const BalanceResult& result = *made.result;
  r.cr_minimize_cpu_seconds = result.cpu_seconds;
  r.cr_cubes = result.cubes;
  r.cr_rule_draws = result.summary.rule_draws.size();
  r.cr_search_positions = result.capture_resolved;
  r.cr_reused_standalone = result.reused_standalone;
  r.cr_cover_bytes = made.bytes;
  r.minimize_cr.done = true;
}

void verify_stage(TableStore& store, const BatchRequest& req, BatchRecord& r, const Progress& progress) {
  auto syzygy = Syzygy::open(req.syzygy_dir);
  if (!syzygy) {
    r.error = "verify: " + syzygy.error().message;
    return;
  }
  if (!(*syzygy)->has_wdl(r.balance)) {  // nothing to compare with: the self-check stays the proof
    r.syzygy_compared = false;
    r.syzygy_positions = r.syzygy_mismatches = 0;
    r.verify = {true, 0, 0};
    return;
  }
  VerifyReport report;
  r.verify = measured([&] {
    auto t = store.get(r.balance);
    if (!t) {
      r.error = "verify: " + t.error().message;
      return;
    }
    VerifyOptions opts;
    opts.threads = resolve_threads(req.threads);
    report = verify_against_syzygy(**t, **syzygy, opts, progress);
  });
  if (!r.error.empty() || progress.cancelled()) return;
  r.syzygy_compared = true;
  r.syzygy_positions = report.positions;
  r.syzygy_mismatches = report.mismatches;
  if (report.mismatches > 0) {
    r.error = "verify: " + std::to_string(report.mismatches) + " positions differ from Syzygy" +
              (report.examples.empty() ? "" : " (first: " + report.examples.front() + ")");
    return;
  }
  r.verify.done = true;
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

void check_stage(TableStore& store, const BatchRequest& req, BatchRecord& r, const Progress& progress) {
  logic::CheckReport report;
  r.check = measured([&] {
    auto t = store.get(r.balance);
    if (!t) {
      r.error = "check: " + t.error().message;
      return;
    }
    auto cover = store::load_cover(store::cover_path(req.data_dir, r.balance), &r.balance);
    if (!cover) {
      r.error = "check: " + cover.error().message;
      return;
    }
    report = logic::check_cover(**t, cover->cubes, cover->canon, cover->rule_draws, cover->implied, 0, 1,
                                resolve_threads(req.threads), progress);
  });
  if (!r.error.empty() || progress.cancelled()) return;
  r.checked_positions = report.positions;
  r.mismatches = report.mismatches;
  if (report.mismatches > 0) {
    r.error = "check: " + std::to_string(report.mismatches) + " mismatches (first: " + report.first_mismatch + ")";
    return;
  }
  r.check.done = true;
}

// The capture-resolved cover's proof, as `check NAME --capture-resolved --probe` runs it.
void check_cr_stage(const BatchRequest& req, BatchRecord& r, const Progress& progress) {
  if (!successor_covers_there(req, r, BatchStage::CheckCr)) return;
  ProofRequest p;
  p.balances = {r.balance};
  p.data_dir = req.data_dir;
  p.threads = req.threads;
  p.self_check = false;  // the table stage proved the table
  p.check_cover = true;
  p.check_probe = true;
  p.kind = store::CoverKind::CaptureResolved;
  p.memory_limit = req.memory_limit;
  std::optional<BalanceProof> proof;
  r.check_cr = measured([&] {
    auto run = run_proof(p, {}, progress);
    if (!run) {
      if (!progress.cancelled()) r.error = "check-cr: " + run.error().message;
      return;
    }
    if (!run->empty()) proof = std::move(run->front());
  });
  if (!r.error.empty() || progress.cancelled()) return;
  if (!proof) {
    r.error = "check-cr: no result";
    return;
  }
  r.cr_checked_positions = proof->cover ? proof->cover->positions : 0;
  r.cr_probed_positions = proof->probe ? proof->probe->positions : 0;
  r.cr_mismatches = proof->failures();
  if (!proof->error.empty()) {
    r.error = "check-cr: " + proof->error;
    return;
  }
  if (!proof->cover || !proof->probe) {
    r.error = "check-cr: the cubes and the probe were not both checked";
    return;
  }
  if (r.cr_mismatches > 0) {
    const logic::CheckReport& first = proof->cover->mismatches > 0 ? *proof->cover : *proof->probe;
    r.error = "check-cr: " + std::to_string(proof->cover->mismatches) + " mismatches of the cubes, " +
              std::to_string(proof->probe->mismatches) + " of the probe (first: " + first.first_mismatch + ")";
    return;
  }
  r.check_cr.done = true;
}

}  // namespace

StageFigures& BatchRecord::stage(BatchStage s) { return const_cast<StageFigures&>(std::as_const(*this).stage(s)); }

const StageFigures& BatchRecord::stage(BatchStage s) const {
  switch (s) {
    case BatchStage::Table: return table;
    case BatchStage::Verify: return verify;
    case BatchStage::Minimize: return minimize;
    case BatchStage::Check: return check;
    case BatchStage::MinimizeCr: return minimize_cr;
    case BatchStage::CheckCr: return check_cr;
  }
  return table;
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
  if (!TableStore(data_dir).on_disk(b))
    r.table.done = r.verify.done = r.minimize.done = r.check.done = r.minimize_cr.done = r.check_cr.done = false;
  if (!std::filesystem::exists(store::cover_path(data_dir, b))) r.minimize.done = r.check.done = false;
  if (!std::filesystem::exists(store::cover_path(data_dir, b, store::CoverKind::CaptureResolved)))
    r.minimize_cr.done = r.check_cr.done = false;
  return r;
}

std::vector<Balance> missing_successor_covers(const std::filesystem::path& data_dir, const Balance& b) {
  std::vector<Balance> missing;
  std::error_code ec;
  for (const Balance& s : successor_balances(b.canonical()))
    if (!std::filesystem::exists(store::cover_path(data_dir, s), ec) &&
        !std::filesystem::exists(store::cover_path(data_dir, s, store::CoverKind::CaptureResolved), ec))
      missing.push_back(s);
  return missing;
}

Result<std::vector<BatchRecord>> run_batch(const BatchRequest& request, const BatchEvents& events,
                                           const Progress& progress) {
  const std::vector<Balance> order = dependency_order(request.balances);
  for (const Balance& b : order)
    if (auto s = check_supported(b); !s) return s.error();
  if (request.only == BatchStage::Verify && request.syzygy_dir.empty())
    return Error{"the verify stage compares with Syzygy: give its directory"};
  const int threads = resolve_threads(request.threads);
  TableStore store(request.data_dir);
  auto wanted = [&](BatchStage s) {
    if (request.only) return *request.only == s;
    if (is_capture_resolved(s)) return request.covers == store::CoverKind::CaptureResolved;
    return s != BatchStage::Verify || !request.syzygy_dir.empty();
  };
  std::vector<BatchRecord> records;
  records.reserve(order.size());
  // The wanted stages among `stages` of the i-th balance that are not done yet, in their order,
  // up to the first that fails.
  auto run_stages = [&](size_t i, std::span<const BatchStage> stages) {
    const Balance& b = order[i];
    BatchRecord& r = records[i];
    const std::string where = b.name() + " (" + std::to_string(i + 1) + "/" + std::to_string(order.size()) + ")";
    Progress stage_progress(progress, [&](const ProgressEvent& e) {
      progress.report(e.stage, e.fraction, where + ": " + std::string(e.detail));
    });
    auto run_stage = [&](BatchStage s) {
      switch (s) {
        case BatchStage::Table:
          // A new table needs new covers.
          r.verify.done = r.minimize.done = r.check.done = r.minimize_cr.done = r.check_cr.done = false;
          remove_temporaries(store.path_for(b).parent_path(), b);
          table_stage(store, r, threads, request.memory_limit, stage_progress);
          break;
        case BatchStage::Verify: verify_stage(store, request, r, stage_progress); break;
        case BatchStage::Minimize:
          store.unload_all();  // minimize loads what it needs
          r.check.done = false;
          remove_temporaries(store::cover_path(request.data_dir, b).parent_path(), b);
          minimize_stage(request, r, stage_progress);
          break;
        case BatchStage::Check: check_stage(store, request, r, stage_progress); break;
        case BatchStage::MinimizeCr:
          store.unload_all();
          r.check_cr.done = false;
          remove_temporaries(store::cover_path(request.data_dir, b).parent_path(), b);
          minimize_cr_stage(request, r, stage_progress);
          break;
        case BatchStage::CheckCr:
          store.unload_all();  // the proof loads what it needs
          check_cr_stage(request, r, stage_progress);
          break;
      }
    };
    remove_temporaries(record_path(request.data_dir, b).parent_path(), b);
    for (BatchStage s : stages) {
      if (!wanted(s)) {
        // One stage alone needs the stages before it, all but the optional Syzygy comparison.
        if (request.only && s < *request.only && s != BatchStage::Verify && !r.stage(s).done) {
          r.error =
              std::string(name_of(*request.only)) + ": needs the " + std::string(name_of(s)) + " stage done first";
          if (events.stage_done) events.stage_done(r, *request.only, false);
          break;
        }
        continue;
      }
      const bool skipped = r.stage(s).done;
      if (!skipped) {
        run_stage(s);
        if (progress.cancelled()) break;
        if (auto saved = save_record(request.data_dir, r); !saved) r.error = "record: " + saved.error().message;
      }
      if (events.stage_done) events.stage_done(r, s, skipped);
      if (!r.error.empty()) break;
    }
    store.unload_all();  // 5-piece tables are hundreds of MB each
  };
  for (size_t i = 0; i < order.size(); ++i) {
    if (progress.cancelled()) return Error{"cancelled"};
    records.push_back(record_as_found(request.data_dir, order[i]));
    if (auto it = request.syzygy_sizes.find(order[i].name()); it != request.syzygy_sizes.end())
      records[i].syzygy_wdl_bytes = it->second;
    run_stages(i, kBatchStages);
    if (progress.cancelled()) return Error{"cancelled"};
  }
  // The capture-resolved stages after the standalone stages of every listed balance: by then each
  // cover a capture search probes (KBBvKP's promotions probe KBBvKQ's) is made where it could be,
  // and the standalone covers, which every larger balance's search needs, are not held up behind
  // the capture-resolved minimizations.
  if (request.covers == store::CoverKind::CaptureResolved || (request.only && is_capture_resolved(*request.only)))
    for (size_t i = 0; i < order.size(); ++i) {
      if (!records[i].error.empty()) continue;  // its standalone stages did not finish
      run_stages(i, kCaptureResolvedStages);
      if (progress.cancelled()) return Error{"cancelled"};
    }
  return records;
}

}  // namespace egtmin::run
