// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli layouts: writes the probe layout of each cover whose layout is missing or stale.
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "common.hpp"
#include "probe/probe_layout.hpp"
#include "store/cover_file.hpp"
#include "util/defaults.hpp"  // the supported piece counts

namespace egtmin::cli {

namespace {

// The covers of `kind` to look at: the named balances' (each must have one), and those on disk of
// at most `pieces` pieces; every one under DATA/covers when neither is given.
Result<std::vector<std::filesystem::path>> covers_to_look_at(const std::filesystem::path& data,
                                                             const std::vector<std::string>& names, int pieces,
                                                             store::CoverKind kind) {
  std::vector<std::filesystem::path> out;
  for (const std::string& name : names) {
    auto b = Balance::parse(name);
    if (!b) return b.error();
    auto c = store::cover_path(data, *b, kind);
    if (!std::filesystem::exists(c)) return Error{"no cover file " + c.string()};
    out.push_back(c);
  }
  if (!names.empty() && pieces == 0) return out;
  std::error_code ec;
  for (auto& c : probe::probeable_covers(data / "covers", kind, ec)) {
    if (!std::filesystem::exists(c)) continue;  // a layout alone has no cover to make it from
    auto b = Balance::parse(c.stem().string());
    if (b && (pieces == 0 || b->pieces() <= pieces) && std::find(out.begin(), out.end(), c) == out.end())
      out.push_back(c);
  }
  if (ec) return Error{(data / "covers").string() + ": " + ec.message()};
  return out;
}

Command add_layouts(CLI::App& app) {
  struct Args {
    Common common;
    std::vector<std::string> balances;
    int pieces = 0;
    bool capture_resolved = false;
    std::string check_evasions = std::string(name_of(probe::kDefaultCheckEvasions));
    std::optional<uint64_t> max_bytes;
    std::optional<uint64_t> ceiling_bytes;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand(
      "layouts",
      "Write the probe layout of each cover whose layout is missing, of another version or of another cover");
  sub->footer(
      "A probe layout (NAME.egtl, NAME.egtlr) is what the indexed probe maps; minimize writes it after each\n"
      "cover. After an upgrade that changes the layout's version, a prober that may write (bench, check\n"
      "--probe, batch) makes each stale layout again when it opens the cover; probe, which answers one\n"
      "position, and the engines' library, which never writes, build the index in memory. This command\n"
      "makes them once. Without balances, every cover under DATA/covers of the kind asked.\n"
      "Examples:\n  egtmin-cli layouts\n  egtmin-cli layouts --capture-resolved --pieces 5 --json");
  sub->add_option("balances", a->balances, "Covers whose layouts to make (default: every cover on disk)");
  sub->add_option("--pieces", a->pieces, "Also every cover on disk of up to N pieces")
      ->check(CLI::Range(kMinSupportedPieces, kMaxSupportedPieces));
  sub->add_flag("--capture-resolved", a->capture_resolved, "The capture-resolved covers' layouts (NAME.egtlr)");
  sub->add_option("--check-evasions", a->check_evasions,
                  "Capture-resolved layouts: 'searched' lets the regions that spare most bytes by it leave the "
                  "positions in check that no move answers with check to a search of their moves, where it gives "
                  "them their values and the balance's table is in DATA (fewer bytes, slower probes of them); "
                  "'stored' answers them all in the regions")
      ->capture_default_str();
  sub->add_option("--max-bytes", a->max_bytes,
                  "Frame the region cubes of each layout whose fast form takes more than N bytes, where framing "
                  "takes fewer (a probe then decodes a frame of them); a current layout over N, of any form, is "
                  "made again by this rule. 0: frame every layout with regions");
  sub->add_option("--ceiling-bytes", a->ceiling_bytes,
                  "With --max-bytes: where no form of a layout comes within --max-bytes, keep its fastest form "
                  "within N bytes (the plain one first), and only over N too its smallest (default: --max-bytes)")
      ->needs("--max-bytes");
  add_common(sub, a->common);
  return {sub, [a] {
            const auto kind = cover_kind(a->capture_resolved);
            const auto evasions = parse_named<probe::CheckEvasions>(a->check_evasions, "way of answering checks");
            if (!evasions) {
              fail("--check-evasions: " + evasions.error().message);
              return int(kUsage);
            }
            std::optional<probe::LayoutBytes> bound;
            if (a->max_bytes)
              bound = probe::LayoutBytes{.target = *a->max_bytes, .ceiling = a->ceiling_bytes.value_or(*a->max_bytes)};
            auto covers = covers_to_look_at(a->common.data_dir(), a->balances, a->pieces, kind);
            if (!covers) {
              fail(covers.error().message);
              // A bad name, or a named balance without a cover: usage.
              return int(a->balances.empty() ? kFailure : kUsage);
            }
            nlohmann::json jl = nlohmann::json::array();
            int made = 0, current = 0, errors = 0;
            for (const auto& cover : *covers) {
              const std::string name = cover.stem().string();
              auto id = probe::cover_identity(cover);
              if (!id) {
                ++errors;
                fail(id.error().message);
                jl.push_back({{"balance", name}, {"error", id.error().message}});
                continue;
              }
              const auto layout = probe::layout_path(cover);
              std::error_code size_ec;
              const uint64_t on_disk = std::filesystem::file_size(layout, size_ec);
              // Over the target, whatever its form: the form kept depends on the target and the
              // ceiling asked now, which the layout does not record.
              const bool over_bound = a->max_bytes && !size_ec && on_disk > *a->max_bytes;
              if (!over_bound && probe::layout_is_current(layout, *id)) {
                ++current;
                jl.push_back({{"balance", name}, {"status", "current"}});
                continue;
              }
              if (!a->common.quiet) std::fprintf(stderr, "%s: making its layout\n", name.c_str());
              const auto t0 = std::chrono::steady_clock::now();
              if (auto st = probe::make_layout(cover, a->common.threads, *evasions, bound); !st) {
                ++errors;
                fail(st.error().message);
                jl.push_back({{"balance", name}, {"error", st.error().message}});
                continue;
              }
              const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
              const uint64_t bytes = std::filesystem::file_size(layout);
              ++made;
              const bool framed = probe::layout_cubes(layout) == probe::RegionCubes::Framed;
              jl.push_back({{"balance", name},
                            {"status", "made"},
                            {"bytes", bytes},
                            {"region_cubes", framed ? "framed" : "plain"},
                            {"seconds", seconds}});
              if (!a->common.json) {
                std::printf("%-8s made %llu bytes%s in %.1f s\n", name.c_str(), (unsigned long long)bytes,
                            framed ? " (region cubes framed)" : "", seconds);
                std::fflush(stdout);
              }
            }
            if (a->common.json)
              print_json({{"layouts", jl}, {"made", made}, {"current", current}, {"errors", errors}});
            else
              std::printf("%d made, %d already current, %d errors\n", made, current, errors);
            return errors ? int(kFailure) : int(kOk);
          }};
}

const CommandRegistration kRegistered(36, add_layouts);

}  // namespace

}  // namespace egtmin::cli
