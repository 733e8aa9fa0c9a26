// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/engine_match.hpp"

#include <algorithm>
#include <map>
#include <random>

#include "store/cover_file.hpp"
#include "table/generator.hpp"

namespace egtmin::engine {

namespace fs = std::filesystem;

namespace {

bool is_cover(const fs::path& p) {
  const fs::path ext = p.extension();
  return ext == store::cover_extension(store::CoverKind::Standalone) ||
         ext == store::cover_extension(store::CoverKind::CaptureResolved);
}

Status link_into(const fs::path& target, const fs::path& dir) {
  std::error_code ec;
  fs::create_symlink(fs::absolute(target), dir / target.filename(), ec);
  if (ec) return Error{"cannot link " + target.string() + " into " + dir.string() + ": " + ec.message()};
  return ok_status();
}

}  // namespace

Result<MatchTables> prepare_match_tables(const fs::path& covers_dir, const fs::path& syzygy_dir,
                                         const fs::path& work_dir, store::CoverKind prefer) {
  using store::CoverKind;
  std::error_code ec;
  auto list = [&](const fs::path& d) {
    std::vector<fs::path> files;
    for (fs::directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec)) files.push_back(it->path());
    std::sort(files.begin(), files.end());
    return files;
  };
  fs::path cover_dir = covers_dir;
  std::vector<fs::path> cover_files = list(cover_dir);
  if (ec) return Error{"cannot list " + cover_dir.string() + ": " + ec.message()};
  if (std::none_of(cover_files.begin(), cover_files.end(), is_cover) && fs::is_directory(covers_dir / "covers", ec)) {
    cover_dir = covers_dir / "covers";  // an egtmin data directory
    cover_files = list(cover_dir);
    if (ec) return Error{"cannot list " + cover_dir.string() + ": " + ec.message()};
  }
  // Per balance and kind, its cover file.
  std::map<Balance, std::map<CoverKind, fs::path>> covers;
  for (const fs::path& f : cover_files) {
    if (!is_cover(f)) continue;
    auto b = Balance::parse(f.stem().string());
    if (!b) continue;
    const CoverKind kind = f.extension() == store::cover_extension(CoverKind::Standalone) ? CoverKind::Standalone
                                                                                          : CoverKind::CaptureResolved;
    covers[b->canonical()].emplace(kind, f);
  }
  std::map<Balance, fs::path> wdl;
  for (const fs::path& f : list(syzygy_dir)) {
    if (f.extension() != ".rtbw") continue;
    if (auto b = Balance::parse(f.stem().string())) wdl[b->canonical()] = f;
  }
  if (ec) return Error{"cannot list " + syzygy_dir.string() + ": " + ec.message()};

  MatchTables t;
  std::map<Balance, CoverKind> kept;
  for (const auto& [b, kinds] : covers) {
    if (!wdl.count(b)) {
      t.only_covers.push_back(b);
      continue;
    }
    kept[b] = kinds.count(prefer) ? prefer : kinds.begin()->first;
  }
  for (const auto& [b, path] : wdl)
    if (!covers.count(b)) t.only_syzygy.push_back(b);
  // A capture-resolved cover answers only with the balances its search reaches: the standalone
  // one where they are not all kept, else none (which may leave out others in turn).
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = kept.begin(); it != kept.end();) {
      bool reaches_all = true;
      if (it->second == CoverKind::CaptureResolved)
        for (const Balance& s : successor_balances(it->first))
          if (s.pieces() > 2 && !kept.count(s.canonical())) reaches_all = false;
      if (reaches_all) {
        ++it;
      } else if (covers[it->first].count(CoverKind::Standalone)) {
        it->second = CoverKind::Standalone;
        changed = true;
        ++it;
      } else {
        t.unreachable.push_back(it->first);
        it = kept.erase(it);
        changed = true;
      }
    }
  }
  if (kept.empty())
    return Error{"no balance has both a cover in " + cover_dir.string() + " and a WDL file in " + syzygy_dir.string()};

  t.covers = work_dir / "covers";
  t.syzygy = work_dir / "syzygy";
  for (const fs::path& d : {t.covers, t.syzygy}) {
    fs::remove_all(d, ec);
    fs::create_directories(d, ec);
    if (ec) return Error{"cannot make " + d.string() + ": " + ec.message()};
  }
  for (const auto& [b, kind] : kept) {
    t.balances.push_back(b);
    if (kind == CoverKind::CaptureResolved) t.capture_resolved.push_back(b);
    t.largest = std::max(t.largest, b.pieces());
    // The chosen cover and its probe layout (NAME.egtl beside NAME.egtc, NAME.egtlr beside NAME.egtcr).
    const fs::path& cover = covers[b][kind];
    fs::path layout = cover;
    layout.replace_extension(kind == CoverKind::Standalone ? ".egtl" : ".egtlr");
    if (auto s = link_into(cover, t.covers); !s) return s.error();
    if (fs::exists(layout, ec))
      if (auto s = link_into(layout, t.covers); !s) return s.error();
    if (auto s = link_into(wdl[b], t.syzygy); !s) return s.error();
  }
  return t;
}

std::vector<std::string> sample_positions(const std::vector<Balance>& bases, const std::vector<int>& extra,
                                          size_t count, uint64_t seed) {
  std::vector<std::string> fens;
  if (bases.empty() || extra.empty()) return fens;
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < count; ++i) {
    const Balance& base = bases[i % bases.size()];
    const int more = extra[(i / bases.size()) % extra.size()];
    for (;;) {
      std::vector<Piece> pieces = base.piece_order();
      for (int k = 0; k < more; ++k) pieces.push_back(make_piece(Color(rng() & 1), PieceType(1 + rng() % 5)));
      Position pos;
      Bitboard used = 0;
      bool ok = true;
      for (Piece p : pieces) {
        const Square s = Square(rng() & 63);
        if ((used & bb(s)) || (type_of(p) == Pawn && (bb(s) & kPromotionRanks))) {
          ok = false;
          break;
        }
        used |= bb(s);
        pos.put(s, p);
      }
      pos.set_side_to_move(Color(rng() & 1));
      if (!ok || pos.illegal_reason() || legal_moves(pos).empty()) continue;
      fens.push_back(pos.fen());
      break;
    }
  }
  return fens;
}

namespace {

// The balances whose tables (covers, their probe layouts, WDL files) the engine's process maps.
std::vector<std::string> mapped_balances(const UciEngine& engine) {
  std::vector<std::string> names;
  for (const std::string& file : engine.mapped_files("")) {
    const fs::path path(file);
    const std::string ext = path.extension().string();
    if (ext.rfind(".egt", 0) != 0 && ext != ".rtbw") continue;
    if (auto b = Balance::parse(path.stem().string()); b && b->name() == path.stem().string())
      names.push_back(b->name());
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace

Result<MatchReport> run_match(const MatchRequest& request, const Progress& progress) {
  auto start = [&](const MatchSide& side) -> Result<std::unique_ptr<UciEngine>> {
    auto e = UciEngine::start(side.command);
    if (!e) return Error{side.label + ": " + e.error().message};
    for (auto [name, value] : {std::pair<std::string, std::string>{"Threads", std::to_string(request.threads)},
                               {"Hash", std::to_string(request.hash_mb)},
                               {"SyzygyPath", side.syzygy_path}})
      if (auto s = (*e)->set_option(name, value); !s) return Error{side.label + ": " + s.error().message};
    return e;
  };
  auto a = start(request.a);
  if (!a) return a.error();
  auto b = start(request.b);
  if (!b) return b.error();
  MatchReport report;
  report.fathom_a = (*a)->mapped_files("libfathom.so");
  report.fathom_b = (*b)->mapped_files("libfathom.so");
  for (size_t i = 0; i < request.fens.size(); ++i) {
    if (progress.cancelled()) return Error{"cancelled"};
    progress.report(Stage::Time, double(i) / double(request.fens.size()),
                    "position " + std::to_string(i + 1) + "/" + std::to_string(request.fens.size()));
    MatchPosition p;
    p.fen = request.fens[i];
    // Alternating which engine searches first.
    for (int k = 0; k < 2; ++k) {
      const bool first_a = (i + size_t(k)) % 2 == 0;
      UciEngine& e = first_a ? **a : **b;
      auto r = e.search(p.fen, request.depth);
      if (!r) return Error{(first_a ? request.a.label : request.b.label) + " on " + p.fen + ": " + r.error().message};
      (first_a ? p.a : p.b) = *r;
    }
    report.mismatches += !p.same();
    report.seconds_a += p.a.seconds;
    report.seconds_b += p.b.seconds;
    report.nodes_a += p.a.nodes;
    report.nodes_b += p.b.nodes;
    report.tbhits_a += p.a.tbhits;
    report.tbhits_b += p.b.tbhits;
    report.positions.push_back(std::move(p));
  }
  progress.report(Stage::Time, 1.0);
  report.mapped_a = mapped_balances(**a);
  report.mapped_b = mapped_balances(**b);
  return report;
}

}  // namespace egtmin::engine
