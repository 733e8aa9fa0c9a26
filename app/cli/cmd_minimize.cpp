// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli minimize: runs the logic minimizer's passes over balances and saves each cover.
#include <atomic>
#include <chrono>
#include <iostream>
#include <mutex>
#include <thread>

#include "common.hpp"
#include "logic/pipeline.hpp"
#include "store/cover_file.hpp"
#include "table/table_store.hpp"

namespace egtmin::cli {

namespace {
Command add_minimize(CLI::App& app) {
  struct Args {
    Common common;
    std::vector<std::string> balances;
    int pieces = 0;
    std::string passes = "canon,compact,expand,irredundant";
    std::string canon = "full";
    std::string effort = "normal";
    bool no_save = false;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand("minimize", "Minimize tables into ON-covers by two-level logic minimization");
  sub->footer(
      "Passes (any order, comma-separated): canon compact expand irredundant reduce essential espresso.\n"
      "Without canon every legal position is a care position (scheme none).\n"
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
  sub->add_flag("--no-save", a->no_save, "Do not write cover files (benchmarks)");
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
            auto effort = logic::parse_effort(a->effort);
            if (!effort) {
              fail("--effort: " + effort.error().message);
              return int(kUsage);
            }
            auto requested = balances_or_pieces(a->balances, a->pieces, "minimize");
            if (!requested) {
              fail(requested.error().message);
              return int(kUsage);
            }
            std::vector<Balance> todo = *requested;
            for (const Balance& b : todo)
              if (b.pieces() > 5) return fail(b.name() + " has " + std::to_string(b.pieces()) + " pieces; up to 5 are supported");

            TableStore store(a->common.data_dir());
            auto progress = make_progress(a->common);
            for (const Balance& b : todo) {
              auto r = store.ensure(b, GenerateOptions{}, *progress);
              if (!r) {
                end_progress(a->common);
                return fail(r.error().message);
              }
            }
            int threads = a->common.threads > 0 ? a->common.threads : int(std::max(1u, std::thread::hardware_concurrency()));
            // Balances in parallel when there are several (each pass then runs single-threaded),
            // else the passes use the threads. 5-piece balances run one at a time for memory.
            bool has_five = std::any_of(todo.begin(), todo.end(), [](const Balance& b) { return b.pieces() >= 5; });
            int outer = (todo.size() > 1 && !has_five) ? std::min<int>(threads, int(todo.size())) : 1;
            logic::MinimizeOptions opts;
            opts.canon = *scheme;
            opts.effort = *effort;
            opts.threads = outer > 1 ? 1 : threads;

            struct Outcome {
              bool ok = false;
              std::string error;
              logic::Minimized m;
              double seconds = 0;
              double cpu_seconds = 0;
            };
            std::vector<Outcome> outcomes(todo.size());
            std::atomic<size_t> next{0};
            std::mutex print_mutex;
            auto t_all = std::chrono::steady_clock::now();
            auto work = [&] {
              for (size_t i; (i = next.fetch_add(1)) < todo.size();) {
                const Balance& b = todo[i];
                auto t = store.get(b);
                if (!t) {
                  outcomes[i].error = t.error().message;
                  continue;
                }
                auto t0 = std::chrono::steady_clock::now();
                double c0 = logic::cpu_now(opts.threads > 1);
                auto m = logic::minimize_table(**t, *passes, opts, *progress);
                outcomes[i].seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                outcomes[i].cpu_seconds = logic::cpu_now(opts.threads > 1) - c0;
                if (!m) {
                  outcomes[i].error = b.name() + ": " + m.error().message;
                  continue;
                }
                if (!a->no_save) {
                  store::CoverFile cf;
                  cf.balance = b;
                  cf.inputs = (**t).encoding().bits();
                  cf.canon = m->scheme;
                  cf.passes = a->passes;
                  cf.cubes = m->cover;
                  auto s = store::save_cover(store::cover_path(store.data_dir(), b), cf);
                  if (!s) {
                    outcomes[i].error = b.name() + ": " + s.error().message;
                    continue;
                  }
                }
                outcomes[i].ok = true;
                outcomes[i].m = std::move(*m);
                if (!a->common.json) {
                  std::lock_guard lock(print_mutex);
                  end_progress(a->common);
                  const auto& mm = outcomes[i].m;
                  std::printf("%-8s %10llu minterms", b.name().c_str(), (unsigned long long)mm.initial_cubes);
                  for (const auto& r : mm.reports)
                    std::printf("  %s %llu (%.2f s)", r.pass.c_str(), (unsigned long long)r.cubes, r.seconds);
                  std::printf("  total %.2f s (cpu %.2f s)\n", outcomes[i].seconds, outcomes[i].cpu_seconds);
                  std::fflush(stdout);
                }
                outcomes[i].m.cover = logic::Cover();  // keep memory flat over many balances
                outcomes[i].m.initial_cubes = outcomes[i].m.initial_cubes;
              }
            };
            std::vector<std::thread> pool;
            for (int i = 1; i < outer; ++i) pool.emplace_back(work);
            work();
            for (auto& th : pool) th.join();
            end_progress(a->common);
            double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_all).count();

            int code = kOk;
            nlohmann::json jb = nlohmann::json::array();
            for (size_t i = 0; i < todo.size(); ++i) {
              const auto& o = outcomes[i];
              if (!o.ok) {
                fail(o.error);
                code = kFailure;
                continue;
              }
              nlohmann::json jp = nlohmann::json::array();
              for (const auto& r : o.m.reports)
                jp.push_back({{"pass", r.pass}, {"cubes", r.cubes}, {"literals", r.literals}, {"seconds", r.seconds},
                              {"cpu_seconds", r.cpu_seconds}, {"peak_bytes", r.peak_bytes}});
              uint64_t cubes = o.m.reports.empty() ? o.m.initial_cubes : o.m.reports.back().cubes;
              jb.push_back({{"balance", todo[i].name()}, {"cubes", cubes}, {"initial_cubes", o.m.initial_cubes},
                            {"care_positions", o.m.care_positions}, {"canon", std::string(canon_name(o.m.scheme))},
                            {"effort", a->effort}, {"seconds", o.seconds}, {"cpu_seconds", o.cpu_seconds}, {"passes", jp}});
            }
            if (a->common.json)
              print_json({{"balances", jb}, {"seconds", total}, {"cpu_seconds", logic::cpu_now(true)}, {"peak_bytes", logic::peak_memory_bytes()},
                          {"passes", a->passes}});
            else
              std::printf("%zu balance(s) in %.2f s (process cpu %.2f s), peak memory %.1f MiB\n", jb.size(), total, logic::cpu_now(true),
                          double(logic::peak_memory_bytes()) / 1048576.0);
            return code;
          }};
}

const CommandRegistration kRegistered(30, add_minimize);
}  // namespace

}  // namespace egtmin::cli
