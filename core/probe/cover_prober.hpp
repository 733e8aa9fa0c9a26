// SPDX-License-Identifier: GPL-3.0-or-later
// Probing positions from cover files alone (DATA/covers/*.egtc): position -> canonical balance
// (colours swapped when needed) -> the cover's canonical representative (CoverCanon) -> paper
// index -> minterm -> the first cube containing it -> its output, negated when the representative
// is the colour swap, then seen from the side to move. An en-passant square is resolved by also
// probing the capture, as TableStore::probe_stm does.
//
// Two strategies answer from the same cubes: Linear scans the cover in file order (the paper);
// Indexed walks a CubeIndex (front line, then tree), or for the most diffuse 3-4 piece covers
// the front line, then a RegionIndex. Both are exact: cubes of different outputs never share a care
// position, so any cube containing the representative's minterm carries its value.
#pragma once

#include <array>
#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "chess/balance.hpp"
#include "chess/position.hpp"
#include "logic/cube.hpp"
#include "probe/cube_index.hpp"
#include "probe/region_index.hpp"
#include "probe/rule_draws.hpp"
#include "store/cover_file.hpp"
#include "table/capture_resolve.hpp"  // SuccessorValue, the one-ply searches
#include "table/cover_canon.hpp"
#include "table/encoding.hpp"
#include "table/table.hpp"
#include "util/enum_names.hpp"
#include "util/huge_array.hpp"
#include "util/mapped_file.hpp"
#include "util/result.hpp"

namespace egtmin::probe {

enum class Method : uint8_t { Linear = 0, Indexed = 1 };

// Which covers get a RegionIndex for the indexed method's front misses:
// Auto none whose cubes, front line and one leaf without copies, answer in a few blocks or fit
// the caches (CoverProber::kOneLeafBlocks, kOneLeafCachedBytes), nor a 5-piece cover whose leaf
// answers in a few dozen blocks in fewer bytes than its regions (kOneLeafSmallerBlocks); of the
// others, the 3-4 piece covers whose tree would scan the most leaf blocks per probe (the diffuse
// covers, where a region index answers with fewer reads and its copies pay) and every 5-piece
// cover; Always every cover it applies to (tests); Never none (the tree alone).
enum class RegionPolicy : uint8_t { Never = 0, Auto = 1, Always = 2 };
// As bench probe --index-regions spells them (util/enum_names.hpp).
inline constexpr EnumName<RegionPolicy> kRegionPolicyNames[] = {
    {RegionPolicy::Never, "never"}, {RegionPolicy::Auto, "auto"}, {RegionPolicy::Always, "always"}};
constexpr std::span<const EnumName<RegionPolicy>> enum_names(RegionPolicy) { return kRegionPolicyNames; }
// Method's names (method_name, parse_method) are the probe registry's: probe/probe_methods.hpp.

// One balance's cover, ready to probe.
struct LoadedCover {
  CubeIndex index;     // the front line, and the tree when there is no region index
  RegionIndex region;  // 5-piece covers and the most diffuse 3-4 piece ones: what the front misses
  RuleDraws rules;     // the 50-move rule's draws (in the mapping when opened from a layout)
  // Without its cubes when opened from a layout (cubes() then loads them), and always without its
  // list of the rule's draws, which `rules` holds.
  store::CoverFile file;
  Encoding encoding;
  CoverCanon canon;
  double index_build_seconds = 0;  // 0 when opened from a layout
  MappedFile layout;               // the probe layout file the indexes read, when opened from one

  bool from_layout() const { return layout.size() != 0; }
  // False when opened with CoverProber::kNoIndex: every probe then scans the cubes.
  bool indexed() const { return index.built(); }
  // The cover's cubes (linear probing, find() past the front line of a layout): loaded from the
  // cover file on first use when the cover was opened from its layout, empty if that fails or the
  // layout was opened alone (cubes_on_disk()). Thread-safe.
  const std::vector<logic::CubeWord>& cubes() const;
  // False for a cover opened from its layout alone, its cover file not on disk: then nothing scans
  // its cubes (the linear probe refuses it) and no answer names a cube.
  bool cubes_on_disk() const { return !from_layout() || !cover_path_.empty(); }
  size_t cube_count() const { return from_layout() ? lazy_count_ : file.cubes.size(); }
  // Bytes of the cubes held in memory now (none for a cover opened from its layout until cubes()
  // loads them).
  size_t cube_bytes() const {
    return file.cubes.capacity() * sizeof(logic::CubeWord) + lazy_bytes_.load(std::memory_order_acquire);
  }
  // Opened from a layout: where the cubes are (empty: not on disk), and how many.
  void set_lazy_cubes(const std::filesystem::path& cover_path, uint64_t count) {
    cover_path_ = cover_path;
    lazy_count_ = size_t(count);
  }

  // The output (White's value without the 50-move rule) of the placement's representative and the
  // cube that holds it, whether White's value must be negated, and the representative's index.
  // `p` must be of this (canonical) balance. The index may answer without naming a cube (a
  // region's fallback value, a region cube grown past the cover's, an index read from a layout past
  // its front line): with `name_cube` the cover is then scanned for it (slow at five pieces)
  // unless the value is the implied output, which no cube holds; else `cube` stays 0.
  struct Found {
    logic::Output out = logic::Output::None;
    logic::CubeWord cube = 0;
  };
  Found find(const Placement& p, Method m, bool& negate, uint64_t& rep_index, bool name_cube = true) const;

 private:
  std::filesystem::path cover_path_;
  size_t lazy_count_ = 0;
  mutable std::once_flag lazy_once_;
  mutable std::vector<logic::CubeWord> lazy_cubes_;
  mutable std::atomic<size_t> lazy_bytes_{0};  // of lazy_cubes_, once loaded
};

// What CoverAnswer::cube is: the cube that answered; none, for the value is the cover's implied
// output, which no cube holds; or none, for the cubes were not scanned to name it (not asked for,
// or not on disk: a cover opened from its layout alone).
enum class CubeNaming : uint8_t { Named, Implied, Unnamed };

// One position's answer from the covers.
struct CoverAnswer {
  Wdl wdl = Wdl::Illegal;    // for the side to move
  logic::CubeWord cube = 0;  // the cube that answered (for the position itself, not an ep capture); 0:
                             // not named (LoadedCover::find) or the cover's implied output
  CubeNaming naming = CubeNaming::Unnamed;
  int inputs = 0;   // of that cover, for printing the cube
  Balance balance;  // canonical balance of the cover that answered
};

class CoverProber {
 public:
  // The indexed method's memory budget: cube copies in its leaves per cube of the cover.
  static constexpr double kDefaultCopies = 2.0;
  // A budget below one copy of each cube: no index at all, only the cubes, which every probe then
  // scans (as Method::Linear does, whatever method it asks for). The least memory a cover takes.
  static constexpr double kNoIndex = 0.0;

  CoverProber() { slot_of_key_.fill(-1); }

  // Auto: a region index where the tree scans more than this many leaf blocks per probe, on
  // average over the balance's sampled probes. The 4-piece covers of `minimize --pieces 4`: KPvKP
  // 5.7, KRvKN 4.1, KRvKP 2.9, KNvKP 2.2, KBvKP 0.89, KNPvK 0.75, KBPvK 0.55, KQvKQ 0.55, KRvKB
  // 0.53, KQvKP 0.50, KRvKR 0.29 get one; KQvKR 0.25 and the rest keep their trees. A higher
  // threshold leaves diffuse covers to their long leaves, a lower one gives regions to covers whose
  // trees answer in fewer reads (docs/measured.md).
  static constexpr double kRegionLeafBlocks = 0.25;
  // Auto: the front line and one leaf of the cover's cubes (no copies) instead of a tree or
  // regions where that leaf costs at most this many blocks per probe, on average over the sampled
  // probes. Why: a region index at five pieces copies a cube into every region it spans (3 to 6
  // times) behind a directory of 2^19 regions, so for the covers of a few thousand cubes it is
  // several times their bytes, where a leaf holds each cube once (KQRvKR 471,080 bytes against
  // 163,072, KQQvKP 1,016,960 against 216,768); the probes the front line misses then scan a few
  // blocks of 64 cubes where they read a region. KQRvKR's leaf (1.99 blocks) and KRRvKR's (2.85)
  // probe as fast as their regions (docs/measured.md). Diffuse covers keep their regions (KQQvKQ's
  // leaf would cost 108 blocks, KRNvKR's 1,906). At 3-4 pieces the same choice gives the small and
  // middling covers one leaf in place of a tree of two copies a cube or an 8,192-region directory
  // (KBNvK 47,168 bytes to 14,592): the 2-4-piece capture-resolved layouts 1.76 MB -> 1.50 MB, for
  // about a fifth more time on a standalone 4-piece probe, still a tenth of Fathom's.
  static constexpr double kOneLeafBlocks = 4.0;
  // Or where the one leaf's words take at most this many bytes: they stay in the caches, where a
  // scan of all its blocks is short (KQQvKB: 712 cubes, 12 blocks a probe, the implied win its
  // commonest answer; a little slower than its regions, in 13,824 bytes where they take 131,256;
  // docs/measured.md).
  static constexpr size_t kOneLeafCachedBytes = size_t{64} << 10;
  // At five pieces, a leaf whose probes enter at most this many blocks (those admitting the guide
  // piece's square: CubeIndex::leaf_blocks_per_query) where its words are fewer
  // than the front line's and the regions'. Why: the regions copy a cube into every region it
  // spans behind a directory of 2^19 regions, so the covers of a few tens of thousands of cubes
  // take about twice as many bytes in regions as in one leaf, often more than their Syzygy files
  // (fourteen such covers: 0.51x the regions' bytes, 0.85x Syzygy's where the regions took 1.68x).
  // A scan of up to this many blocks keeps the probe a small fraction of Fathom's time
  // (docs/measured.md).
  static constexpr double kOneLeafSmallerBlocks = 32.0;
  // Covers with more cubes than this are not tried in one leaf: at 64 cubes a block, the probes it
  // misses would scan over a thousand blocks.
  static constexpr size_t kOneLeafMaxCubes = size_t{1} << 16;
  // And its front line at most 4 blocks at five pieces (kSmallFrontCubes at 3-4): a front block's
  // rows are whole squares, about four times a leaf block's bytes, and past the first blocks the
  // leaf answers as fast (KQRvKR and KRRvKR through the capture search, 3 pairs taking turns:
  // 0.141-0.145x Fathom's time with 4 blocks, 0.128-0.147x with 16; layouts 133,888 and 112,128
  // bytes against 163,072 and 141,248).
  static constexpr size_t kOneLeafFrontCubes = 256;
  // A 3-4-piece cover's front line holds at most this many cubes (one block). Why: a front block's
  // rows are whole squares (261 words for 64 cubes at four pieces, 33 bytes a cube, about four
  // times a leaf's), and past the first block the tree or the regions answer as fast: the
  // 2-4-piece capture-resolved layouts take 1.76 MB instead of 1.94 MB with 16 blocks, at the
  // same probe time (docs/measured.md).
  static constexpr size_t kSmallFrontCubes = 64;

  // Use: open each cover from its probe layout file (probe/probe_layout.hpp) when that is the
  // cover's, else build the index and write the layout (default copies and regions only). Rebuild:
  // build every index from its cover and write nothing (benchmarks of the build, other settings).
  // Read: as Use, but never write (a library inside an engine does not write to its tables' directory).
  enum class LayoutPolicy : uint8_t { Use, Rebuild, Read };
  // Loads every cover under data_dir/covers and its index, the covers spread over `threads`
  // threads (0: one per core). Errors name the bad file (the first in name order).
  static Result<std::unique_ptr<CoverProber>> open(const std::filesystem::path& data_dir,
                                                   double max_copies = kDefaultCopies,
                                                   RegionPolicy regions = RegionPolicy::Auto, int threads = 0,
                                                   LayoutPolicy layouts = LayoutPolicy::Use,
                                                   store::CoverKind prefer = store::CoverKind::Standalone);
  // A cover with its index built; touches nothing of the prober, so open() builds several at once.
  // `freedom`: for a capture-resolved cover, what its capture search decides (capture_freedom.hpp),
  // asked for only when regions are built, with the cover's encoding and canon, and kept by the
  // source until build() returns (a layout plans its regions more than once from one search);
  // none, or null, and the regions answer as the cover does.
  using FreedomSource = std::function<const RegionFreedom*(const Encoding&, const CoverCanon&)>;
  static Result<std::unique_ptr<LoadedCover>> build(store::CoverFile cover, double max_copies, RegionPolicy regions,
                                                    int threads = 1, const FreedomSource& freedom = {});
  // One cover file, from its layout or indexed (then its layout written), as open() loads each;
  // an index it builds takes `threads` threads (0: one per core).
  static Result<std::unique_ptr<LoadedCover>> load(const std::filesystem::path& cover_path, double max_copies,
                                                   RegionPolicy regions, LayoutPolicy layouts, int threads = 1);
  // The cover as its current layout holds it, where the settings are the layout's; else null, and
  // load() builds its index.
  static Result<std::unique_ptr<LoadedCover>> open_stored(const std::filesystem::path& cover_path, double max_copies,
                                                          RegionPolicy regions, LayoutPolicy layouts);
  // Adds one cover file as open() would (check --probe opens the one it checks, probe the one it
  // probes).
  Status add_file(const std::filesystem::path& cover_path, LayoutPolicy layouts = LayoutPolicy::Use,
                  double max_copies = kDefaultCopies, RegionPolicy regions = RegionPolicy::Auto);
  // Adds one cover (tests build covers in memory).
  Status add(store::CoverFile cover, double max_copies = kDefaultCopies, RegionPolicy regions = RegionPolicy::Auto);
  // Adds what probing balance b needs, and no more: its cover, of the first kind in `kinds` on disk
  // (a cover whose layout alone is there counts: probeable), and for a capture-resolved cover the
  // covers its capture search reaches, chosen the same way, transitively; covers it has are kept.
  // They load on `threads` threads. Errors name a file that cannot be loaded, or a
  // capture-resolved cover whose search reaches a balance with no cover on disk. Why: proving or
  // probing one balance should neither load every cover under DATA nor fail for a cover it never
  // reaches (open() refuses a whole directory where one capture-resolved cover lacks a successor).
  Status add_reaching(const std::filesystem::path& data_dir, const Balance& b, std::span<const store::CoverKind> kinds,
                      LayoutPolicy layouts = LayoutPolicy::Use, double max_copies = kDefaultCopies,
                      RegionPolicy regions = RegionPolicy::Auto, int threads = 1);

  // Where the prober holds no cover of a position's balance, the value `values` gives it (for the
  // side to move; Illegal: none), instead of an error. Why: a capture-resolved cover's proof may
  // read the balances its search reaches from their tables (run::SuccessorValues::Tables), each
  // of whose covers was proven equal to its table. An engine's prober never sets it.
  void answer_uncovered(SuccessorValue values) { uncovered_ = std::move(values); }

  bool has(const Balance& b) const { return lookup(b.canonical()) != nullptr; }
  // The first cover, in name order, opened from its layout alone (its cubes not on disk, so the
  // linear probe cannot scan them); nothing when every cover has its cubes.
  std::optional<Balance> cover_without_cubes() const;
  const LoadedCover* cover(const Balance& b) const { return lookup(b.canonical()); }
  std::vector<Balance> balances() const;
  // Resident bytes of each method's structures over all covers (the cubes for Linear, the tree and
  // its copies, and the region indexes, for Indexed).
  size_t memory_bytes(Method m) const;
  // Everything the prober holds now: every index structure (mapped layouts counted whole), the
  // cubes held in memory, the 50-move-rule lists and the per-cover bookkeeping. What a user is
  // told the loaded covers take.
  size_t resident_bytes() const;
  // The part of it that is balance b's cover: its index structures (a mapped layout counted whole),
  // its cubes held in memory, its 50-move-rule list and bookkeeping; 0 when the
  // prober has no cover of b. What probing b alone would keep resident.
  size_t resident_bytes(const Balance& b) const;
  // Covers that have a region index.
  size_t region_covers() const;
  // Slots of the material hash: a power of two, at least twice the colourings loaded.
  size_t material_hash_slots() const { return hot_.size(); }

  // The value of a legal position for the side to move. The position is trusted to be legal (the
  // hot path checks nothing but the cover's existence); probe_checked() validates first.
  // `name_cube`: see LoadedCover::find (a benchmark's check needs the value only).
  Result<CoverAnswer> probe(const Position& pos, Method m, bool name_cube = true) const;
  Result<CoverAnswer> probe_checked(const Position& pos, Method m) const;
  // The hot path: the same value as probe(pos, m)->wdl for a legal position, Wdl::Illegal where
  // probe() gives an error. No strings, no Balance: a material hash picks the cover, a per-square
  // table picks the board transform (CoverCanon only when the white king is on a symmetry axis),
  // and the minterm is put together from per-square PCN patterns. En passant goes through probe().
  Wdl probe_wdl(const Position& pos, Method m) const;
  // probe_wdl of positions[0..n) into values[0..n), for callers that hold many positions at once
  // (bulk labelling, checks, the benchmark): the same values, with the waits on memory of
  // consecutive 5-piece probes overlapped instead of taken one after another.
  void probe_wdl_many(const Position* positions, size_t n, Wdl* values, Method m) const;

  struct HotEntry;
  // The entry probe_wdl uses for positions of this material key (Position::material_key()), or null:
  // a caller that picks the cover itself (the engines' library, one prober per balance) probes
  // through probe_hot without hashing again. Valid as long as the prober.
  const HotEntry* hot_entry(uint64_t material_key) const;
  // probe_wdl after its hash: `e` from hot_entry() of this prober, `pos` without en passant.
  Wdl probe_hot(const Position& pos, const HotEntry& e, Method m) const;
  // probe_hot for an entry that is not capture-resolved (no search): `pos` may be any board with
  // side_to_move() and pieces(Piece).
  template <class Pos>
  Wdl probe_standalone(const Pos& pos, const HotEntry& e, Method m) const;
  // Starts the read from memory a probe of `pos` through `e` will wait for (a 5-piece region's
  // cubes; the front line and the region directory are read now) and returns: a search probing
  // several children fetches them all first, so that their waits overlap.
  template <class Pos>
  static void prefetch_hot(const Pos& pos, const HotEntry& e, Method m);
  // Whether the region of `pos` (a position of e's balance, its side to move in check) leaves it
  // to the evasion search, when e.evasions is Searched: then its value is the search's
  // (evasion_value) where the search decides it, whatever the region says.
  template <class Pos>
  static bool evasions_searched(const Pos& pos, const HotEntry& e);

 private:
  // The cover's index built from its file, its layout written where `layouts` and the settings let it.
  static Result<std::unique_ptr<LoadedCover>> build_and_store(const std::filesystem::path& cover_path,
                                                              double max_copies, RegionPolicy regions,
                                                              LayoutPolicy layouts, int threads);
  // A one-ply search of the core's (capture_value: the best value a capture or promotion reaches
  // for the side to move of a capture-resolved cover's position, Illegal when none; evasion_value)
  // with its children probed through this prober; an error names a child it has no cover for.
  Result<Wdl> search(const Position& pos, Method m, Wdl (*one_ply)(const Position&, const SuccessorValue&)) const;
  // `out` (the position's value without en-passant rights) bettered by its en-passant captures.
  Result<CoverAnswer> with_en_passant(const Position& pos, Method m, CoverAnswer out) const;
  // Every capture-resolved cover has the covers its capture search probes; an error names them.
  Status check_capture_successors() const;
  Wdl capture_value_hot(const Position& pos, Method m) const;
  // The evasion search (evasion_value) with its children fetched, then probed, through this prober.
  Wdl evasion_value_hot(const Position& pos, Method m) const;
  // prefetch_hot through the entry of the position's material, if it has one.
  void prefetch(const Position& pos, Method m) const;
  // Balances are found through a key made from the non-king pieces in encoding order (at most 3
  // for 5-piece covers, 4 bits each), so the hot path does no map lookups.
  static int material_key(const std::array<uint8_t, kPieces>& counts);
  static int material_key(const Balance& b);
  const LoadedCover* lookup(const Balance& b) const;

  // Takes a built cover without the rebuild: open() adds every cover, then builds the arena and
  // hash once (rebuilding per cover would copy every index loaded so far again).
  void insert(std::unique_ptr<LoadedCover> lc);
  void rebuild_material_hash();
  // Loads the files side by side, adds them, rebuilds the hash once and checks the successors.
  Status add_files(const std::vector<std::filesystem::path>& files, double max_copies, RegionPolicy regions,
                   int threads, LayoutPolicy layouts);

 public:
  // One colouring of one cover as probe_wdl sees it: everything it reads after the material hash,
  // in two cache lines, so the hot path follows no pointers before the index's own arrays.
  struct HotEntry {
    uint64_t key = ~uint64_t{0};     // Position::material_key() of this colouring; ~0: empty slot
    uint8_t k = 0;                   // pieces
    uint8_t stm_xor = 0;             // 1 when probing the colour-swapped balance
    uint8_t square_xor = 0;          // 56 then: ranks mirrored
    uint8_t swap_colors = 0;         // the `full` scheme on a symmetric balance
    uint8_t mode = 0;                // board symmetries: 0 none, 1 left-right mirror, 2 all eight
    std::array<uint8_t, 5> order{};  // Piece of each encoding slot, in the position's colours
    std::array<uint8_t, 5> nth{};    // the slot's rank within its run of identical pieces
    // Five pieces: identical pieces are put in ascending order by compare-exchanges of adjacent
    // slots (a bubble sort of each run), given as the bit positions of the two slots' fields in the
    // packed index; the first `exchanges` entries are the balance's.
    std::array<std::array<uint8_t, 2>, 3> exchange_shift{};
    uint8_t exchanges = 0;
    // Four pieces have at most the pair (1, 2) (KXXvK): then 1, sorted with fixed shifts.
    uint8_t sort_pair12 = 0;
    uint16_t cover = 0;  // position in covers_
    CubeIndex::Hot index;
    RegionIndex::Hot region;  // not present(): the tree answers front misses
    // The cover's 50-move-rule draws (RuleDraws::hot()); null when it has none.
    const uint64_t* rule_draws = nullptr;
    // Capture-resolved: the cover leaves positions a capture reaches to the search.
    store::CoverKind kind = store::CoverKind::Standalone;
    // Searched: its regions leave the positions in check that the evasion search decides to it.
    CheckEvasions evasions = CheckEvasions::Stored;
    uint8_t implied = 0;  // the cover's implied output (store::CoverFile::implied)
  };

 private:
  std::array<int16_t, 4096> slot_of_key_{};
  // Open addressing on the material key, with a multiplier chosen so that the loaded keys do not
  // collide. Sized by the colourings loaded (at most half full), since every entry is two cache
  // lines a prober keeps resident: the 2-4-piece set's 66 colourings take 256 slots.
  static constexpr int kMinHashBits = 4;
  int hash_bits_ = kMinHashBits;
  std::vector<HotEntry> hot_ = std::vector<HotEntry>(size_t{1} << kMinHashBits);
  uint64_t hash_mul_ = 0x9E3779B97F4A7C15ull;  // chosen by rebuild_material_hash
  std::vector<std::unique_ptr<LoadedCover>> covers_;
  SuccessorValue uncovered_;  // answer_uncovered's
  HugeArray arena_;           // every index's hot words (CubeIndex::hot_words)
};

}  // namespace egtmin::probe

#include "probe/hot_probe.hpp"  // CoverProber::probe_wdl
