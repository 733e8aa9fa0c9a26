// SPDX-License-Identifier: GPL-3.0-or-later
#include <iostream>

#include "common.hpp"
#include "table/table_store.hpp"
#include "util/defaults.hpp"

namespace egtmin::cli {

namespace {
Command add_gen(CLI::App& app) {
  struct Args {
    Common common;
    std::vector<std::string> balances;
    int pieces = 0;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand("gen", "Generate exact win/draw/loss tables by retrograde analysis");
  sub->footer(
      "Missing dependencies (the balances captures and promotions lead to) are generated first.\n"
      "Examples:\n  egtmin-cli gen KQvKR\n  egtmin-cli gen --pieces 4\n  egtmin-cli gen KQRvKR --json");
  add_balance_selection(sub, a->balances, a->pieces, "Tables to generate");
  add_common(sub, a->common);
  return {sub, [a] {
            auto requested = balances_or_pieces(a->balances, a->pieces, "gen");
            if (!requested) return fail(requested.error().message);
            std::vector<Balance> todo = *requested;
            for (const Balance& b : todo)
              if (b.pieces() > kMaxSupportedPieces)
                return fail(b.name() + " has " + std::to_string(b.pieces()) + " pieces; gen handles up to " +
                            std::to_string(kMaxSupportedPieces));
            TableStore store(a->common.data_dir());
            auto progress = make_progress(a->common);
            nlohmann::json generated = nlohmann::json::array();
            double total = 0;
            auto on_generated = [&](const Balance& b, double secs) {
              total += secs;
              auto t = store.get(b);
              auto c = (*t)->counts();
              generated.push_back(
                  {{"balance", b.name()}, {"seconds", secs}, {"win", c.win}, {"draw", c.draw}, {"loss", c.loss}});
              if (!a->common.json) {
                end_progress(a->common);
                std::printf("%-8s %8.2f s  %12llu win %12llu draw %12llu loss (canonical positions, White's view)\n",
                            b.name().c_str(), secs, (unsigned long long)c.win, (unsigned long long)c.draw,
                            (unsigned long long)c.loss);
                std::fflush(stdout);
              }
            };
            GenerateOptions opts;
            opts.threads = a->common.threads;
            for (const Balance& b : todo) {
              auto r = store.ensure(b, opts, *progress, on_generated);
              if (!r) {
                end_progress(a->common);
                return fail(r.error().message);
              }
              if (a->pieces == 0 || b.pieces() == 5) store.unload_all();
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
