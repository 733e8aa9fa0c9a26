// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli batch: every stage for a whole piece count (or the balances named), resumable.
#include <csignal>
#include <cstdio>

#include "common.hpp"
#include "logic/pass_sequence.hpp"
#include "run/batch_run.hpp"

namespace egtmin::cli {

namespace {

nlohmann::json field_json(const run::StageFigures& s) {
  return {{"done", s.done}, {"seconds", s.seconds}, {"cpu_seconds", s.cpu_seconds}, {"peak_bytes", s.peak_bytes}};
}
nlohmann::json field_json(const Table::Counts& c) { return value_counts_json(c); }
nlohmann::json field_json(const std::vector<logic::PassReport>& passes) {
  nlohmann::json j = nlohmann::json::array();
  for (const logic::PassReport& p : passes)
    j.push_back({{"pass", p.pass},
                 {"cubes", p.cubes},
                 {"seconds", p.seconds},
                 {"cpu_seconds", p.cpu_seconds},
                 {"peak_bytes", p.peak_bytes}});
  return j;
}
template <class T>
nlohmann::json field_json(const T& v) {
  if constexpr (std::is_enum_v<T>)
    return std::string(name_of(v));
  else
    return v;
}

// A stage's figures and results are listed when the run asked for its cover, or it is done.
nlohmann::json record_json(const run::BatchRecord& r, run::CoverSet asked) {
  nlohmann::json j = {{"balance", r.balance.name()}};
  run::for_each_stage([&]<run::BatchStage S>() {
    if (!run::serves(run::part_of(S), asked) && !r.stage(S).done) return;
    j[run::stage_key(S)] = field_json(r.stage(S));
    run::Stage<S>::each(r.results<S>(), [&](const char* k, const auto& v) { j[k] = field_json(v); });
  });
  j["syzygy_wdl_bytes"] = r.syzygy_wdl_bytes ? nlohmann::json(*r.syzygy_wdl_bytes) : nlohmann::json(nullptr);
  if (!r.error.empty()) j["error"] = r.error;
  return j;
}

// The plan: each stage to do with its estimate, the stages done before counted, and the totals.
int print_plan(const run::BatchPlan& plan, bool json) {
  const auto gb = [](uint64_t bytes) { return double(bytes) / 1e9; };
  size_t done = 0;
  for (const run::PlannedStage& p : plan.stages) done += p.done;
  if (json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const run::PlannedStage& p : plan.stages)
      rows.push_back({{"balance", p.balance.name()},
                      {"stage", name_of(p.stage)},
                      {"done", p.done},
                      {"expected_seconds", p.expected_seconds.count()},
                      {"expected_peak_bytes", p.expected_peak_bytes}});
    print_json({{"stages", rows},
                {"stages_done", done},
                {"expected_seconds", plan.seconds_to_do().count()},
                {"expected_peak_bytes", plan.peak_bytes_to_do()}});
    return kOk;
  }
  for (const run::PlannedStage& p : plan.stages)
    if (!p.done)
      std::printf("%-8s %-11s about %6lld s, peak %.2f GB\n", p.balance.name().c_str(),
                  std::string(name_of(p.stage)).c_str(), (long long)p.expected_seconds.count(),
                  gb(p.expected_peak_bytes));
  std::printf("%zu stage(s) to do (%zu done before): about %.1f h one after another, peak %.2f GB at most\n",
              plan.stages.size() - done, done, double(plan.seconds_to_do().count()) / 3600.0,
              gb(plan.peak_bytes_to_do()));
  return kOk;
}

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
    std::string covers;
    std::string successors = std::string(name_of(run::SuccessorValues::Covers));
    bool capture_resolved = false;
    bool plan = false;
    double layout_bound = kLayoutSyzygyBound;
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
      "--covers picks the covers made and proven: standalone (minimize, check), capture-resolved\n"
      "(minimize-cr as minimize --capture-resolved, check-cr as check --capture-resolved --probe) or\n"
      "both. A capture-resolved cover needs the table, not the standalone cover, and its proof probes\n"
      "the covers of the balances captures and promotions reach: the run makes those balances'\n"
      "capture-resolved covers first when they have none. With --successors tables, the proof reads\n"
      "those balances' tables instead (each of their covers is proven equal to its table by its own\n"
      "check-cr), and the run makes only the covers of the balances named, and the tables they reach.\n"
      "Examples:\n  egtmin-cli batch --pieces 5 --json\n  egtmin-cli batch KNNvKP KBBvKN --syzygy-sizes sizes.tsv\n"
      "  egtmin-cli batch KQvKR --stage minimize --data /shared/egtmin\n"
      "  egtmin-cli batch --pieces 5 --covers capture-resolved --plan\n"
      "  egtmin-cli batch --pieces 5 --covers capture-resolved");
  add_balance_selection(sub, a->balances, a->pieces, "Balances to run");
  sub->add_option("--syzygy-sizes", a->sizes, "Syzygy WDL file sizes to report beside each cover (bytes<TAB>file)");
  sub->add_option("--layout-bound", a->layout_bound,
                  "Frame a layout's region cubes where its fast form takes more than this share of its Syzygy "
                  "WDL file (from --syzygy-sizes; 0: never), the fastest framing within it; where no form is within "
                  "it, the fastest within " +
                      std::to_string(int(kLayoutSyzygyCeiling * 100)) + " % of the file, else the smallest")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sub->add_option("--syzygy", a->syzygy, "Directory of Syzygy .rtbw files to compare each table with (verify stage)");
  sub->add_option("--stage", a->stage, "Run only this stage: " + enum_names_text<run::BatchStage>());
  sub->add_option("--covers", a->covers,
                  "Covers to make and prove: " + enum_names_text<run::CoverSet>() + " (default standalone)");
  sub->add_flag("--capture-resolved", a->capture_resolved, "As --covers capture-resolved");
  sub->add_option("--successors", a->successors,
                  "Where a capture-resolved cover's proof takes the values its captures and promotions reach: " +
                      enum_names_text<run::SuccessorValues>())
      ->capture_default_str();
  sub->add_flag("--plan", a->plan,
                "Print the stages the run would go through, with their expected time and peak memory, and run none");
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
            request.layout_bound = a->layout_bound;
            if (a->capture_resolved && !a->covers.empty() && a->covers != "capture-resolved")
              return fail("--capture-resolved and --covers " + a->covers + " ask for different covers");
            if (a->capture_resolved) request.covers = run::CoverSet::CaptureResolved;
            if (!a->covers.empty()) {
              auto covers = parse_named<run::CoverSet>(a->covers, "cover set");
              if (!covers) return fail("--covers: " + covers.error().message);
              request.covers = *covers;
            }
            auto successors = parse_named<run::SuccessorValues>(a->successors, "successor source");
            if (!successors) return fail("--successors: " + successors.error().message);
            request.successors = *successors;
            // The figures reported: those of the covers asked for, or of the one stage's.
            const run::CoverSet asked = !only ? request.covers
                                        : run::part_of(*only) == run::StagePart::CaptureResolved
                                            ? run::CoverSet::CaptureResolved
                                            : run::CoverSet::Standalone;
            auto limit = memory_limit(a->memory_limit);
            if (!limit) return fail(limit.error().message);
            request.memory_limit = *limit;
            if (!a->sizes.empty()) {
              auto sizes = run::read_syzygy_sizes(a->sizes);
              if (!sizes) return fail("--syzygy-sizes: " + sizes.error().message);
              request.syzygy_sizes = *sizes;
            }
            if (a->plan) return print_plan(run::plan_batch(request), a->common.json);
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
                  std::printf("%s", run::with_stage(stage, [&]<run::BatchStage S>() {
                                      return run::Stage<S>::summary(r.stage(S), r.results<S>());
                                    }).c_str());
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
              if (r.stage(run::BatchStage::Minimize).done && r.syzygy_wdl_bytes) {
                cover_bytes += r.results<run::BatchStage::Minimize>().cover_bytes;
                syzygy_bytes += *r.syzygy_wdl_bytes;
              }
              if (r.stage(run::BatchStage::MinimizeCr).done && r.syzygy_wdl_bytes) {
                cr_cover_bytes += r.results<run::BatchStage::MinimizeCr>().cover_bytes;
                cr_syzygy_bytes += *r.syzygy_wdl_bytes;
              }
            }
            if (a->common.json) {
              nlohmann::json report = {{"balances", rows},
                                       {"failed", failed},
                                       {"cover_bytes_with_syzygy_size", cover_bytes},
                                       {"syzygy_wdl_bytes", syzygy_bytes},
                                       {"data", request.data_dir.string()}};
              if (run::serves(run::StagePart::CaptureResolved, asked) || cr_syzygy_bytes) {
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
