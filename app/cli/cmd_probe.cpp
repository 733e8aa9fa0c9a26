// SPDX-License-Identifier: GPL-3.0-or-later
#include <iostream>
#include <vector>

#include "common.hpp"
#include "logic/cube.hpp"
#include "probe/probe.hpp"
#include "probe/probe_layout.hpp"
#include "store/cover_file.hpp"
#include "table/table_store.hpp"

namespace egtmin::cli {

namespace {
Command add_probe(CLI::App& app) {
  struct Args {
    Common common;
    std::string fen;
    std::string syzygy;
    std::string method;  // empty: the memory level's
    std::string memory{probe::probe_memory_level(probe::kDefaultProbeMemory).name};
    bool capture_resolved = false;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand("probe", "Probe one position: its value from our cover files, tables (and Syzygy)");
  sub->footer(
      "Examples:\n  egtmin-cli probe '8/8/8/8/8/2k5/8/KQ6 w - - 0 1'\n"
      "  egtmin-cli probe '8/8/4k3/8/8/8/3r4/K7 b - -' --syzygy ../shared/syzygy --json\n"
      "  egtmin-cli probe '8/8/8/k2pP3/8/8/8/4K3 w - d6 0 1' --method linear\n"
      "  egtmin-cli probe '8/8/8/8/8/2k5/8/KQ6 w - - 0 1' --memory smallest\n"
      "  egtmin-cli probe '8/8/8/8/8/2k5/8/KQ6 w - - 0 1' --capture-resolved\n"
      "The cover answer comes from DATA/covers/NAME.egtc alone (egtmin-cli minimize makes it), or with\n"
      "--capture-resolved from NAME.egtcr and the covers its capture search reaches; the\n"
      "table answer from DATA/tables when that table has been generated. The output gives the memory\n"
      "the loaded covers take at the chosen --memory level.");
  sub->add_option("fen", a->fen, "Position in FEN (castling rights not allowed)")->required();
  sub->add_option("--syzygy", a->syzygy, "Also probe Syzygy tables in this directory");
  std::vector<std::string> methods;
  std::string method_help = "Cover probe strategy (default: the --memory level's):";
  for (const probe::ProbeMethodInfo& m : probe::probe_methods())
    // probe reads standalone covers, one position (a batch of one is the indexed probe)
    if (m.role == probe::MethodRole::Cover && !m.reads_resolved && !m.overlaps_probes) {
      methods.emplace_back(m.name);
      method_help += " " + std::string(m.name) + " (" + std::string(m.description) + ")";
    }
  sub->add_option("--method", a->method, method_help)->check(CLI::IsMember(methods));
  std::string memory_help = "What the covers keep in memory, from most to least (default " + a->memory + "):";
  for (const probe::ProbeMemoryLevel& l : probe::probe_memory_levels())
    memory_help += " " + std::string(l.name) + " (" + std::string(l.description) + ")";
  // A bad name is a usage error that lists the levels.
  const CLI::Validator is_level(
      [](std::string& name) {
        auto level = probe::parse_probe_memory(name);
        return level ? std::string() : level.error().message;
      },
      "");
  sub->add_option("--memory", a->memory, memory_help)->check(is_level)->type_name("LEVEL");
  sub->add_flag("--capture-resolved", a->capture_resolved,
                "Answer from the capture-resolved cover (NAME.egtcr): the better of its value and a one-ply search "
                "of captures and promotions, which probes the covers of the balances they reach (either kind)");
  add_common(sub, a->common);
  sub->get_option("--threads")
      ->description("Not used: one position is probed on one thread (accepted like every command's)");
  return {
      sub, [a] {
        auto pos = Position::from_fen(a->fen);
        if (!pos) return fail(pos.error().message);
        if (auto why = pos->illegal_reason()) return fail("illegal position: " + *why);
        Balance b = Balance::of(*pos);
        const Balance canonical = b.canonical();
        nlohmann::json j{{"fen", pos->fen()},
                         {"balance", canonical.name()},
                         {"side_to_move", pos->side_to_move() == White ? "white" : "black"}};
        const auto& level = probe::probe_memory_level(*probe::parse_probe_memory(a->memory));
        const auto method = a->method.empty() ? level.method : *probe::parse_method(a->method);
        if (method == probe::Method::Indexed && level.max_copies == probe::CoverProber::kNoIndex) {
          std::fprintf(stderr, "egtmin-cli: error: --method %s needs an index, which --memory %s lacks\n",
                       std::string(probe::method_name(method)).c_str(), a->memory.c_str());
          return int(kUsage);
        }

        // Only this balance's cover (and, with an en-passant square, its capture's) is loaded:
        // a probe of one position should not pay for every cover under DATA. Nothing is
        // written: a missing probe layout is built in memory.
        // With --capture-resolved, the balance's capture-resolved cover (else its standalone
        // one) and, for each capture-resolved cover loaded, the covers its search reaches.
        probe::CoverProber prober;
        const std::vector<store::CoverKind> kinds =
            a->capture_resolved ? std::vector{store::CoverKind::CaptureResolved, store::CoverKind::Standalone}
                                : std::vector{store::CoverKind::Standalone};  // the standalone probe reads .egtc only
        auto load = [&](const Balance& bal) {
          return prober.add_reaching(a->common.data_dir(), bal, kinds, probe::CoverProber::LayoutPolicy::Read,
                                     level.max_copies, level.regions);
        };
        if (auto s = load(canonical); !s) return fail(s.error().message);
        if (pos->ep_square() != NoSquare)
          for (const Move& m : legal_moves(*pos))
            if (m.en_passant)
              if (auto s = load(Balance::of(pos->after(m))); !s) return fail(s.error().message);

        j["cover_method"] = probe::method_name(method);
        if (!prober.has(canonical)) {
          j["cover_wdl"] = nullptr;
          j["cover_message"] =
              "no cover for " + canonical.name() + " yet (egtmin-cli minimize " + canonical.name() + ")";
        } else {
          auto r = prober.probe(*pos, method);
          if (!r) return fail(r.error().message);
          j["cover_wdl"] = std::string(name_of(r->wdl));
          if (r->cube) {
            j["cube"] = logic::to_text(r->cube, r->inputs);
            char hex[24];
            std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(r->cube));
            j["cube_hex"] = hex;
          } else {
            j["cube"] = r->naming == probe::CubeNaming::Implied
                            ? "none: the cover's implied value"
                            : "not named: only the cover's probe layout is on disk, not its cubes";
            j["cube_hex"] = nullptr;
          }
          j["cover_cubes"] = prober.cover(canonical)->cube_count();
        }
        // After the probe: naming the cube may have loaded the cubes beside a mapped layout.
        j["memory_level"] = level.name;
        j["resident_bytes"] = prober.resident_bytes();

        TableStore store(a->common.data_dir());
        if (store.on_disk(canonical)) {
          auto v = store.probe_stm(*pos);
          if (!v) return fail(v.error().message);
          j["table_wdl"] = std::string(name_of(*v));
        } else {
          j["table_wdl"] = nullptr;
        }
        // "wdl": the table's value when there is a table (as before covers existed), else the cover's.
        if (!j["table_wdl"].is_null())
          j["wdl"] = j["table_wdl"];
        else if (!j["cover_wdl"].is_null())
          j["wdl"] = j["cover_wdl"];
        else
          return fail("no table and no cover for " + canonical.name() + " under " + a->common.data_dir().string() +
                      " (egtmin-cli gen / minimize)");
        if (!j["table_wdl"].is_null() && !j["cover_wdl"].is_null() && j["table_wdl"] != j["cover_wdl"])
          j["mismatch"] = true;

        if (!a->syzygy.empty()) {
          auto syz = Syzygy::open(a->syzygy);
          if (!syz) return fail(syz.error().message);
          auto w = (*syz)->wdl(*pos);
          j["syzygy_wdl"] = w ? nlohmann::json(std::string(name_of(*w))) : nlohmann::json(nullptr);
          auto d = (*syz)->dtz(*pos);
          j["syzygy_dtz"] = d ? nlohmann::json(*d) : nlohmann::json(nullptr);
        }
        if (a->common.json) {
          print_json(j);
        } else {
          auto str = [&](const char* k) { return j[k].is_null() ? std::string("-") : j[k].get<std::string>(); };
          std::printf("%s\n%s, %s to move: %s (for the side to move)\n", j["fen"].get<std::string>().c_str(),
                      j["balance"].get<std::string>().c_str(), j["side_to_move"].get<std::string>().c_str(),
                      j["wdl"].get<std::string>().c_str());
          if (j["cover_wdl"].is_null())
            std::printf("cover: %s\n", j["cover_message"].get<std::string>().c_str());
          else
            std::printf("cover (%s, %zu cubes): %s\n  cube %s\n", str("cover_method").c_str(),
                        j["cover_cubes"].get<size_t>(), str("cover_wdl").c_str(), str("cube").c_str());
          if (!j["cover_wdl"].is_null())
            std::printf("memory: %zu bytes (%.2f MB) for the loaded covers, level %s\n",
                        j["resident_bytes"].get<size_t>(), double(j["resident_bytes"].get<size_t>()) / 1e6,
                        str("memory_level").c_str());
          std::printf("table: %s\n", j["table_wdl"].is_null() ? "not generated" : str("table_wdl").c_str());
          if (j.contains("syzygy_wdl"))
            std::printf("syzygy: %s, dtz %s\n",
                        j["syzygy_wdl"].is_null() ? "unavailable" : j["syzygy_wdl"].get<std::string>().c_str(),
                        j["syzygy_dtz"].is_null() ? "unavailable" : std::to_string(j["syzygy_dtz"].get<int>()).c_str());
          if (j.contains("mismatch")) std::printf("WARNING: the cover and the table disagree\n");
        }
        return j.contains("mismatch") ? int(kFailure) : int(kOk);
      }};
}

const CommandRegistration kRegistered(50, add_probe);
}  // namespace

}  // namespace egtmin::cli
