// SPDX-License-Identifier: GPL-3.0-or-later
#include <iostream>

#include "common.hpp"
#include "probe/syzygy.hpp"
#include "table/table_store.hpp"

namespace egtmin::cli {

namespace {
Command add_probe(CLI::App& app) {
  struct Args {
    Common common;
    std::string fen;
    std::string syzygy;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand("probe", "Probe one position: its value from our tables (and Syzygy)");
  sub->footer("Examples:\n  egtmin-cli probe '8/8/8/8/8/2k5/8/KQ6 w - - 0 1'\n"
              "  egtmin-cli probe '8/8/4k3/8/8/8/3r4/K7 b - -' --syzygy ../shared/syzygy --json");
  sub->add_option("fen", a->fen, "Position in FEN (castling rights not allowed)")->required();
  sub->add_option("--syzygy", a->syzygy, "Also probe Syzygy tables in this directory");
  add_common(sub, a->common);
  return {sub, [a] {
            auto pos = Position::from_fen(a->fen);
            if (!pos) return fail(pos.error().message);
            Balance b = Balance::of(*pos);
            nlohmann::json j{{"fen", pos->fen()}, {"balance", b.canonical().name()},
                             {"side_to_move", pos->side_to_move() == White ? "white" : "black"}};
            TableStore store(a->common.data_dir());
            auto v = store.probe_stm(*pos);
            if (!v) return fail(v.error().message);
            j["wdl"] = wdl_name(*v);
            if (!a->syzygy.empty()) {
              auto syz = Syzygy::open(a->syzygy);
              if (!syz) return fail(syz.error().message);
              auto w = (*syz)->wdl(*pos);
              j["syzygy_wdl"] = w ? nlohmann::json(syzygy_wdl_name(*w)) : nlohmann::json(nullptr);
              auto d = (*syz)->dtz(*pos);
              j["syzygy_dtz"] = d ? nlohmann::json(*d) : nlohmann::json(nullptr);
            }
            if (a->common.json) {
              print_json(j);
            } else {
              std::printf("%s\n%s, %s to move: %s (for the side to move)\n", j["fen"].get<std::string>().c_str(),
                          j["balance"].get<std::string>().c_str(), j["side_to_move"].get<std::string>().c_str(),
                          j["wdl"].get<std::string>().c_str());
              if (j.contains("syzygy_wdl"))
                std::printf("syzygy: %s, dtz %s\n", j["syzygy_wdl"].is_null() ? "unavailable" : j["syzygy_wdl"].get<std::string>().c_str(),
                            j["syzygy_dtz"].is_null() ? "unavailable" : std::to_string(j["syzygy_dtz"].get<int>()).c_str());
            }
            return int(kOk);
          }};
}

const CommandRegistration kRegistered(50, add_probe);
}  // namespace

}  // namespace egtmin::cli
