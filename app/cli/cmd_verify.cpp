// SPDX-License-Identifier: GPL-3.0-or-later
#include <iostream>

#include "common.hpp"
#include "probe/probe.hpp"
#include "run/proof_run.hpp"
#include "table/table_store.hpp"

namespace egtmin::cli {

namespace {
Command add_verify(CLI::App& app) {
  struct Args {
    Common common;
    std::string syzygy;
    std::vector<std::string> balances;
    uint64_t sample = 0;
    int pieces = 5;
    bool no_self_check = false;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand(
      "verify", "Prove generated tables: each value against its successors, and against Syzygy where given");
  sub->footer(
      "The self-check needs no Syzygy files: every canonical legal position's value must follow in one\n"
      "ply from the values its moves reach. It is exact without the 50-move rule; for cursed wins and\n"
      "blessed losses it checks what one ply can show (gen proves those exactly, with the generator's\n"
      "distances, before it writes a table). With --syzygy, all five values are compared with Syzygy's\n"
      "at every legal position.\n"
      "Without balances: with --syzygy, every balance of up to --pieces with a WDL file there; without,\n"
      "every generated table of up to --pieces. Missing tables are generated first.\n"
      "Examples:\n  egtmin-cli verify KRPvKR\n  egtmin-cli verify --syzygy ../shared/syzygy --pieces 4\n"
      "  egtmin-cli verify --syzygy ~/syzygy KQvKR --json");
  sub->add_option("balances", a->balances, "Balances to check");
  sub->add_option("--syzygy", a->syzygy, "Directory of Syzygy .rtbw files to compare with");
  sub->add_option("--pieces", a->pieces, "Without balances: only those with up to N pieces (default 5)")
      ->check(CLI::Range(3, 5));
  sub->add_option("--sample", a->sample, "Compare with Syzygy at every Nth index only (default: all)")
      ->check(CLI::PositiveNumber);
  sub->add_flag("--no-self-check", a->no_self_check, "Only compare with Syzygy");
  add_common(sub, a->common);
  return {sub, [a] {
            if (a->syzygy.empty() && a->no_self_check) return fail("nothing to do: --no-self-check needs --syzygy");
            Syzygy* syz = nullptr;
            if (!a->syzygy.empty()) {
              auto opened = Syzygy::open(a->syzygy);
              if (!opened) return fail(opened.error().message);
              syz = *opened;
            }
            auto requested = parse_balances(a->balances);
            if (!requested) return fail(requested.error().message);
            TableStore store(a->common.data_dir());
            std::vector<Balance> todo = *requested;
            if (todo.empty())
              for (const Balance& b : Balance::all_up_to(a->pieces))
                if (b.pieces() > 2 && (syz ? syz->has_wdl(b) : store.on_disk(b))) todo.push_back(b);
            if (todo.empty())
              return fail("no tables to verify under " + (store.data_dir() / "tables").string() +
                          "; name balances or generate some first");
            for (const Balance& b : todo)
              if (syz && !syz->has_wdl(b)) return fail("no Syzygy WDL file for " + b.name() + " in " + a->syzygy);
            run::ProofRequest request;
            request.balances = todo;
            request.data_dir = store.data_dir();
            request.threads = a->common.threads;
            request.self_check = !a->no_self_check;
            request.syzygy = syz;
            request.syzygy_stride = a->sample;
            nlohmann::json rows = nlohmann::json::array();
            uint64_t positions = 0, failures = 0;
            run::ProofEvents events;
            events.balance_done = [&](const run::BalanceProof& p) {
              nlohmann::json row = {{"balance", p.balance.name()}};
              std::string line = p.balance.name();
              std::vector<std::string> examples;
              if (const auto& r = p.self_check) {
                positions += r->positions;
                failures += r->failures;
                row["self_check"] = {{"positions", r->positions},
                                     {"failures", r->failures},
                                     {"values", value_counts_json(r->counts)},
                                     {"examples", r->examples}};
                line += "  self-check: " + std::to_string(r->positions) + " positions (" +
                        value_counts_text(r->counts) + "), " + std::to_string(r->failures) + " failures";
                for (auto& ex : r->examples) examples.push_back("self-check: " + ex);
              }
              if (const auto& r = p.syzygy) {
                positions += r->positions;
                failures += r->mismatches;
                row["syzygy"] = {{"positions", r->positions},
                                 {"mismatches", r->mismatches},
                                 {"unanswered", r->unanswered},
                                 {"values", value_counts_json(r->counts)},
                                 {"examples", r->examples}};
                line += "  Syzygy: " + std::to_string(r->positions) + " positions (" + value_counts_text(r->counts) +
                        "), " + std::to_string(r->mismatches) + " mismatches";
                for (auto& ex : r->examples) examples.push_back("mismatch with Syzygy: " + ex);
              }
              if (!p.error.empty()) {
                ++failures;
                row["error"] = p.error;
                line += "  error: " + p.error;
              }
              rows.push_back(row);
              if (!a->common.json) {
                end_progress(a->common);
                std::printf("%s\n", line.c_str());
                for (auto& ex : examples) std::printf("  %s\n", ex.c_str());
                std::fflush(stdout);
              }
            };
            auto progress = make_progress(a->common);
            auto proven = run::run_proof(request, events, *progress);
            if (!proven) {
              end_progress(a->common);
              return fail(proven.error().message);
            }
            end_progress(a->common);
            if (a->common.json)
              print_json({{"positions", positions}, {"failures", failures}, {"balances", rows}});
            else
              std::printf("total: %zu balances, %llu positions checked, %llu failures\n", rows.size(),
                          (unsigned long long)positions, (unsigned long long)failures);
            return failures == 0 ? int(kOk) : int(kFailure);
          }};
}

const CommandRegistration kRegistered(20, add_verify);
}  // namespace

}  // namespace egtmin::cli
