// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli pla export/import: Berkeley espresso PLA files of tables and covers.
#include <fstream>
#include <iterator>
#include <thread>

#include "common.hpp"
#include "logic/pla.hpp"
#include "store/cover_file.hpp"
#include "table/table_store.hpp"
#include "util/atomic_file.hpp"

namespace egtmin::cli {

namespace {
Command add_pla(CLI::App& app) {
  struct Args {
    Common common;
    std::string balance;
    std::string out;
    std::string what = "cover";
    std::string canon;
    std::string file;
    std::string import_balance;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand("pla", "Export or import Berkeley espresso PLA files");
  sub->require_subcommand(1);
  sub->footer(
      "Inputs: side to move, then 6 square bits per piece (White K Q R B N P, Black K Q R B N P);\n"
      "outputs: win draw loss (one-hot, White's view).\n"
      "Examples:\n  egtmin-cli pla export KRvK --out krvk.pla --what table --canon full\n"
      "  egtmin-cli pla import krvk.pla --balance KRvK");
  auto* ex = sub->add_subcommand("export", "Write a table (type fr) or a saved cover (type fd) as PLA");
  ex->add_option("balance", a->balance, "Balance such as KRvK")->required();
  ex->add_option("--out", a->out, "Output PLA file")->required();
  ex->add_option("--what", a->what, "table or cover")->check(CLI::IsMember({"table", "cover"}))->capture_default_str();
  ex->add_option("--canon", a->canon, "For --what table: none, board or full (default none)");
  add_common(ex, a->common);
  auto* im = sub->add_subcommand("import", "Read a PLA cover and save it as the balance's cover file");
  im->add_option("file", a->file, "PLA file")->required();
  im->add_option("--balance", a->import_balance, "Balance the PLA describes")->required();
  im->add_option("--canon", a->canon, "Scheme the cover assumes (default: from the file's egtmin comment, else none)");
  add_common(im, a->common);
  im->get_option("--threads")
      ->description("Not used: an import reads and writes one file (accepted like every command's)");
  return {sub, [a, ex, im] {
            if (ex->parsed()) {
              auto b = Balance::parse(a->balance);
              if (!b) {
                fail(b.error().message);
                return int(kUsage);
              }
              Balance bal = b->canonical();
              TableStore store(a->common.data_dir());
              Encoding enc(bal);
              std::string text;
              if (a->what == "cover") {
                if (!a->canon.empty()) {
                  fail("--canon applies to --what table; a cover keeps the scheme it was made with");
                  return int(kUsage);
                }
                auto cover = store::load_cover(store::cover_path(store.data_dir(), bal), &bal);
                if (!cover) return fail(cover.error().message);
                text = logic::write_pla_cover(enc, cover->cubes, cover->canon, cover->implied);
                auto s =
                    write_file_atomically(a->out, std::span<const uint8_t>((const uint8_t*)text.data(), text.size()));
                if (!s) return fail(s.error().message);
              } else {
                auto scheme = parse_canon(a->canon.empty() ? "none" : a->canon);
                if (!scheme) {
                  fail(scheme.error().message);
                  return int(kUsage);
                }
                auto progress = make_progress(a->common);
                auto t = store.ensure(bal, GenerateOptions{}, *progress);
                end_progress(a->common);
                if (!t) return fail(t.error().message);
                auto f = logic::CareFunction::from_table(**t, *scheme, a->common.threads);
                std::string tmp = a->out + ".tmp";
                std::ofstream os(tmp, std::ios::binary);
                if (!os) return fail("cannot write " + tmp);
                logic::write_pla_function(enc, f,
                                          [&](std::string_view s) { os.write(s.data(), std::streamsize(s.size())); });
                os.close();
                std::error_code ec;
                std::filesystem::rename(tmp, a->out, ec);
                if (!os || ec) return fail("cannot write " + a->out);
              }
              if (a->common.json)
                print_json({{"balance", bal.name()}, {"what", a->what}, {"out", a->out}});
              else if (!a->common.quiet)
                std::printf("wrote %s (%s of %s)\n", a->out.c_str(), a->what.c_str(), bal.name().c_str());
              return int(kOk);
            }
            if (im->parsed()) {
              auto b = Balance::parse(a->import_balance);
              if (!b) {
                fail(b.error().message);
                return int(kUsage);
              }
              Balance bal = b->canonical();
              if (!(bal == *b))
                return fail(b->name() + " is stored as " + bal.name() + "; import the PLA of " + bal.name());
              std::ifstream is(a->file, std::ios::binary);
              if (!is) return fail("cannot read " + a->file);
              std::string text((std::istreambuf_iterator<char>(is)), std::istreambuf_iterator<char>());
              Encoding enc(bal);
              auto pla = logic::parse_pla(text, a->file, enc.bits());
              if (!pla) return fail(pla.error().message);
              if (!pla->header.balance.empty() && pla->header.balance != bal.name())
                return fail(a->file + " says it holds " + pla->header.balance + ", not " + bal.name());
              CanonScheme scheme = pla->header.canon.value_or(CanonScheme::None);
              if (!a->canon.empty()) {
                auto s = parse_canon(a->canon);
                if (!s) {
                  fail(s.error().message);
                  return int(kUsage);
                }
                scheme = *s;
              }
              store::CoverFile cf;
              cf.balance = bal;
              cf.inputs = enc.bits();
              cf.canon = scheme;
              cf.passes = "pla-import";
              cf.cubes = std::move(pla->on);
              cf.implied = pla->header.implied;
              TableStore store(a->common.data_dir());
              auto s = store::save_cover(store::cover_path(store.data_dir(), bal), cf);
              if (!s) return fail(s.error().message);
              if (a->common.json)
                print_json({{"balance", bal.name()},
                            {"cubes", cf.cubes.size()},
                            {"rows", pla->rows},
                            {"canon", std::string(name_of(scheme))}});
              else if (!a->common.quiet)
                std::printf("imported %llu cubes for %s (canon %s)\n", (unsigned long long)cf.cubes.size(),
                            bal.name().c_str(), std::string(name_of(scheme)).c_str());
              return int(kOk);
            }
            return int(kUsage);
          }};
}

const CommandRegistration kRegistered(40, add_pla);
}  // namespace

}  // namespace egtmin::cli
