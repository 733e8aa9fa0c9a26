// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli batch: every stage for a whole piece count (or the balances named), resumable.
#include <csignal>
#include <cstdio>

#include "common.hpp"
#include "logic/pass_sequence.hpp"
#include "run/batch_run.hpp"

namespace egtmin::cli {

namespace {

nlohmann::json stage_json(const run::StageFigures& s) {
  return {{"done", s.done}, {"seconds", s.seconds}, {"peak_bytes", s.peak_bytes}};
}

nlohmann::json passes_json(const std::vector<logic::PassReport>& passes) {
  nlohmann::json j = nlohmann::json::array();
  for (const logic::PassReport& p : passes)
    j.push_back({{"pass", p.pass},
                 {"cubes", p.cubes},
                 {"seconds", p.seconds},
                 {"cpu_seconds", p.cpu_seconds},
                 {"peak_bytes", p.peak_bytes}});
  return j;
}

// Present for a balance whose capture-resolved stages were asked for, or are done from an earlier run.
void add_capture_resolved_json(nlohmann::json& j, const run::BatchRecord& r) {
  j["minimize_cr"] = stage_json(r.minimize_cr);
  j["cr_minimize_expected_peak_bytes"] = r.cr_minimize_expected_peak;
  j["cr_minimize_cpu_seconds"] = r.cr_minimize_cpu_seconds;
  j["cr_cubes"] = r.cr_cubes;
  j["cr_rule_draws"] = r.cr_rule_draws;
  j["cr_cover_bytes"] = r.cr_cover_bytes;
  j["cr_search_positions"] = r.cr_search_positions;
  j["cr_reused_standalone"] = r.cr_reused_standalone;
  j["check_cr"] = stage_json(r.check_cr);
  j["cr_checked_positions"] = r.cr_checked_positions;
  j["cr_probed_positions"] = r.cr_probed_positions;
  j["cr_mismatches"] = r.cr_mismatches;
}

// `asked`: the covers the run was asked for; a capture-resolved one's figures are listed then too.
nlohmann::json record_json(const run::BatchRecord& r, store::CoverKind asked) {
  nlohmann::json j = {{"balance", r.balance.name()},
                      {"positions", r.positions},
                      {"values", value_counts_json(r.counts)},
                      {"table", stage_json(r.table)},
                      {"table_expected_peak_bytes", r.table_expected_peak},
                      {"generate_seconds", r.generate_seconds},
                      {"self_check_seconds", r.self_check_seconds},
                      {"minimize", stage_json(r.minimize)},
                      {"minimize_expected_peak_bytes", r.minimize_expected_peak},
                      {"minimize_cpu_seconds", r.minimize_cpu_seconds},
                      {"cubes", r.cubes},
                      {"rule_draws", r.rule_draws},
                      {"cover_bytes", r.cover_bytes},
                      {"split_inputs", r.split_inputs},
                      {"care_positions", r.care_positions},
                      {"passes", passes_json(r.passes)},
                      {"verify", stage_json(r.verify)},
                      {"syzygy_compared", r.syzygy_compared},
                      {"syzygy_positions", r.syzygy_positions},
                      {"syzygy_mismatches", r.syzygy_mismatches},
                      {"check", stage_json(r.check)},
                      {"checked_positions", r.checked_positions},
                      {"mismatches", r.mismatches}};
  j["syzygy_wdl_bytes"] = r.syzygy_wdl_bytes ? nlohmann::json(*r.syzygy_wdl_bytes) : nlohmann::json(nullptr);
  if (asked == store::CoverKind::CaptureResolved || r.minimize_cr.done || r.check_cr.done)
    add_capture_resolved_json(j, r);
  if (!r.error.empty()) j["error"] = r.error;
  return j;
}

double gb(uint64_t bytes) { return double(bytes) / 1e9; }

// A scheduler stops a job with SIGTERM (then SIGKILL after a grace period): cancel the run so the
// stage in flight stops at its next step and writes nothing, rather than die mid-way.
Progress* g_cancel_on_signal = nullptr;
extern "C" void cancel_on_signal(int) {
  if (g_cancel_on_signal) g_cancel_on_signal->cancel();  // an atomic store: safe in a handler
}

Command add_batch(CLI::App& app) {
  struct Args {
    Common common;
    std::vector<std::string> balances;
    int pieces = 0;
    std::string sizes;
    std::string memory_limit = "auto";
    std::string syzygy;
    std::string stage;
    bool capture_resolved = false;
  };
  auto a = std::make_shared<Args>();
  auto* sub =
      app.add_subcommand("batch", "Every stage for many balances: generate and self-check, minimize, check; resumable");
  sub->footer(
      "Balances go in dependency order. Each finished stage is recorded under DATA/batch, after the file\n"
      "it made was written whole: kill the run at any moment and start it again, and it goes on from\n"
      "the stage it was in. A table made on the way to another balance's (a capture or promotion\n"
      "reaches it) is recorded as generated and self-checked then; one found on disk without a\n"
      "record is self-checked before use.\n"
      "Uses the default passes and effort of minimize. The report gives, per balance: positions, the\n"
      "five values, each stage's time and peak memory, cubes, cover bytes and Syzygy's WDL bytes\n"
      "(from --syzygy-sizes, a 'bytes<TAB>file' table).\n"
      "With --syzygy, each table is also compared with Syzygy's WDL file (the verify stage).\n"
      "--stage runs one stage of the balances named, as a cluster job does (see cluster submit): the\n"
      "stages it needs must be done, and SIGTERM stops it without writing anything.\n"
      "With --capture-resolved, each balance also gets its capture-resolved cover (minimize-cr, as\n"
      "minimize --capture-resolved) and that cover's proof (check-cr, as check --capture-resolved\n"
      "--probe), after the standalone stages of every balance named. Its capture search probes the\n"
      "covers of the balances captures and promotions reach: without them the stage fails, naming them.\n"
      "Examples:\n  egtmin-cli batch --pieces 5 --json\n  egtmin-cli batch KNNvKP KBBvKN --syzygy-sizes sizes.tsv\n"
      "  egtmin-cli batch KQvKR --stage minimize --data /shared/egtmin\n"
      "  egtmin-cli batch --pieces 4 --capture-resolved");
  add_balance_selection(sub, a->balances, a->pieces, "Balances to run");
  sub->add_option("--syzygy-sizes", a->sizes, "Syzygy WDL file sizes to report beside each cover (bytes<TAB>file)");
  sub->add_option("--syzygy", a->syzygy, "Directory of Syzygy .rtbw files to compare each table with (verify stage)");
  sub->add_option("--stage", a->stage, "Run only this stage: " + enum_names_text<run::BatchStage>());
  sub->add_flag("--capture-resolved", a->capture_resolved,
                "Also make each balance's capture-resolved cover (NAME.egtcr) and prove it (minimize-cr, check-cr)");
  add_memory_limit(sub, a->memory_limit);
  add_common(sub, a->common);
  return {sub, [a] {
            std::optional<run::BatchStage> only;
            if (!a->stage.empty()) {
              only = parse_enum<run::BatchStage>(a->stage);
              if (!only)
                return fail("--stage: unknown stage '" + a->stage + "' (" + enum_names_text<run::BatchStage>() + ")");
              if (*only == run::BatchStage::Verify && a->syzygy.empty())
                return fail("--stage verify compares with Syzygy: give --syzygy DIR");
            }
            auto requested = balances_or_pieces(a->balances, a->pieces, "batch");
            if (!requested) return fail(requested.error().message);
            run::BatchRequest request;
            request.balances = *requested;
            request.data_dir = a->common.data_dir();
            request.passes = logic::default_passes();
            request.threads = a->common.threads;
            request.only = only;
            request.syzygy_dir = a->syzygy;
            request.covers = cover_kind(a->capture_resolved);
            const store::CoverKind asked = cover_kind(a->capture_resolved || (only && run::is_capture_resolved(*only)));
            auto limit = memory_limit(a->memory_limit);
            if (!limit) return fail(limit.error().message);
            request.memory_limit = *limit;
            if (!a->sizes.empty()) {
              auto sizes = run::read_syzygy_sizes(a->sizes);
              if (!sizes) return fail("--syzygy-sizes: " + sizes.error().message);
              request.syzygy_sizes = *sizes;
            }
            auto progress = make_progress(a->common);
            g_cancel_on_signal = progress.get();
            std::signal(SIGTERM, cancel_on_signal);
            std::signal(SIGINT, cancel_on_signal);
            run::BatchEvents events;
            if (!a->common.json)
              events.stage_done = [&](const run::BatchRecord& r, run::BatchStage stage, bool skipped) {
                end_progress(a->common);
                std::printf("%-8s %-11s ", r.balance.name().c_str(), std::string(name_of(stage)).c_str());
                if (!r.error.empty())
                  std::printf("FAILED: %s", r.error.c_str());
                else if (skipped)
                  std::printf("done before");
                else
                  switch (stage) {
                    case run::BatchStage::Table:
                      std::printf("%.1f s generate + %.1f s self-check, peak %.2f GB: %s", r.generate_seconds,
                                  r.self_check_seconds, gb(r.table.peak_bytes), value_counts_text(r.counts).c_str());
                      break;
                    case run::BatchStage::Verify:
                      if (!r.syzygy_compared)
                        std::printf("no Syzygy WDL file: not compared");
                      else
                        std::printf("%llu positions against Syzygy, %llu mismatches in %.1f s",
                                    (unsigned long long)r.syzygy_positions, (unsigned long long)r.syzygy_mismatches,
                                    r.verify.seconds);
                      break;
                    case run::BatchStage::Minimize:
                      std::printf("%llu cubes, %llu bytes in %.1f s, peak %.2f GB (expected %.2f);",
                                  (unsigned long long)r.cubes, (unsigned long long)r.cover_bytes, r.minimize.seconds,
                                  gb(r.minimize.peak_bytes), gb(r.minimize_expected_peak));
                      for (const logic::PassReport& p : r.passes) std::printf(" %s %.0f s", p.pass.c_str(), p.seconds);
                      break;
                    case run::BatchStage::MinimizeCr:
                      std::printf(
                          "%llu cubes, %llu bytes, %llu positions left to the capture search%s, "
                          "in %.1f s, peak %.2f GB (expected %.2f)",
                          (unsigned long long)r.cr_cubes, (unsigned long long)r.cr_cover_bytes,
                          (unsigned long long)r.cr_search_positions,
                          r.cr_reused_standalone ? " (its standalone cover, saved again)" : "", r.minimize_cr.seconds,
                          gb(r.minimize_cr.peak_bytes), gb(r.cr_minimize_expected_peak));
                      break;
                    case run::BatchStage::CheckCr:
                      std::printf(
                          "%llu positions by the cubes, %llu through the capture search, "
                          "%llu mismatches in %.1f s, peak %.2f GB",
                          (unsigned long long)r.cr_checked_positions, (unsigned long long)r.cr_probed_positions,
                          (unsigned long long)r.cr_mismatches, r.check_cr.seconds, gb(r.check_cr.peak_bytes));
                      break;
                    case run::BatchStage::Check:
                      std::printf("%llu positions, %llu mismatches in %.1f s, peak %.2f GB",
                                  (unsigned long long)r.checked_positions, (unsigned long long)r.mismatches,
                                  r.check.seconds, gb(r.check.peak_bytes));
                      break;
                  }
                std::printf("\n");
                std::fflush(stdout);
              };
            auto records = run::run_batch(request, events, *progress);
            std::signal(SIGTERM, SIG_DFL);
            std::signal(SIGINT, SIG_DFL);
            g_cancel_on_signal = nullptr;
            end_progress(a->common);
            if (!records) return fail(records.error().message);
            nlohmann::json rows = nlohmann::json::array();
            int failed = 0;
            uint64_t cover_bytes = 0, syzygy_bytes = 0;
            // The capture-resolved covers against the Syzygy files of their own balances.
            uint64_t cr_cover_bytes = 0, cr_syzygy_bytes = 0;
            for (const run::BatchRecord& r : *records) {
              rows.push_back(record_json(r, asked));
              failed += !r.error.empty();
              if (r.minimize.done && r.syzygy_wdl_bytes) {
                cover_bytes += r.cover_bytes;
                syzygy_bytes += *r.syzygy_wdl_bytes;
              }
              if (r.minimize_cr.done && r.syzygy_wdl_bytes) {
                cr_cover_bytes += r.cr_cover_bytes;
                cr_syzygy_bytes += *r.syzygy_wdl_bytes;
              }
            }
            if (a->common.json) {
              nlohmann::json report = {{"balances", rows},
                                       {"failed", failed},
                                       {"cover_bytes_with_syzygy_size", cover_bytes},
                                       {"syzygy_wdl_bytes", syzygy_bytes},
                                       {"data", request.data_dir.string()}};
              if (asked == store::CoverKind::CaptureResolved || cr_syzygy_bytes) {
                report["cr_cover_bytes_with_syzygy_size"] = cr_cover_bytes;
                report["cr_syzygy_wdl_bytes"] = cr_syzygy_bytes;
              }
              print_json(report);
            } else {
              std::printf("%zu balance(s), %d failed", records->size(), failed);
              if (syzygy_bytes)
                std::printf("; covers %llu bytes against Syzygy's %llu (%.3fx)", (unsigned long long)cover_bytes,
                            (unsigned long long)syzygy_bytes, double(cover_bytes) / double(syzygy_bytes));
              if (cr_syzygy_bytes)
                std::printf("; capture-resolved covers %llu bytes against Syzygy's %llu (%.3fx)",
                            (unsigned long long)cr_cover_bytes, (unsigned long long)cr_syzygy_bytes,
                            double(cr_cover_bytes) / double(cr_syzygy_bytes));
              std::printf("\n");
            }
            for (const run::BatchRecord& r : *records)
              if (!r.error.empty()) fail(r.balance.name() + ": " + r.error);
            return failed ? int(kFailure) : int(kOk);
          }};
}

const CommandRegistration kRegistered(38, add_batch);
}  // namespace

}  // namespace egtmin::cli
