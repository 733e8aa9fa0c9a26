// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli check: verifies saved covers against their tables, position by position.
#include <optional>
#include <thread>

#include "common.hpp"
#include "logic/check.hpp"
#include "probe/probe_check.hpp"
#include "store/cover_file.hpp"
#include "table/table_store.hpp"
#include "util/defaults.hpp"

namespace egtmin::cli {

namespace {
Command add_check(CLI::App& app) {
  struct Args {
    Common common;
    std::vector<std::string> balances;
    uint64_t sample = 0;
    uint64_t seed = 1;
    int pieces = 0;
    bool probe = false;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand("check", "Check saved covers against the exact tables");
  sub->footer(
      "Every legal position (the whole 2^n index space) is checked, on all five values: a 5-piece\n"
      "balance needs about 2.5 GB. --sample N checks N uniformly drawn legal positions instead, each\n"
      "by a linear scan of the cover, as the probe does. --probe also probes every legal position\n"
      "through the indexed probe (the cover's layout file, as engines and bench probe read it).\n"
      "Examples:\n  egtmin-cli check KRvK KQvKR\n  egtmin-cli check --pieces 4 --json\n  egtmin-cli check KQRvKR "
      "--sample 100000 --json");
  add_balance_selection(sub, a->balances, a->pieces, "Covers to check");
  sub->add_option("--sample", a->sample, "Check N random legal positions (default: every legal position)");
  sub->add_option("--seed", a->seed, "Random seed for --sample")->capture_default_str();
  sub->add_flag("--probe", a->probe,
                "Also probe every legal position through the indexed probe and compare with the table");
  add_common(sub, a->common);
  return {sub, [a] {
            auto requested = balances_or_pieces(a->balances, a->pieces, "check");
            if (!requested) {
              fail(requested.error().message);
              return int(kUsage);
            }
            TableStore store(a->common.data_dir());
            auto progress = make_progress(a->common);
            int threads = resolve_threads(a->common.threads);
            nlohmann::json jb = nlohmann::json::array();
            uint64_t all_positions = 0, all_mismatches = 0;
            for (const Balance& b : *requested) {
              auto cover = store::load_cover(store::cover_path(store.data_dir(), b), &b);
              if (!cover) {
                end_progress(a->common);
                return fail(cover.error().message + " (run: egtmin-cli minimize " + b.name() + ")");
              }
              auto t = store.ensure(b, GenerateOptions{}, *progress);
              if (!t) {
                end_progress(a->common);
                return fail(t.error().message);
              }
              const uint64_t sample = a->sample;
              auto r = logic::check_cover(**t, cover->cubes, cover->canon, cover->rule_draws, sample, a->seed, threads,
                                          *progress);
              std::optional<logic::CheckReport> pr;
              if (a->probe) {
                probe::CoverProber prober;
                if (auto s = prober.add_file(store::cover_path(store.data_dir(), b)); !s) {
                  end_progress(a->common);
                  return fail(s.error().message);
                }
                pr = probe::check_probe(**t, prober, threads, *progress);
              }
              end_progress(a->common);
              all_positions += r.positions;
              all_mismatches += r.mismatches + (pr ? pr->mismatches : 0);
              nlohmann::json j = {{"balance", b.name()},          {"positions", r.positions},
                                  {"mismatches", r.mismatches},   {"exhaustive", r.exhaustive},
                                  {"cubes", cover->cubes.size()}, {"canon", std::string(canon_name(cover->canon))}};
              if (!r.first_mismatch.empty()) j["first_mismatch"] = r.first_mismatch;
              if (pr) {
                j["probe"] = {{"positions", pr->positions}, {"mismatches", pr->mismatches}};
                if (!pr->first_mismatch.empty()) j["probe"]["first_mismatch"] = pr->first_mismatch;
              }
              jb.push_back(j);
              if (!a->common.json) {
                std::printf("%-8s %s %llu positions (%s), %llu mismatches%s%s\n", b.name().c_str(),
                            r.mismatches ? "FAIL" : "ok  ", (unsigned long long)r.positions,
                            r.exhaustive ? "all" : "sample", (unsigned long long)r.mismatches,
                            r.first_mismatch.empty() ? "" : "; first: ", r.first_mismatch.c_str());
                if (pr)
                  std::printf("%-8s %s %llu positions probed (indexed), %llu mismatches%s%s\n", b.name().c_str(),
                              pr->mismatches ? "FAIL" : "ok  ", (unsigned long long)pr->positions,
                              (unsigned long long)pr->mismatches,
                              pr->first_mismatch.empty() ? "" : "; first: ", pr->first_mismatch.c_str());
                std::fflush(stdout);
              }
              if (b.pieces() >= 5) store.unload_all();
            }
            if (a->common.json)
              print_json({{"balances", jb}, {"positions", all_positions}, {"mismatches", all_mismatches}});
            return all_mismatches ? int(kFailure) : int(kOk);
          }};
}

const CommandRegistration kRegistered(35, add_check);
}  // namespace

}  // namespace egtmin::cli
