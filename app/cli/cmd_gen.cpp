// SPDX-License-Identifier: GPL-3.0-or-later
#include <iostream>

#include "common.hpp"
#include "run/minimize_run.hpp"
#include "table/table_store.hpp"
#include "util/defaults.hpp"

namespace egtmin::cli {

namespace {
Command add_gen(CLI::App& app) {
  struct Args {
    Common common;
    std::vector<std::string> balances;
    int pieces = 0;
    bool no_self_check = false;
    std::string memory_limit = "auto";
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand(
      "gen", "Generate exact tables (win, cursed win, draw, blessed loss, loss) by retrograde analysis");
  sub->footer(
      "Missing dependencies (the balances captures and promotions lead to) are generated first, and\n"
      "each new table is proven against its successors (the self-check) before it is written.\n"
      "Counts are of canonical positions, from White's point of view.\n"
      "Examples:\n  egtmin-cli gen KQvKR\n  egtmin-cli gen --pieces 4\n  egtmin-cli gen KQRvKR --json");
  add_balance_selection(sub, a->balances, a->pieces, "Tables to generate");
  sub->add_flag("--no-self-check", a->no_self_check, "Write tables without proving them first (faster)");
  add_memory_limit(sub, a->memory_limit);
  add_common(sub, a->common);
  return {sub, [a] {
            auto requested = balances_or_pieces(a->balances, a->pieces, "gen");
            if (!requested) return fail(requested.error().message);
            std::vector<Balance> todo = *requested;
            auto limit = memory_limit(a->memory_limit);
            if (!limit) return fail(limit.error().message);
            run::MinimizeRequest request;  // no passes: the tables only
            request.balances = todo;
            request.threads = a->common.threads;
            request.data_dir = a->common.data_dir();
            request.memory_limit = *limit;
            request.self_check = !a->no_self_check;
            TableStore store(request.data_dir);
            auto progress = make_progress(a->common);
            nlohmann::json generated = nlohmann::json::array();
            double total = 0;
            run::MinimizeEvents events;
            events.planned = [&](const run::RunPlan& plan) { print_plan(a->common, plan, *limit); };
            events.table_generated = [&](const Balance& b, const TableStore::Generated& g) {
              total += g.seconds + g.self_check_seconds;
              // The self-check counted the values; without it, they are read from the table written.
              Table::Counts c;
              if (g.self_check) {
                c = g.self_check->counts;
              } else {
                auto t = store.get(b);
                if (t) c = (*t)->counts();
                store.unload_all();
              }
              nlohmann::json row = value_counts_json(c);
              row["balance"] = b.name();
              row["seconds"] = g.seconds;
              if (g.self_check) {
                row["self_check"] = {{"positions", g.self_check->positions},
                                     {"failures", g.self_check->failures},
                                     {"exact_rule", g.self_check->exact_rule},
                                     {"seconds", g.self_check_seconds}};
              }
              generated.push_back(row);
              if (!a->common.json) {
                end_progress(a->common);
                std::printf("%-8s %8.2f s  %s", b.name().c_str(), g.seconds, value_counts_text(c).c_str());
                if (g.self_check) std::printf("  self-check passed in %.2f s", g.self_check_seconds);
                std::printf("\n");
                std::fflush(stdout);
              }
            };
            auto run_result = run::run_minimize(request, events, *progress);
            if (!run_result) {
              end_progress(a->common);
              return fail(run_result.error().message);
            }
            end_progress(a->common);
            // Requested balances this run did not have to generate (on disk, or made by another process).
            int already = 0;
            for (const Balance& b : todo)
              already += std::none_of(generated.begin(), generated.end(),
                                      [&](const nlohmann::json& g) { return g["balance"] == b.name(); });
            if (a->common.json)
              print_json({{"generated", generated},
                          {"seconds", total},
                          {"already_present", already},
                          {"data", store.data_dir().string()}});
            else
              std::printf("%zu generated in %.2f s, %d of the requested already present, under %s\n", generated.size(),
                          total, already, (store.data_dir() / "tables").c_str());
            return int(kOk);
          }};
}

const CommandRegistration kRegistered(10, add_gen);
}  // namespace

}  // namespace egtmin::cli
