// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/stages/table_stage.hpp"

#include <algorithm>
#include <cstdio>

#include "run/batch_run.hpp"
#include "run/run_plan.hpp"
#include "table/generator.hpp"
#include "table/self_check.hpp"

namespace egtmin::run {

void Stage<BatchStage::Table>::run(StageContext& c, Results& r) {
  TableStore& store = c.store;
  const Balance& b = c.balance;
  // The tables a missing dependency chain needs are made here too: the plan covers them all.
  const RunPlan plan = plan_run(store.data_dir(), {b}, false, c.threads);
  r.expected_peak_bytes = std::max(plan.peak_bytes(), table_peak_bytes(b));
  const uint64_t limit = c.request.memory_limit ? *c.request.memory_limit : available_memory_bytes();
  if (auto s = check_memory(plan, limit); !s) {
    c.error = s.error().message;
    return;
  }
  if (store.on_disk(b) && !Table::is_older_format(store.path_for(b))) {
    SelfCheckReport report;
    c.figures = measured([&] {
      auto t = store.get(b);
      if (!t) {
        c.error = t.error().message;
        return;
      }
      SelfCheckOptions opts;
      opts.threads = c.threads;
      report = self_check(**t, store.lookup(), {}, opts, c.progress);
    });
    if (!c.error.empty() || c.progress.cancelled()) return;
    if (!report.ok()) {
      c.error = "self-check: " + std::to_string(report.failures) + " positions do not follow from their successors" +
                (report.examples.empty() ? "" : " (first: " + report.examples.front() + ")");
      return;
    }
    r.generate_seconds = 0;
    r.self_check_seconds = c.figures.seconds;
    r.positions = report.positions;
    r.values = report.counts;
    c.figures.done = true;
    return;
  }
  std::optional<TableStore::Generated> made;
  c.figures = measured([&] {
    GenerateOptions opts;
    opts.threads = c.threads;
    opts.self_check = true;
    auto t = store.ensure(b, opts, c.progress, [&](const Balance& d, const TableStore::Generated& g) {
      if (d == b) {
        made = g;
        return;
      }
      record_dependency_table(store.data_dir(), d, g);
      reset_peak_memory();  // the next table's peak is its own
    });
    if (!t && !c.progress.cancelled()) c.error = "generate: " + t.error().message;
  });
  if (!c.error.empty() || c.progress.cancelled()) return;
  if (!made || !made->self_check) {
    c.error = "generate: the table was not made";
    return;
  }
  r.generate_seconds = made->seconds;
  r.self_check_seconds = made->self_check_seconds;
  r.positions = made->self_check->positions;
  r.values = made->self_check->counts;
  c.figures.done = true;
}

std::string Stage<BatchStage::Table>::summary(const StageFigures& f, const Results& r) {
  char line[120];
  std::snprintf(line, sizeof line, "%.1f s generate + %.1f s self-check, peak %.2f GB: ", r.generate_seconds,
                r.self_check_seconds, double(f.peak_bytes) / 1e9);
  return line + value_counts_text(r.values);
}

bool Stage<BatchStage::Table>::outputs_there(const std::filesystem::path& data_dir, const Balance& b, const Results&) {
  return TableStore(data_dir).on_disk(b);
}

uint64_t Stage<BatchStage::Table>::expected_memory_bytes(const Balance& b, int) { return table_peak_bytes(b); }

}  // namespace egtmin::run
