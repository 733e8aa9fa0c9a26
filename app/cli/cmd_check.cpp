// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli check: verifies saved covers against their tables, position by position.
#include <optional>
#include <thread>

#include "common.hpp"
#include "run/proof_run.hpp"
#include "store/cover_file.hpp"

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
    bool every_placement = false;
    bool capture_resolved = false;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand("check", "Check saved covers against the exact tables");
  sub->footer(
      "Every legal position (the whole 2^n index space) is checked, on all five values: a 5-piece\n"
      "balance needs about 2.5 GB. --sample N checks N uniformly drawn legal positions instead, each\n"
      "by a linear scan of the cover, as the probe does. --probe also proves every legal position\n"
      "through the indexed probe (the cover's layout file, as engines and bench probe read it): one\n"
      "position of each class the board symmetries join, a different transform from class to class,\n"
      "counted for the class; --every-placement probes each member of each class.\n"
      "Examples:\n  egtmin-cli check KRvK KQvKR\n  egtmin-cli check --pieces 4 --json\n  egtmin-cli check KQRvKR "
      "--sample 100000 --json");
  add_balance_selection(sub, a->balances, a->pieces, "Covers to check");
  sub->add_option("--sample", a->sample, "Check N random legal positions (default: every legal position)");
  sub->add_option("--seed", a->seed, "Random seed for --sample")->capture_default_str();
  sub->add_flag("--probe", a->probe, "Also prove every legal position through the indexed probe against the table");
  sub->add_flag("--every-placement", a->every_placement,
                "With --probe: probe every legal placement, not one position of each symmetry class")
      ->needs("--probe");
  sub->add_flag("--capture-resolved", a->capture_resolved,
                "Check the capture-resolved covers (NAME.egtcr): against the table with the positions a capture "
                "wins left open, and with --probe, every position through the probe's capture search");
  add_common(sub, a->common);
  return {sub, [a] {
            auto requested = balances_or_pieces(a->balances, a->pieces, "check");
            if (!requested) {
              fail(requested.error().message);
              return int(kUsage);
            }
            run::ProofRequest request;
            request.balances = *requested;
            request.data_dir = a->common.data_dir();
            request.threads = a->common.threads;
            request.self_check = false;
            request.check_cover = true;
            request.cover_sample = a->sample;
            request.cover_seed = a->seed;
            request.check_probe = a->probe;
            request.probe_scope =
                a->every_placement ? probe::ProbeCheckScope::EveryPlacement : probe::ProbeCheckScope::OneOfEachClass;
            request.kind = cover_kind(a->capture_resolved);
            // A missing cover is a usage error found before any table is made.
            for (const Balance& b : request.balances)
              if (auto c = store::cover_path(request.data_dir, b, request.kind); !std::filesystem::exists(c))
                return fail("no cover file " + c.string() + " (run: egtmin-cli minimize " + b.name() +
                            (a->capture_resolved ? " --capture-resolved" : "") + ")");
            nlohmann::json jb = nlohmann::json::array();
            uint64_t all_positions = 0, all_mismatches = 0;
            int errors = 0;
            run::ProofEvents events;
            events.balance_done = [&](const run::BalanceProof& p) {
              end_progress(a->common);
              const std::string name = p.balance.name();
              if (!p.error.empty() || !p.cover) {
                ++errors;
                fail(p.balance.name() + ": " + (p.error.empty() ? std::string("not checked") : p.error));
                jb.push_back({{"balance", p.balance.name()}, {"error", p.error}});
                return;
              }
              const logic::CheckReport& r = *p.cover;
              const auto& pr = p.probe;
              all_positions += r.positions;
              all_mismatches += r.mismatches + (pr ? pr->mismatches : 0);
              nlohmann::json j = {{"balance", p.balance.name()},
                                  {"positions", r.positions},
                                  {"mismatches", r.mismatches},
                                  {"exhaustive", r.exhaustive},
                                  {"cubes", p.cover_cubes}};
              if (!r.first_mismatch.empty()) j["first_mismatch"] = r.first_mismatch;
              if (pr) {
                j["probe"] = {{"positions", pr->positions}, {"mismatches", pr->mismatches}};
                if (!pr->first_mismatch.empty()) j["probe"]["first_mismatch"] = pr->first_mismatch;
              }
              jb.push_back(j);
              if (!a->common.json) {
                std::printf("%-8s %s %llu positions (%s), %llu mismatches%s%s\n", name.c_str(),
                            r.mismatches ? "FAIL" : "ok  ", (unsigned long long)r.positions,
                            r.exhaustive ? "all" : "sample", (unsigned long long)r.mismatches,
                            r.first_mismatch.empty() ? "" : "; first: ", r.first_mismatch.c_str());
                if (pr)
                  std::printf("%-8s %s %llu positions probed (indexed), %llu mismatches%s%s\n", name.c_str(),
                              pr->mismatches ? "FAIL" : "ok  ", (unsigned long long)pr->positions,
                              (unsigned long long)pr->mismatches,
                              pr->first_mismatch.empty() ? "" : "; first: ", pr->first_mismatch.c_str());
                std::fflush(stdout);
              }
            };
            auto progress = make_progress(a->common);
            auto proven = run::run_proof(request, events, *progress);
            end_progress(a->common);
            if (!proven) return fail(proven.error().message);
            if (a->common.json)
              print_json({{"balances", jb}, {"positions", all_positions}, {"mismatches", all_mismatches}});
            return all_mismatches || errors ? int(kFailure) : int(kOk);
          }};
}

const CommandRegistration kRegistered(35, add_check);
}  // namespace

}  // namespace egtmin::cli
