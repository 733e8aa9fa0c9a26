// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli minimize: runs the logic minimizer's passes over balances and saves each cover.
#include <cstdio>

#include "common.hpp"
#include "logic/pass_sequence.hpp"
#include "logic/split.hpp"
#include "run/minimize_run.hpp"
#include "util/memory.hpp"

namespace egtmin::cli {

namespace {
// The registered passes, one a line, as --help lists them.
std::string pass_list_help() {
  std::string out = "Passes:\n";
  for (const logic::Pass& p : logic::registered_passes()) {
    std::string name(p.name());
    out += "  " + name + std::string(name.size() < 13 ? 13 - name.size() : 1, ' ') + p.info().description + "\n";
  }
  return out;
}

Command add_minimize(CLI::App& app) {
  struct Args {
    Common common;
    std::vector<std::string> balances;
    int pieces = 0;
    std::string passes = logic::passes_string(logic::default_passes());
    std::string canon = "full";
    std::string effort = "normal";
    std::string split = "auto";
    bool no_save = false;
    bool capture_resolved = false;
    std::string implied = "most-cubes";
    std::string memory_limit = "auto";
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand("minimize", "Minimize tables into ON-covers by two-level logic minimization");
  sub->footer(pass_list_help() +
              "Passes run in the order given and may repeat. Without canon every legal position is a care position "
              "(scheme none).\n"
              "--effort high: more primes in expand and a longer covering search in irredundant, for fewer\n"
              "cubes at several times the CPU (KQvKR: 10,382 cubes in about 40 s instead of 10,779 in 4 s).\n"
              "Missing tables are generated first. The cover is saved to DATA/covers/NAME.egtc.\n"
              "Examples:\n  egtmin-cli minimize KRvK\n  egtmin-cli minimize --pieces 4 --json\n"
              "  egtmin-cli minimize KQvK --passes compact,expand,irredundant --no-save\n"
              "  egtmin-cli minimize KQvKR --effort high");
  add_balance_selection(sub, a->balances, a->pieces, "Tables to minimize");
  sub->add_option("--passes", a->passes, "Comma-separated passes to run in order")->capture_default_str();
  sub->add_option("--canon", a->canon, "Scheme the canon pass applies: board or full")->capture_default_str();
  sub->add_option("--effort", a->effort,
                  "How hard expand and irredundant try: normal, or high (fewer cubes, several times the CPU)")
      ->capture_default_str();
  sub->add_option("--split", a->split,
                  "Minimize in parts split on these inputs (0 = side to move, then 6 square bits per piece): "
                  "auto (split only functions of more than " +
                      std::to_string(logic::kPartCareMinterms) + " care positions), none, or a list such as 0,16")
      ->capture_default_str();
  sub->add_flag("--no-save", a->no_save, "Do not write cover files (benchmarks)");
  sub->add_flag("--capture-resolved", a->capture_resolved,
                "Leave what a capture or promotion reaches (wins; draws as 'a draw or worse') to the probe's "
                "capture search: a smaller cover, saved as DATA/covers/NAME.egtcr (needs the covers of the balances "
                "captures reach "
                "to probe)");
  sub->add_option("--implied", a->implied,
                  "The output whose cubes the file leaves out (a position no cube holds has it): most-cubes "
                  "(about half the file) or none")
      ->capture_default_str();
  add_memory_limit(sub, a->memory_limit);
  add_common(sub, a->common);
  return {sub, [a] {
            auto passes = logic::parse_passes(a->passes);
            if (!passes) {
              fail(passes.error().message);
              return int(kUsage);
            }
            auto scheme = parse_canon(a->canon);
            if (!scheme || *scheme == CanonScheme::None) {
              fail(scheme ? "--canon takes board or full (leave out the canon pass for none)" : scheme.error().message);
              return int(kUsage);
            }
            const auto effort = parse_enum<logic::Effort>(a->effort);
            if (!effort) {
              fail("--effort: unknown effort \"" + a->effort +
                   "\" (valid efforts: " + enum_names_text<logic::Effort>(", ") + ")");
              return int(kUsage);
            }
            auto requested = balances_or_pieces(a->balances, a->pieces, "minimize");
            if (!requested) {
              fail(requested.error().message);
              return int(kUsage);
            }
            run::MinimizeRequest request;
            request.balances = *requested;
            request.passes = *passes;
            request.canon = *scheme;
            request.effort = *effort;
            auto split = logic::parse_split(a->split);
            if (!split) {
              fail("--" + split.error().message);
              return int(kUsage);
            }
            request.split = *split;
            request.threads = a->common.threads;
            request.covers = a->no_save ? run::CoverOutput::Discard : run::CoverOutput::Save;
            request.kind = cover_kind(a->capture_resolved);
            auto implied = parse_named<run::ImpliedOutput>(a->implied, "implied output");
            if (!implied) {
              fail("--implied: " + implied.error().message);
              return int(kUsage);
            }
            request.implied = *implied;
            request.data_dir = a->common.data_dir();
            auto limit = memory_limit(a->memory_limit);
            if (!limit) {
              fail(limit.error().message);
              return int(kUsage);
            }
            request.memory_limit = *limit;
            auto progress = make_progress(a->common);
            run::MinimizeEvents events;
            events.planned = [&](const run::RunPlan& plan) { print_plan(a->common, plan, *limit); };
            if (!a->common.json)
              events.balance_done = [&](const run::BalanceResult& r) {
                if (!r.ok()) return;  // errors are printed at the end
                end_progress(a->common);
                if (r.reused_standalone) {
                  std::printf("%-8s nothing left to captures: its standalone cover, %llu cubes stored",
                              r.balance.name().c_str(), (unsigned long long)r.cubes);
                  if (r.implied != logic::Output::None)
                    std::printf(" (%s implied)", std::string(name_of(r.implied)).c_str());
                  std::printf("\n");
                  std::fflush(stdout);
                  return;
                }
                std::printf("%-8s %10llu minterms", r.balance.name().c_str(),
                            (unsigned long long)r.summary.initial_cubes);
                for (const auto& p : r.summary.reports)
                  std::printf("  %s %llu (%.2f s)", p.pass.c_str(), (unsigned long long)p.cubes, p.seconds);
                if (r.implied != logic::Output::None)
                  std::printf("  stored %llu (%s implied)", (unsigned long long)r.cubes,
                              std::string(name_of(r.implied)).c_str());
                std::printf("  total %.2f s (cpu %.2f s)", r.seconds, r.cpu_seconds);
                if (r.capture_resolved)
                  std::printf("  %llu left to captures (%llu of them at most a draw)",
                              (unsigned long long)r.capture_resolved, (unsigned long long)r.capture_capped);
                if (!r.summary.split_inputs.empty()) {
                  std::printf("  in %llu parts (split on inputs", 1ull << r.summary.split_inputs.size());
                  for (int i : r.summary.split_inputs) std::printf(" %d", i);
                  std::printf(")");
                }
                std::printf("\n");
                std::fflush(stdout);
              };
            auto run_result = run::run_minimize(request, events, *progress);
            end_progress(a->common);
            if (!run_result) return fail(run_result.error().message);
            const std::vector<run::BalanceResult>& outcomes = run_result->balances;
            const double total = run_result->seconds;

            int code = kOk;
            nlohmann::json jb = nlohmann::json::array();
            for (const run::BalanceResult& o : outcomes) {
              if (!o.ok()) {
                fail(o.error);
                code = kFailure;
                continue;
              }
              nlohmann::json jp = nlohmann::json::array();
              for (const auto& r : o.summary.reports)
                jp.push_back({{"pass", r.pass},
                              {"cubes", r.cubes},
                              {"literals", r.literals},
                              {"seconds", r.seconds},
                              {"cpu_seconds", r.cpu_seconds},
                              {"peak_bytes", r.peak_bytes}});
              jb.push_back({{"balance", o.balance.name()},
                            {"cubes", o.cubes},
                            {"initial_cubes", o.summary.initial_cubes},
                            {"care_positions", o.summary.care_positions},
                            {"split_inputs", o.summary.split_inputs},
                            {"canon", std::string(name_of(o.summary.scheme))},
                            {"effort", a->effort},
                            {"seconds", o.seconds},
                            {"cpu_seconds", o.cpu_seconds},
                            {"kind", std::string(name_of(request.kind))},
                            {"capture_resolved_positions", o.capture_resolved},
                            {"reused_standalone", o.reused_standalone},
                            {"implied", std::string(name_of(o.implied))},
                            {"passes", jp}});
            }
            if (a->common.json)
              print_json({{"balances", jb},
                          {"seconds", total},
                          {"cpu_seconds", logic::cpu_now(logic::CpuScope::Process)},
                          {"peak_bytes", peak_memory_bytes()},
                          {"passes", logic::passes_string(request.passes)}});
            else
              std::printf("%zu balance(s) in %.2f s (process cpu %.2f s), peak memory %.1f MiB\n", jb.size(), total,
                          logic::cpu_now(logic::CpuScope::Process), double(peak_memory_bytes()) / 1048576.0);
            return code;
          }};
}

const CommandRegistration kRegistered(30, add_minimize);
}  // namespace

}  // namespace egtmin::cli
