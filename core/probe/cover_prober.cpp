// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/cover_prober.hpp"

#include "probe/capture_freedom.hpp"
#include "probe/probe_layout.hpp"
#include "table/capture_resolve.hpp"
#include "table/generator.hpp"
#include "util/defaults.hpp"
#include "util/parallel.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>

namespace egtmin::probe {

namespace fs = std::filesystem;

namespace {

// Sampled queries per balance that steer the index's copy budget: enough to rank the cubes, few
// enough that drawing them is a small part of building an index.
constexpr size_t kIndexSample = 50000;

// A small cover in one leaf, no copies, when the leaf is short enough to try: quick when it answers
// in a few blocks (CoverProber::kOneLeafBlocks) or stays in the caches (kOneLeafCachedBytes); at
// five pieces also a longer one (kOneLeafSmallerBlocks), which build() takes only where it is
// smaller than the regions. Else nothing.
struct OneLeaf {
  CubeIndex index;
  bool quick = false;
};
std::optional<OneLeaf> one_leaf(const store::CoverFile& cover, std::span<const uint64_t> queries) {
  if (cover.cubes.size() > CoverProber::kOneLeafMaxCubes) return std::nullopt;
  const bool five = cover.balance.pieces() == 5;
  // At five pieces the leaf holds its cubes' inputs: these layouts' bytes are what stand against
  // Syzygy's small files of four pieces against a king, and a probe rarely passes the front line.
  OneLeaf leaf{CubeIndex(cover.cubes, cover.inputs, 1.0, 2.0, queries,
                         five ? CoverProber::kOneLeafFrontCubes : CoverProber::kSmallFrontCubes,
                         five ? LeafRows::Inputs : LeafRows::Values)};
  const double blocks = leaf.index.leaf_blocks_per_query(queries);
  leaf.quick =
      blocks <= CoverProber::kOneLeafBlocks || leaf.index.hot_words().size_bytes() <= CoverProber::kOneLeafCachedBytes;
  if (!leaf.quick && !(five && blocks <= CoverProber::kOneLeafSmallerBlocks)) return std::nullopt;
  return leaf;
}

}  // namespace

const std::vector<logic::CubeWord>& LoadedCover::cubes() const {
  if (!from_layout()) return file.cubes;
  std::call_once(lazy_once_, [&] {
    if (cover_path_.empty()) return;  // the layout alone
    auto c = store::load_cover(cover_path_, &file.balance);
    if (c) lazy_cubes_ = std::move(c->cubes);
    lazy_bytes_.store(lazy_cubes_.capacity() * sizeof(logic::CubeWord), std::memory_order_release);
  });
  return lazy_cubes_;
}

LoadedCover::Found LoadedCover::find(const Placement& p, Method m, bool& negate, uint64_t& rep_index,
                                     bool name_cube) const {
  const auto rep = canon.canonical(p);
  negate = rep.negate;
  const uint64_t idx = rep_index = encoding.encode(rep.placement);
  const logic::CubeWord mt = hot::fast_minterm(idx, file.inputs);
  auto scan = [&]() -> logic::CubeWord {
    for (logic::CubeWord c : cubes())
      if (logic::contains(c, mt)) return c;
    return 0;
  };
  if (m == Method::Linear || !indexed()) {
    const logic::CubeWord c = scan();
    return {c ? logic::output_of(c) : file.implied, c};
  }
  Found f;
  f.out = index.find_output(idx);
  if (f.out == logic::Output::None && region.built()) f.out = region.output(idx);  // the front line missed
  f.cube = index.find(idx, mt);
  if (!f.cube && region.built()) f.cube = region.find(idx, file.cubes);
  // The implied output has no cubes: a position of that value needs no scan to know none holds it.
  if (!f.cube && f.out != logic::Output::None && f.out != file.implied && name_cube) f.cube = scan();
  if (f.out == logic::Output::None) f.out = file.implied;  // no cube holds it
  return f;
}

int CoverProber::material_key(const std::array<uint8_t, kPieces>& counts) {
  int key = 0, n = 0;
  for (int pc = 0; pc < kPieces; ++pc) {
    if (type_of(Piece(pc)) == King) continue;
    for (int i = 0; i < counts[size_t(pc)]; ++i) {
      if (++n > 3) return -1;
      key = (key << 4) | pc;  // pc >= 1 for non-kings, so lengths are told apart
    }
  }
  return key;
}

int CoverProber::material_key(const Balance& b) {
  std::array<uint8_t, kPieces> counts{};
  for (int pc = 0; pc < kPieces; ++pc) counts[size_t(pc)] = uint8_t(b.count(Piece(pc)));
  return material_key(counts);
}

const LoadedCover* CoverProber::lookup(const Balance& b) const {
  const int key = material_key(b);
  if (key < 0 || slot_of_key_[size_t(key)] < 0) return nullptr;
  return covers_[size_t(slot_of_key_[size_t(key)])].get();
}

Status CoverProber::add(store::CoverFile cover, double max_copies, RegionPolicy regions) {
  auto lc = build(std::move(cover), max_copies, regions);
  if (!lc) return lc.error();
  insert(std::move(*lc));
  rebuild_material_hash();
  return check_capture_successors();
}

Result<std::unique_ptr<LoadedCover>> CoverProber::build(store::CoverFile cover, double max_copies, RegionPolicy regions,
                                                        int threads, const FreedomSource& freedom) {
  auto lc = std::make_unique<LoadedCover>();
  const Balance b = cover.balance;
  if (material_key(b) < 0 || !is_supported(b))
    return Error{"cover of " + b.name() + ": the prober handles up to " + std::to_string(kMaxSupportedPieces) +
                 " pieces"};
  lc->encoding = Encoding(b);
  lc->canon = CoverCanon(lc->encoding, cover.canon);
  const std::vector<uint32_t> draws = std::move(cover.rule_draws);
  cover.rule_draws = {};
  auto rules = RuleDraws::build(draws, b.pieces());
  if (!rules) return Error{"cover of " + b.name() + ": " + rules.error().message};
  lc->rules = std::move(*rules);
  if (max_copies < 1) {  // kNoIndex: the cubes are all there is
    lc->file = std::move(cover);
    lc->file.cubes.shrink_to_fit();
    return lc;
  }
  auto t0 = std::chrono::steady_clock::now();
  // Where probes will land: representatives of random legal placements (fixed seed, so an index
  // is a function of its cover).
  std::vector<uint64_t> queries;
  std::mt19937_64 rng(0x5eed);
  const uint64_t mask = lc->encoding.size() - 1;
  for (int tries = 0; queries.size() < kIndexSample && tries < 50 * int(kIndexSample); ++tries) {
    const Placement p = lc->encoding.decode(rng() & mask);
    if (lc->encoding.is_legal(p)) queries.push_back(lc->encoding.encode(lc->canon.canonical(p).placement));
  }
  const bool five = b.pieces() == 5;
  const RegionFreedom* freed = nullptr;
  auto free_positions = [&]() -> const RegionFreedom* {
    if (cover.kind != store::CoverKind::CaptureResolved || !freedom) return nullptr;
    return freed = freedom(lc->encoding, lc->canon);
  };
  std::optional<OneLeaf> leaf =
      regions == RegionPolicy::Auto && max_copies == kDefaultCopies ? one_leaf(cover, queries) : std::nullopt;
  if (leaf && leaf->quick) {
    lc->index = std::move(leaf->index);
  } else if (five && regions != RegionPolicy::Never) {
    // Five pieces: the front line, then regions for everything it misses. A tree over a cover of
    // millions of cubes must copy most of them into its leaves, which then stay long: slow to build
    // and slow to scan (docs/measured.md).
    lc->index = CubeIndex::front_line(cover.cubes, cover.inputs, queries);
    lc->region = RegionIndex(cover.cubes, lc->encoding, lc->canon, lc->index.front_cubes(), std::nullopt, cover.implied,
                             0, std::nullopt, threads, free_positions());
    // A longer leaf where it takes fewer bytes than the front line and regions (their hot words
    // are the layout's payload).
    if (leaf && leaf->index.hot_words().size_bytes() <
                    lc->index.hot_words().size_bytes() + lc->region.hot_words().size_bytes()) {
      lc->index = std::move(leaf->index);
      lc->region = RegionIndex();
    }
  } else {
    lc->index = CubeIndex(cover.cubes, cover.inputs, max_copies, 2.0, queries, kSmallFrontCubes);
    const bool want_regions =
        RegionIndex::applies_to(lc->encoding) &&
        (regions == RegionPolicy::Always ||
         (regions == RegionPolicy::Auto && lc->index.leaf_blocks_per_query(queries) > kRegionLeafBlocks));
    if (want_regions) {
      // Front misses go to the regions, so they need not hold what the front line answers. A cover
      // too diffuse for the directory (built() false) keeps its tree.
      lc->region = RegionIndex(cover.cubes, lc->encoding, lc->canon, lc->index.front_cubes(), std::nullopt,
                               cover.implied, 0, std::nullopt, threads, free_positions());
      if (lc->region.built()) lc->index.drop_tree();
    }
  }
  // The rule's draws that the regions leave to the evasion search are answered by it alone.
  if (freed && lc->region.built() && lc->region.evasions() == CheckEvasions::Searched && !draws.empty()) {
    const RegionIndex& region = lc->region;
    const std::vector<uint32_t> left =
        rule_draws_left(draws, *freed, [&](uint64_t index) { return region.searched(index); });
    if (left.size() < draws.size()) {
      auto kept = RuleDraws::build(left, b.pieces());
      if (!kept) return Error{"cover of " + b.name() + ": " + kept.error().message};
      lc->rules = std::move(*kept);
    }
  }
  lc->index_build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  lc->file = std::move(cover);
  lc->file.cubes.shrink_to_fit();
  return lc;
}

void CoverProber::insert(std::unique_ptr<LoadedCover> lc) {
  const int key = material_key(lc->file.balance);  // build() checked it
  if (slot_of_key_[size_t(key)] >= 0) {
    covers_[size_t(slot_of_key_[size_t(key)])] = std::move(lc);
  } else {
    slot_of_key_[size_t(key)] = int16_t(covers_.size());
    covers_.push_back(std::move(lc));
  }
}

void CoverProber::rebuild_material_hash() {
  // Every index's hot words in one huge-page arena: a probe touches one balance's front line and
  // at most one leaf, and the balances' own arrays, mostly far below 2 MiB, would each take 4 KiB
  // TLB entries, a TLB miss on most probes. Each index starts on a cache line. The old arena
  // lives until every index has moved out of it.
  // Covers opened from a layout file keep their hot words where the file is mapped: shared
  // between processes, and nothing to copy on open.
  size_t total = 0;
  for (const auto& c : covers_)
    if (!c->from_layout())
      total += (c->index.hot_words().size() + 7) / 8 * 8 + (c->region.hot_words().size() + 7) / 8 * 8;
  HugeArray arena(total);
  size_t at = 0;
  for (const auto& c : covers_) {
    const auto words = c->index.hot_words();
    if (words.empty() || c->from_layout()) continue;  // no index (kNoIndex), or in its mapping
    std::copy(words.begin(), words.end(), arena.data() + at);
    c->index.use_hot_words(arena.data() + at);
    at += (words.size() + 7) / 8 * 8;
  }
  for (const auto& c : covers_) {
    const auto words = c->region.hot_words();
    if (words.empty() || c->from_layout()) continue;
    std::copy(words.begin(), words.end(), arena.data() + at);
    c->region.use_hot_words(arena.data() + at);
    at += (words.size() + 7) / 8 * 8;
  }
  arena_ = std::move(arena);

  auto entry_for = [&](size_t slot, bool flip) {
    const LoadedCover& lc = *covers_[slot];
    const Balance& b = lc.file.balance;
    const Encoding& enc = lc.encoding;
    HotEntry e;
    e.key = (flip ? b.flipped() : b).material_key();
    e.k = uint8_t(enc.pieces());
    e.stm_xor = flip;
    e.square_xor = flip ? kFlipRank : 0;
    const CanonScheme scheme = lc.canon.scheme();
    e.swap_colors = scheme == CanonScheme::Full && b.is_symmetric();
    e.mode = scheme == CanonScheme::None ? 0 : b.has_pawns() ? 1 : 2;
    for (int i = 0; i < e.k; ++i) {
      const Piece pc = enc.piece(i);
      e.order[size_t(i)] = uint8_t(flip ? (pc + kPieceTypes) % kPieces : pc);
      e.nth[size_t(i)] = uint8_t(i > 0 && enc.piece(i - 1) == pc ? e.nth[size_t(i - 1)] + 1 : 0);
    }
    // Five pieces need at most three exchanges (KRRRvK; KRRvKR needs one).
    const RunExchanges runs = run_exchanges(enc);
    e.exchanges = uint8_t(std::min(runs.count, RunExchanges::kMax));
    for (int x = 0; x < e.exchanges; ++x)
      for (int side = 0; side < 2; ++side)
        e.exchange_shift[size_t(x)][size_t(side)] = uint8_t(square_shift(e.k, runs.pairs[size_t(x)][size_t(side)]));
    e.sort_pair12 = e.k == 4 && runs.count == 1 && runs.pairs[0] == std::array<uint8_t, 2>{1, 2};
    if (e.k == 4 && runs.count > 0 && !e.sort_pair12)
      throw std::logic_error("cover prober: a four-piece balance with identical pieces other than slots 1 and 2");
    e.cover = uint16_t(slot);
    e.index = lc.index.hot();
    if (lc.region.built()) e.region = lc.region.hot();
    e.rule_draws = lc.rules.hot();
    e.kind = lc.file.kind;
    e.evasions = lc.region.evasions();
    e.implied = uint8_t(lc.file.implied);
    return e;
  };
  // Every key probe() finds directly first, then the colour-swapped ones; the first entry of a
  // key wins (symmetric balances are their own colour swap), as in probe().
  std::vector<HotEntry> entries;
  for (int flip = 0; flip < 2; ++flip)
    for (size_t slot = 0; slot < covers_.size(); ++slot) {
      HotEntry e = entry_for(slot, flip);
      if (std::none_of(entries.begin(), entries.end(), [&](const HotEntry& o) { return o.key == e.key; }))
        entries.push_back(e);
    }
  hash_bits_ = kMinHashBits;
  while ((size_t{1} << hash_bits_) < 2 * entries.size()) ++hash_bits_;
  const size_t slots = size_t{1} << hash_bits_;
  std::vector<uint64_t> keys;
  for (const HotEntry& e : entries) keys.push_back(e.key);
  hash_mul_ = best_key_multiplier(keys, hash_bits_);
  hot_.assign(slots, HotEntry{});
  hot_.shrink_to_fit();
  for (const HotEntry& e : entries)
    for (size_t h = hot::key_hash(e.key, hash_mul_, hash_bits_);; h = (h + 1) & (slots - 1))
      if (hot_[h].key == hot::kNoKey) {
        hot_[h] = e;
        break;
      }
}

namespace {

// Whether a load keeps to the default index, the one a layout holds.
bool stored_index(CoverProber::LayoutPolicy layouts, double max_copies, RegionPolicy regions) {
  return layouts != CoverProber::LayoutPolicy::Rebuild && max_copies == CoverProber::kDefaultCopies &&
         regions == RegionPolicy::Auto;
}

}  // namespace

Result<std::unique_ptr<LoadedCover>> CoverProber::open_stored(const fs::path& cover_path, double max_copies,
                                                              RegionPolicy regions, LayoutPolicy layouts) {
  auto b = Balance::parse(cover_path.stem().string());
  const bool stored = stored_index(layouts, max_copies, regions);
  auto of_this_balance = [&](Result<std::unique_ptr<LoadedCover>>& from) {
    return from && (!b || (*from)->file.balance == *b);
  };
  std::error_code ec;
  if (!fs::exists(cover_path, ec)) {
    // The layout alone (probeable_covers): its checksum is the check, and its index is all there is.
    const fs::path layout = layout_path(cover_path);
    if (!fs::exists(layout, ec)) return Error{"cannot read: no such file"};
    if (!stored)
      return Error{"only its probe layout " + layout.filename().string() +
                   " is on disk, which holds the default index: rebuilding it, or another index, needs the "
                   "cover file"};
    auto from = open_layout(layout, std::nullopt, {});
    if (!from) return from.error();
    if (!of_this_balance(from))
      return Error{layout.filename().string() + ": the layout of " + (*from)->file.balance.name() + ", not of " +
                   cover_path.stem().string()};
    return from;
  }
  if (!stored) return std::unique_ptr<LoadedCover>();
  auto id = cover_identity(cover_path);
  if (!id) return id.error();
  // The layout file when it is this cover's: the usual case, and opening maps it.
  if (auto from = open_layout(layout_path(cover_path), *id, cover_path); of_this_balance(from)) return from;
  return std::unique_ptr<LoadedCover>();
}

Result<std::unique_ptr<LoadedCover>> CoverProber::load(const fs::path& cover_path, double max_copies,
                                                       RegionPolicy regions, LayoutPolicy layouts, int threads) {
  if (auto from = open_stored(cover_path, max_copies, regions, layouts); !from || *from) return from;
  return build_and_store(cover_path, max_copies, regions, layouts, threads);
}

Result<std::unique_ptr<LoadedCover>> CoverProber::build_and_store(const fs::path& cover_path, double max_copies,
                                                                  RegionPolicy regions, LayoutPolicy layouts,
                                                                  int threads) {
  // The index built from the cover, its layout stored for next time (a read-only data directory
  // just builds every time).
  auto b = Balance::parse(cover_path.stem().string());
  const bool stored = stored_index(layouts, max_copies, regions);
  auto id = cover_identity(cover_path);
  if (!id) return id.error();
  auto c = store::load_cover(cover_path, b ? &*b : nullptr);
  if (!c) return c.error();
  // A capture-resolved cover's regions leave to its search what the search decides (the covers
  // it reaches lie beside it, under DATA/covers). Without them the regions answer as the cover
  // does: exact, but larger, so that layout is not stored, or it would stand for the smaller one.
  const fs::path data_dir = cover_path.parent_path().parent_path();
  bool unfreed = false;
  std::optional<RegionFreedom> freedom;
  auto lc = build(std::move(*c), max_copies, regions, threads,
                  [&](const Encoding& enc, const CoverCanon& canon) -> const RegionFreedom* {
                    freedom = capture_freedom(data_dir, enc, canon, threads);
                    unfreed = !freedom;
                    return freedom ? &*freedom : nullptr;
                  });
  if (!lc) return lc.error();
  if (stored && layouts == LayoutPolicy::Use && !unfreed) (void)save_layout(layout_path(cover_path), **lc, *id);
  return lc;
}

Status CoverProber::add_file(const fs::path& cover_path, LayoutPolicy layouts, double max_copies,
                             RegionPolicy regions) {
  auto lc = load(cover_path, max_copies, regions, layouts);
  if (!lc) return Error{cover_path.string() + ": " + lc.error().message};
  insert(std::move(*lc));
  rebuild_material_hash();
  return ok_status();
}

Result<std::unique_ptr<CoverProber>> CoverProber::open(const fs::path& data_dir, double max_copies,
                                                       RegionPolicy regions, int threads, LayoutPolicy layouts,
                                                       store::CoverKind prefer) {
  auto prober = std::make_unique<CoverProber>();
  const fs::path dir = data_dir / "covers";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return prober;  // no covers yet: every probe says so
  // Per balance, the preferred kind's cover where there is one, else the other kind's: both answer
  // every position exactly (a capture-resolved one with its capture search).
  const auto other =
      prefer == store::CoverKind::Standalone ? store::CoverKind::CaptureResolved : store::CoverKind::Standalone;
  // Covers that are on disk as their layouts alone count as there (probeable_covers).
  std::vector<fs::path> files = probeable_covers(dir, prefer, ec);
  const std::vector<fs::path> others = probeable_covers(dir, other, ec);
  if (ec) return Error{dir.string() + ": " + ec.message()};
  std::set<fs::path> preferred;
  for (const fs::path& f : files) preferred.insert(f.stem());
  for (const fs::path& f : others)
    if (!preferred.count(f.stem())) files.push_back(f);
  std::sort(files.begin(), files.end());
  if (auto s = prober->add_files(files, max_copies, regions, threads, layouts); !s) return s.error();
  return prober;
}

Status CoverProber::add_reaching(const fs::path& data_dir, const Balance& b, std::span<const store::CoverKind> kinds,
                                 LayoutPolicy layouts, double max_copies, RegionPolicy regions, int threads) {
  // Which files first (from the names alone, so that they load side by side): the balance's
  // cover, and through each capture-resolved one the balances its search reaches.
  std::vector<fs::path> files;
  std::set<std::string> seen;
  std::vector<Balance> todo{b.canonical()};
  while (!todo.empty()) {
    const Balance next = todo.back();
    todo.pop_back();
    if (!seen.insert(next.name()).second || has(next)) continue;
    for (const store::CoverKind kind : kinds) {
      const fs::path path = store::cover_path(data_dir, next, kind);
      if (!probeable(path)) continue;
      files.push_back(path);
      if (kind == store::CoverKind::CaptureResolved)
        for (const Balance& s : successor_balances(next))
          if (s.pieces() > 1) todo.push_back(s.canonical());
      break;
    }
  }
  return add_files(files, max_copies, regions, threads, layouts);
}

Status CoverProber::add_files(const std::vector<fs::path>& files, double max_copies, RegionPolicy regions, int threads,
                              LayoutPolicy layouts) {
  // Opening layouts and building indexes share nothing: a worker per core takes the next file
  // until none is left. The covers whose index must be built (no current layout) come second: side
  // by side while they outnumber the cores, else one after another on every core, so that one
  // missing layout does not keep a proof waiting on a single core.
  std::vector<std::unique_ptr<LoadedCover>> built(files.size());
  std::vector<std::string> errors(files.size());
  auto keep = [&](size_t i, Result<std::unique_ptr<LoadedCover>> lc) {
    if (lc)
      built[i] = std::move(*lc);
    else
      errors[i] = lc.error().message;
  };
  parallel_for(files.size(), threads, 1, no_progress(),
               [&](uint64_t i, uint64_t, int) { keep(i, open_stored(files[i], max_copies, regions, layouts)); });
  std::vector<size_t> unbuilt;
  for (size_t i = 0; i < files.size(); ++i)
    if (!built[i] && errors[i].empty()) unbuilt.push_back(i);
  const int cores = resolve_threads(threads);
  if (unbuilt.size() >= size_t(cores)) {
    parallel_for(unbuilt.size(), threads, 1, no_progress(), [&](uint64_t k, uint64_t, int) {
      keep(unbuilt[k], build_and_store(files[unbuilt[k]], max_copies, regions, layouts, 1));
    });
  } else {
    for (const size_t i : unbuilt) keep(i, build_and_store(files[i], max_copies, regions, layouts, cores));
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (!built[i]) return Error{files[i].string() + ": " + errors[i]};
    insert(std::move(built[i]));
  }
  rebuild_material_hash();
  return check_capture_successors();
}

Status CoverProber::check_capture_successors() const {
  // A capture-resolved cover is exact only with its capture search, and the search probes the
  // balances captures and promotions reach: without their covers it would answer wrongly.
  if (uncovered_) return ok_status();  // answer_uncovered answers them
  for (const auto& c : covers_) {
    if (c->file.kind != store::CoverKind::CaptureResolved) continue;
    std::string missing;
    for (const Balance& s : successor_balances(c->file.balance))
      if (s.pieces() > 1 && !has(s)) missing += (missing.empty() ? "" : ", ") + s.name();
    if (!missing.empty())
      return Error{c->file.balance.name() +
                   "'s capture-resolved cover needs the covers of the balances its captures "
                   "and promotions reach; missing: " +
                   missing + " (egtmin-cli minimize " + missing + ")"};
  }
  return ok_status();
}

std::optional<Balance> CoverProber::cover_without_cubes() const {
  std::optional<Balance> first;
  for (const auto& c : covers_)
    if (!c->cubes_on_disk() && (!first || c->file.balance.name() < first->name())) first = c->file.balance;
  return first;
}

std::vector<Balance> CoverProber::balances() const {
  std::vector<Balance> out;
  for (const auto& c : covers_) out.push_back(c->file.balance);
  std::sort(out.begin(), out.end());
  return out;
}

size_t CoverProber::region_covers() const {
  return size_t(std::count_if(covers_.begin(), covers_.end(), [](const auto& c) { return c->region.built(); }));
}

size_t CoverProber::memory_bytes(Method m) const {
  size_t total = sizeof(*this) + hot_.capacity() * sizeof(HotEntry);
  if (m == Method::Indexed) total += arena_.memory_bytes();
  for (const auto& c : covers_) {
    total += c->rules.words().size_bytes();
    if (m == Method::Linear) {
      total += c->cubes().capacity() * sizeof(logic::CubeWord);
      continue;
    }
    // Hot words are in arena_, or in the mapped layout file (counted whole: a benchmark's random
    // probes touch every page of it).
    total += c->index.memory_bytes() - c->index.hot_words().size_bytes() + c->region.memory_bytes() -
             c->region.hot_words().size_bytes();
    if (c->from_layout()) total += c->index.hot_words().size_bytes() + c->region.hot_words().size_bytes();
  }
  return total;
}

namespace {
// One cover's resident bytes: the indexes count their own size; their hot words are in the
// prober's arena, or in the mapped layout (counted whole, as memory_bytes does).
size_t resident_of(const LoadedCover& c, bool with_arena_words) {
  size_t total = sizeof(LoadedCover) - sizeof(CubeIndex) - sizeof(RegionIndex);
  total += c.index.memory_bytes() - c.index.hot_words().size_bytes() + c.region.memory_bytes() -
           c.region.hot_words().size_bytes();
  if (c.from_layout() || with_arena_words)
    total += c.index.hot_words().size_bytes() + c.region.hot_words().size_bytes();
  return total + c.cube_bytes() + c.rules.words().size_bytes();
}
}  // namespace

size_t CoverProber::resident_bytes() const {
  size_t total = sizeof(*this) + hot_.capacity() * sizeof(HotEntry) + arena_.memory_bytes() +
                 covers_.capacity() * sizeof(covers_[0]);
  for (const auto& c : covers_) total += resident_of(*c, false);  // arena words counted above
  return total;
}

size_t CoverProber::resident_bytes(const Balance& b) const {
  const LoadedCover* c = lookup(b.canonical());
  return c ? resident_of(*c, true) : 0;
}

Result<CoverAnswer> CoverProber::probe(const Position& pos, Method m, bool name_cube) const {
  std::array<uint8_t, kPieces> counts{};
  for (int pc = 0; pc < kPieces; ++pc) counts[size_t(pc)] = uint8_t(popcount(pos.pieces(Piece(pc))));
  // Covers exist for canonical balances only, so the colouring whose key is found is the one to
  // probe; symmetric balances are canonical as they stand and never swapped.
  int key = material_key(counts);
  bool flip = false;
  if (key < 0 || slot_of_key_[size_t(key)] < 0) {
    std::array<uint8_t, kPieces> swapped{};
    for (int pc = 0; pc < kPieces; ++pc) swapped[size_t((pc + kPieceTypes) % kPieces)] = counts[size_t(pc)];
    key = material_key(swapped);
    flip = true;
    if (key < 0 || slot_of_key_[size_t(key)] < 0) {
      if (uncovered_)
        if (const Wdl v = uncovered_(pos); v != Wdl::Illegal) {
          CoverAnswer out;
          out.wdl = v;
          out.balance = Balance::of(pos).canonical();
          return out;
        }
      return Error{"no cover for " + Balance::of(pos).canonical().name() + " yet (run egtmin-cli minimize " +
                   Balance::of(pos).canonical().name() + ")"};
    }
  }
  const LoadedCover& lc = *covers_[size_t(slot_of_key_[size_t(key)])];

  // The placement in the canonical balance's encoding order, colours swapped and the board
  // mirrored rank-wise when flipping.
  Placement p;
  p.stm = flip ? ~pos.side_to_move() : pos.side_to_move();
  int i = 0;
  for (int pc = 0; pc < kPieces; ++pc) {
    const Piece src = flip ? Piece((pc + kPieceTypes) % kPieces) : Piece(pc);
    const int start = i;
    for (Bitboard b = pos.pieces(src); b;) p.sq[size_t(i++)] = flip ? flip_rank(pop_lsb(b)) : pop_lsb(b);
    // Mirroring reverses rank order: keep identical pieces ascending, as the encoding wants
    // (runs are at most 4 long: an insertion sort, no call).
    if (flip)
      for (int a = start + 1; a < i; ++a)
        for (int b = a; b > start && p.sq[size_t(b - 1)] > p.sq[size_t(b)]; --b)
          std::swap(p.sq[size_t(b - 1)], p.sq[size_t(b)]);
  }

  if ((m == Method::Linear || !lc.indexed()) && !lc.cubes_on_disk())
    return Error{"the linear probe scans the cover's cubes, and " + lc.file.balance.name() +
                 " has only its probe layout on disk (its cover file " + lc.file.balance.name() +
                 std::string(store::cover_extension(lc.file.kind)) + " is not there)"};
  const bool resolved = lc.file.kind == store::CoverKind::CaptureResolved;
  // A layout whose regions leave the positions in check to the evasion search answers those by it
  // alone, whatever the method (the search is exact, and such a region may say anything there).
  if (lc.region.evasions() == CheckEvasions::Searched && pos.in_check(pos.side_to_move()) &&
      lc.region.searched(lc.encoding.encode(lc.canon.canonical(p).placement))) {
    Result<Wdl> searched = search(pos, m, [](const Position& at, const SuccessorValue& value) {
      return evasion_value(at, value);  // its children probed by probe(), which fetches its own
    });
    if (!searched) return searched.error();
    if (*searched != Wdl::Illegal) {
      CoverAnswer out;
      out.wdl = *searched;
      out.naming = CubeNaming::Unnamed;
      out.balance = lc.file.balance;
      out.inputs = lc.file.inputs;
      return with_en_passant(pos, m, out);
    }
  }
  bool negate_white = false;
  uint64_t rep_index = 0;
  const LoadedCover::Found found = lc.find(p, m, negate_white, rep_index, name_cube);
  // A capture-resolved cover storing every output holds no cube for a win a capture reaches: the
  // search below gives it.
  if (found.out == logic::Output::None && !resolved)
    return Error{"no cube of the " + lc.file.balance.name() + " cover contains this position (is it legal?)"};
  CoverAnswer out;
  if (found.out != logic::Output::None) {
    Wdl white = logic::value_of(found.out, lc.rules.contains(rep_index));
    if (negate_white) white = negate(white);
    out.wdl = p.stm == White ? white : negate(white);
  }
  out.cube = found.cube;
  out.naming = found.cube                                                               ? CubeNaming::Named
               : found.out == lc.file.implied && lc.file.implied != logic::Output::None ? CubeNaming::Implied
                                                                                        : CubeNaming::Unnamed;
  out.balance = lc.file.balance;
  out.inputs = lc.file.inputs;

  // A capture-resolved cover gives at most the position's value and leaves the rest to the
  // capture search (table/capture_resolve.hpp): the better of the two is exact.
  if (resolved && out.wdl != Wdl::Win) {
    Result<Wdl> reached = search(pos, m, capture_value);
    if (!reached) return reached.error();
    out.wdl = better(out.wdl, *reached);
    if (out.wdl == Wdl::Illegal)
      return Error{"neither the " + lc.file.balance.name() +
                   " cover nor a capture gives this position a value (is it legal?)"};
  }

  return with_en_passant(pos, m, out);
}

Result<CoverAnswer> CoverProber::with_en_passant(const Position& pos, Method m, CoverAnswer out) const {
  if (pos.ep_square() != NoSquare) {
    // Covers have no en-passant rights: the capture is one more option for the side to move.
    for (const Move& mv : legal_moves(pos)) {
      if (!mv.en_passant) continue;
      auto v = probe(pos.after(mv), m, false);
      if (!v) return v.error();
      out.wdl = better(out.wdl, negate(v->wdl));
    }
  }
  return out;
}

Result<Wdl> CoverProber::search(const Position& pos, Method m,
                                Wdl (*one_ply)(const Position&, const SuccessorValue&)) const {
  std::optional<Error> missing;
  const Wdl best = one_ply(pos, [&](const Position& after) {
    auto v = probe(after, m, false);
    if (!v && !missing) missing = v.error();
    return v ? v->wdl : Wdl::Illegal;
  });
  if (missing) return *missing;
  return best;
}

Wdl CoverProber::capture_value_hot(const Position& pos, Method m) const {
  return capture_value(pos, [&](const Position& after) { return probe_wdl(after, m); });
}

Wdl CoverProber::evasion_value_hot(const Position& pos, Method m) const {
  return evasion_value(
      pos, [&](const Position& after) { return probe_wdl(after, m); },
      [&](const Position& child) { prefetch(child, m); });
}

void CoverProber::prefetch(const Position& pos, Method m) const {
  if (pos.ep_square() != NoSquare) return;  // probed through probe(), which reads more
  if (const HotEntry* e = hot_entry(pos.material_key())) prefetch_hot(pos, *e, m);
}

Result<CoverAnswer> CoverProber::probe_checked(const Position& pos, Method m) const {
  if (auto why = pos.illegal_reason()) return Error{"illegal position: " + *why};
  if (pos.piece_count() > kMaxSupportedPieces)
    return Error{"more than " + std::to_string(kMaxSupportedPieces) + " pieces; covers go up to " +
                 std::to_string(kMaxSupportedPieces)};
  return probe(pos, m);
}

}  // namespace egtmin::probe
