// SPDX-License-Identifier: GPL-3.0-or-later
#include <iostream>

#include "common.hpp"
#include "probe/syzygy.hpp"
#include "table/table_store.hpp"
#include "table/verify.hpp"

namespace egtmin::cli {

namespace {
Command add_verify(CLI::App& app) {
  struct Args {
    Common common;
    std::string syzygy;
    std::vector<std::string> balances;
    uint64_t sample = 0;
    int pieces = 5;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand("verify", "Compare generated tables with Syzygy over every legal position");
  sub->footer(
      "Without balances, every balance of up to 5 pieces with a WDL file in the Syzygy directory is checked.\n"
      "Missing tables are generated first. Cursed wins and blessed losses count as wins and losses.\n"
      "Examples:\n  egtmin-cli verify --syzygy ../shared/syzygy\n  egtmin-cli verify --syzygy ../shared/syzygy "
      "--pieces 4\n  egtmin-cli verify --syzygy ~/syzygy KQvKR --json");
  sub->add_option("balances", a->balances, "Balances to check (default: all with Syzygy files)");
  sub->add_option("--syzygy", a->syzygy, "Directory of Syzygy .rtbw files")->required();
  sub->add_option("--pieces", a->pieces, "Without balances: only those with up to N pieces (default 5)")
      ->check(CLI::Range(3, 5));
  sub->add_option("--sample", a->sample, "Check every Nth index only (default: all)")->check(CLI::PositiveNumber);
  add_common(sub, a->common);
  return {sub, [a] {
            auto syz = Syzygy::open(a->syzygy);
            if (!syz) return fail(syz.error().message);
            auto requested = parse_balances(a->balances);
            if (!requested) return fail(requested.error().message);
            std::vector<Balance> todo = *requested;
            if (todo.empty())
              for (const Balance& b : Balance::all_up_to(a->pieces))
                if (b.pieces() > 2 && (*syz)->has_wdl(b)) todo.push_back(b);
            TableStore store(a->common.data_dir());
            auto progress = make_progress(a->common);
            nlohmann::json rows = nlohmann::json::array();
            uint64_t positions = 0, mismatches = 0, cursed = 0, blessed = 0;
            for (const Balance& b : todo) {
              if (!(*syz)->has_wdl(b)) return fail("no Syzygy WDL file for " + b.name() + " in " + a->syzygy);
              GenerateOptions opts;
              opts.threads = a->common.threads;
              auto t = store.ensure(b, opts, *progress);
              if (!t) return fail(t.error().message);
              VerifyOptions vo;
              vo.threads = a->common.threads;
              vo.stride = a->sample;
              VerifyReport r = verify_against_syzygy(**t, **syz, vo, *progress);
              if (progress->cancelled()) return fail("cancelled");
              positions += r.positions;
              mismatches += r.mismatches;
              cursed += r.cursed_wins;
              blessed += r.blessed_losses;
              rows.push_back({{"balance", r.balance},
                              {"positions", r.positions},
                              {"mismatches", r.mismatches},
                              {"cursed_wins", r.cursed_wins},
                              {"blessed_losses", r.blessed_losses},
                              {"examples", r.examples}});
              if (!a->common.json) {
                end_progress(a->common);
                std::printf("%-8s %12llu positions %8llu mismatches %10llu cursed wins %10llu blessed losses\n",
                            r.balance.c_str(), (unsigned long long)r.positions, (unsigned long long)r.mismatches,
                            (unsigned long long)r.cursed_wins, (unsigned long long)r.blessed_losses);
                for (auto& ex : r.examples) std::printf("  mismatch: %s\n", ex.c_str());
                std::fflush(stdout);
              }
              if (b.pieces() >= 5) store.unload_all();
            }
            end_progress(a->common);
            if (a->common.json)
              print_json({{"positions", positions},
                          {"mismatches", mismatches},
                          {"cursed_wins", cursed},
                          {"blessed_losses", blessed},
                          {"balances", rows}});
            else
              std::printf("total: %zu balances, %llu positions, %llu mismatches\n", rows.size(),
                          (unsigned long long)positions, (unsigned long long)mismatches);
            return mismatches == 0 ? int(kOk) : int(kFailure);
          }};
}

const CommandRegistration kRegistered(20, add_verify);
}  // namespace

}  // namespace egtmin::cli
