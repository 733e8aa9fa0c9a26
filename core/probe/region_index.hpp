// SPDX-License-Identifier: GPL-3.0-or-later
// The indexed probe's miss path (every 5-piece cover, the diffuse 3-4 piece ones): per region (side
// to move and the squares of two chosen pieces, three at five pieces), a fallback value and a
// short list of cubes, grown from the cover's, that together hold every position a probe can ask for there.
//
// Why: the cover's cubes are products over the inputs, and the covers that probes miss most
// (KRvKN, the pawn balances with a piece on the other side) have every input a don't-care in
// a large share of their cubes. A decision tree over such a cover cannot split without copying most
// of it, so its leaves stay long and a probe that missed the front line scans many blocks of them
// behind a chain of dependent loads. Fixing the side to move and two pieces' squares
// instead (a region: at most 8,192 per 4-piece balance, of 4,096 placements of the other two
// pieces) and keeping only the cubes a greedy set cover needs for the region's positions leaves
// tens of cubes per region: a probe reads one directory block and the region's first cubes, at
// addresses it computes from the squares.
//
// Which pieces: a cube spans every region whose fixed squares it admits, and the covers' cubes
// pin some pieces and leave others free, so the choice decides the copies (KNvKP: 12.5 per cube of
// the cover with both kings fixed, 2.7 with knight and pawn; KRvKN: 4.1 and 3.3 with White's king
// and the knight). The build tries every choice and keeps the smallest index.
//
// What a region must answer: every legal representative placement (CoverCanon), except those the
// front line already answers (probes never get past it) and, for a capture-resolved cover, those
// its capture search decides (RegionFreedom). The region's most common value among
// them is its fallback; its positions of other values get cubes. A cover that leaves an output
// implied has no cube for its positions: a region holding some falls back to it, or, when that
// takes fewer cubes, to its most common value, its implied positions then held by cubes grown from
// them one by one (a lone king's few stalemates would otherwise make every other position of the
// region a cube's). The rest of the region is a don't-care
// there, so each cube is grown within it before the greedy cover picks: the region's cubes are the
// cover's cubes restricted to the region and expanded, row by row and file by file: no longer the
// cover's own, nor even cubes of its inputs. Each is grown twice, either free piece first; the
// greedy cover's cubes that end up holding nothing the others do not are dropped; ESPRESSO's
// reduce and expand then try for fewer (RegionPicking), and the cubes kept are put in the greedy
// order again; and where a region would list its last positions, cubes grown from those positions
// may hold several together, and take their place when the region then takes fewer words. Last,
// each cube's rows and files are settled, within what its region allows, on the values most
// cubes of the layout take (RegionFields), for the framed cubes' coder.
//
// Layout: a region's cubes one after another, each a 32-bit word: the free pieces' squares as
// sets of rows and files, and the output (region_cube). The greedy order puts the cubes that
// answer most first, so most probes end in the region's first 64 cubes, four or five cache lines
// fetched together. Blocks of 32 or 64 cubes bit-sliced by row and file would read six masks and
// more cache lines a probe, and leave the many small regions' blocks half empty
// (docs/measured.md). Directory blocks and cubes are one run of 64-bit words. A region whose last
// cubes hold a position or two each keeps its first cubes and lists the positions they leave
// (region_list.hpp), where that takes fewer words.
//
// Cost: the copies, 1.3-2.1 per cube of the cover at 4 pieces, 3.2-5.6 at five (4 bytes each).
// The prober builds regions at 3-4 pieces only for the covers whose tree misses cost the most
// (CoverProber, RegionPolicy).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <vector>

#include "logic/cube.hpp"
#include "probe/region_frames.hpp"
#include "probe/region_list.hpp"
#include "table/cover_canon.hpp"
#include "table/encoding.hpp"
#include "table/symmetry.hpp"
#include "util/byte_io.hpp"
#include "util/enum_names.hpp"

namespace egtmin::probe {

// When White's king is a fixed slot, its square is first in the region number, and only its
// canonical squares hold positions (10 of 64 without pawns, 32 with): the directory numbers
// those squares alone, cutting it to a sixth or a half. Kings: 0 every square (no
// symmetry, or the king is free), 1 the squares of the left-right mirror's canonical half, 2
// those of the eight board symmetries'.
struct KingSquares {
  std::array<std::array<uint8_t, 64>, 3> id{};  // the square's number among the canonical ones
  std::array<uint32_t, 3> count{};
};
inline constexpr KingSquares kKingSquares = [] {
  KingSquares k;
  for (int mode = 0; mode < 3; ++mode) {
    const int group = mode == 0 ? 1 : mode == 1 ? 2 : 8;
    for (int s = 0; s < 64; ++s) {
      bool canonical = true;
      for (int g = 0; g < group; ++g) canonical = canonical && kTransforms[size_t(g)][size_t(s)] >= s;
      k.id[size_t(mode)][size_t(s)] = uint8_t(canonical ? k.count[size_t(mode)]++ : 0);
    }
  }
  return k;
}();

namespace region_cube {

// A region's cube (RegionIndex): each free piece's squares as a set of rows times a set of files,
// and the output. Why rows and files rather than the cover's six square inputs: a cube of inputs
// holds a subcube of rows times a subcube of files (1, 2, 4 or 8 of each, aligned), while the
// patterns of a region's values are intervals and neighbourhoods (a rook's line up to a blocker,
// the squares next to a king), which one set of rows times a set of files holds and subcubes need
// up to four cubes for. Grown the same way within the region, these cubes are far fewer
// (docs/measured.md).
//
// The word has four fields, high bits first: the first free piece's rows, its files, the second
// piece's rows, its files. A field is a set (8 bits, bit e: row or file e), except the one the
// index names (Hot::subcube), a subcube of the three bits as PCN pairs (6 bits), so that two
// pieces and the output fit 32 bits: fields in bits 0-29, the output in bits 30-31. With one free
// piece (3 pieces) both its fields are sets (kNoSubcube). A probe builds the same bits from its
// free pieces' squares (one bit per set field, one pair per subcube bit) and tests 16 cubes at a
// time (AND, compare, one mask): a cube holds the probe when every bit of the probe's is in the
// cube's.
inline constexpr int kOutputShift = region_list::kOutputShift;  // a list's header shares the field
inline constexpr uint8_t kNoSubcube = 4;
// The width of field f (0-3) when field `subcube` is the subcube one, and its lowest bit.
constexpr int field_width(int f, int subcube) { return f == subcube ? 6 : 8; }
constexpr int field_shift(int f, int subcube) {
  int top = kOutputShift;
  for (int i = 0; i <= f; ++i) top -= field_width(i, subcube);
  return top;
}
// The bits row or file `e` puts in a field: one of a set's, or three PCN pairs (01 for a 1 bit,
// 10 for a 0 bit, the most significant first).
constexpr uint32_t field_code(uint32_t e, bool subcube) {
  if (!subcube) return 1u << e;
  uint32_t pairs = 0;
  for (unsigned bit = 0; bit < 3; ++bit) pairs |= (e >> (2 - bit) & 1 ? 1u : 2u) << (4 - 2 * bit);
  return pairs;
}
// The query's bits for free piece `piece` (0 or 1) on each square, per subcube field choice.
inline constexpr std::array<std::array<std::array<uint32_t, 64>, 2>, 5> kQueryBits = [] {
  std::array<std::array<std::array<uint32_t, 64>, 2>, 5> t{};
  for (int sub = 0; sub <= kNoSubcube; ++sub)
    for (int piece = 0; piece < 2; ++piece)
      for (uint32_t sq = 0; sq < 64; ++sq) {
        const int rows = 2 * piece, files = rows + 1;
        if (sub == kNoSubcube && piece == 1) continue;  // one free piece
        t[size_t(sub)][size_t(piece)][sq] = field_code(sq >> 3, rows == sub) << field_shift(rows, sub) |
                                            field_code(sq & 7, files == sub) << field_shift(files, sub);
      }
  return t;
}();
// The word of a cube holding the first free piece on rows sets[0] x files sets[1] and the second
// on rows sets[2] x files sets[3] (one free piece: sets[0] and sets[1] only), with output `out`.
// The subcube field's set must be a subcube (PCN pairs hold the smallest subcube around a set).
constexpr uint32_t word(const std::array<uint32_t, 4>& sets, int nfree, int subcube, unsigned out) {
  uint32_t w = out << kOutputShift;
  for (int f = 0; f < 2 * nfree; ++f)
    for (uint32_t x = sets[size_t(f)]; x; x &= x - 1)
      w |= field_code(uint32_t(std::countr_zero(x)), f == subcube) << field_shift(f, subcube);
  return w;
}
// The first field's bits (the first free piece's rows, or its subcube): a list's header has them
// empty, which no cube has (region_list.hpp).
constexpr uint32_t header_field(int subcube) {
  return ((1u << field_width(0, subcube)) - 1) << field_shift(0, subcube);
}
// The output of a cube's word (logic::Output's number).
[[gnu::always_inline]] constexpr uint32_t output(uint32_t word) { return (word >> kOutputShift) & 3; }
}  // namespace region_cube

// What a capture-resolved cover's probe decides without its regions (table/capture_resolve.hpp),
// as bitmaps over the encoding's indices (bit i: index i; empty: nothing): `capture_wins`, the
// positions where a capture or promotion wins for the side to move, whose answer the capture
// search gives whatever a region says; `capture_draws`, where the best a capture reaches is a draw
// or cursed win: a region may answer those with anything but the side to move's win, unless the
// cover gives them that win (then the position is a win the search alone falls short of). Why: a
// region's cubes grow over these positions as over illegal ones, and its fallback need not hold
// them, which leaves the regions of the balances captures decide much of with about half the
// cubes (docs/measured.md).
// A position left to the evasion search costs each probe of it a probe of each of its moves
// (about four), where the region that answers it needs no more reads, and the bytes those
// positions cost the regions are unevenly spread: KRPvKR's regions that spare the most bytes per
// such position hold 70 % of what all spare with 46 % of the positions. A region therefore
// leaves them to the search only where that spares it at least this many bytes per thousand of
// them (docs/measured.md).
inline constexpr uint32_t kEvasionSearchMinBytesPerThousand = 40;
// Where no form of a layout so made comes within its ceiling (probe_layout.hpp: LayoutBytes), its
// regions are planned again leaving them to the search wherever that spares any bytes: the
// ceiling is the bytes the user asked for, and a slower probe of positions in check is the price.
inline constexpr uint32_t kEvasionSearchMinBytesPerThousandOverCeiling = 0;
// `evasions`: the positions the search of their evasions (evasion_value) gives their values,
// which a region may leave to it; empty for a layout made without the tables. `evasions_missed`:
// those it gives another value (a child's value says nothing of the 50-move counter the move
// carries on, so near the rule's draws a win searched can be a cursed one). A probe of a region
// that leaves its positions to the search searches every one it can, so a region holding a missed
// position answers all of them itself. `min_bytes_per_thousand_searched`: a region leaves its
// positions of `evasions` to the search only where that takes at least this many bytes off its
// cubes per thousand such positions (RegionIndex::searched).
struct RegionFreedom {
  std::vector<uint64_t> capture_wins;
  std::vector<uint64_t> capture_draws;
  std::vector<uint64_t> evasions;
  std::vector<uint64_t> evasions_missed;
  uint32_t min_bytes_per_thousand_searched = kEvasionSearchMinBytesPerThousand;
};

// Whether a layout's regions answer the positions the evasion search decides (Stored), or may
// leave them to it (Searched: where that pays, kEvasionSearchMinBytesPerThousand; a probe of such
// a region searches them first, whatever the method). Searched by default: KRPvKR's layout takes
// 0.76x the bytes, its probes under half of Fathom's time still (docs/measured.md).
enum class CheckEvasions : uint8_t { Stored, Searched };
inline constexpr CheckEvasions kDefaultCheckEvasions = CheckEvasions::Searched;
// As egtmin-cli layouts --check-evasions spells them (util/enum_names.hpp).
inline constexpr EnumName<CheckEvasions> kCheckEvasionsNames[] = {{CheckEvasions::Stored, "stored"},
                                                                  {CheckEvasions::Searched, "searched"}};
constexpr std::span<const EnumName<CheckEvasions>> enum_names(CheckEvasions) { return kCheckEvasionsNames; }

// Whether a region may list the positions its last cubes would hold (region_list.hpp): where that
// takes fewer words, or never (every region all cubes, as layouts before lists had them).
enum class RegionLists : uint8_t { Never, WhereSmaller };

// How a region's cubes are picked: the greedy cover of the grown candidates with its redundant
// cubes dropped, or that cover then improved by ESPRESSO's reduce and expand (each cube cut to what
// only it holds, cut cubes merged where their common cube stays off other values, each grown
// again, the greedy cover taken over those and the cubes before, kept when it takes fewer cubes).
enum class RegionPicking : uint8_t { Greedy, ReduceExpand };

// What a region cube's fields hold: the rows and files it was grown to, or, within what its
// region allows (from the rows and files of the positions it answers first to those), the values
// most of the layout's cubes take. Settled fields answer every position the same and take fewer
// distinct values, which the framed cubes' coder turns into fewer bytes (docs/measured.md).
enum class RegionFields : uint8_t { Grown, Settled };

class RegionIndex {
 public:
  // A region fixes the side to move and the squares of two pieces at 3-4 pieces, three at 5
  // (regions of at most 4,096 placements of the free pieces): 2^13 or 2^19 regions. Each has a
  // fallback, its most common value (or the implied output: above), the answer when no cube
  // matches: only the region's positions of other values need cubes (cubes of different outputs
  // never share a position), which leaves most regions with few cubes or none.
  //
  // The directory comes in blocks of one cache line for 48 regions: the block's first cube (32
  // bits), each region's cubes in units of 2^unit_shift cubes (a byte each; a region's cubes are
  // padded with cubes that match nothing to whole units), and each region's fallback (2 bits). A
  // region's first cube is the block's plus its predecessors' counts. Why: a probe reads the
  // directory, then the region's cubes, and for random positions a directory of 32-bit entries
  // came from memory too, one wait after the other. At 1.3 bytes a region the directory stays in
  // the caches, so only the cubes wait for memory.
  static constexpr int fixed_count(int pieces) { return pieces == 5 ? 3 : 2; }
  static constexpr uint32_t regions_for(int pieces) { return 2u << (kSquareBits * fixed_count(pieces)); }
  static constexpr uint32_t kBlockRegions = 48;
  static constexpr size_t kBlockBytes = 64;
  static_assert(kBlockBytes == RegionFrames::kBlockBytes);
  static constexpr size_t kBlockCounts = 4;      // the counts' offset in a block
  static constexpr size_t kBlockFallbacks = 52;  // the fallbacks' offset (4 to a byte, low bits first)
  static constexpr uint32_t kMaxUnits = 255;
  // A region's cube (region_cube above).
  static constexpr int kOutputShift = region_cube::kOutputShift;
  static constexpr uint8_t kNoSubcube = region_cube::kNoSubcube;
  // Cubes read past a region's end by the scan: the array ends with this many zeros.
  static constexpr size_t kScanPad = 64;
  // The cover's cube a region cube came from, for one grown from the implied output's positions.
  static constexpr uint32_t kNoCoverCube = UINT32_MAX;

  RegionIndex() = default;
  RegionIndex(const RegionIndex&) = delete;
  RegionIndex& operator=(const RegionIndex&) = delete;
  RegionIndex(RegionIndex&&) noexcept = default;
  RegionIndex& operator=(RegionIndex&&) noexcept = default;

  // Whether `enc` has the shape this index needs: 3 to 5 pieces, White's king first, one black king.
  static bool applies_to(const Encoding& enc);
  // Builds from the cover's cubes; `answered`: cubes whose positions never reach this index (the
  // front line). `fixed`: the encoding slots (ascending, fixed_count of them) whose squares (with
  // the side to move) make a region; by default every choice is tried and the smallest index kept.
  // Empty (built() false) when the encoding does not apply, `fixed` is not fixed_count distinct
  // slots in ascending order, or the cubes outgrow the directory's 32-bit places.
  // `min_unit_shift`: directory counts in units of at least 2^min_unit_shift cubes (tests:
  // the padding that covers whose largest region passes 255 cubes get). `subcube`: the cube field
  // held as a subcube (0-3 with two free pieces, kNoSubcube with one; tests), by default the one
  // that needs the fewest cubes. `threads`: the regions planned side by side (the index is the
  // same for any number). `lists`: whether regions may end in a list of positions (RegionLists).
  // `picking`: how a region's cubes are picked (RegionPicking; tests compare the two). `fields`:
  // what their words' fields hold (RegionFields; tests compare the two).
  RegionIndex(std::span<const logic::CubeWord> cubes, const Encoding& enc, const CoverCanon& canon,
              std::span<const logic::CubeWord> answered = {}, std::optional<std::vector<int>> fixed = std::nullopt,
              logic::Output implied = logic::Output::None, uint8_t min_unit_shift = 0,
              std::optional<uint8_t> subcube = std::nullopt, int threads = 1, const RegionFreedom* freedom = nullptr,
              RegionLists lists = RegionLists::WhereSmaller, RegionPicking picking = RegionPicking::ReduceExpand,
              RegionFields fields = RegionFields::Settled);
  // The cube field held as a subcube (Hot::subcube).
  uint8_t subcube() const { return subcube_; }

  bool built() const { return hot_size_ != 0 || frames_ != nullptr; }
  // The pieces of the balance it was built for (0: none).
  int pieces() const { return k_; }
  // The slots the regions fix.
  const std::vector<int>& fixed_slots() const { return fixed_; }
  // Cubes over all regions (copies of the cover's cubes, grown), and the most in one region.
  size_t region_cubes() const { return ids_.size(); }
  // Searched only for a built index some of whose regions leave the positions in check to the
  // search (searched()).
  CheckEvasions evasions() const { return built() ? evasions_ : CheckEvasions::Stored; }
  // Regions that leave their positions the evasion search decides to it (RegionFreedom).
  size_t searched_regions() const;
  size_t largest_region() const { return largest_; }
  // The directory counts cubes in units of 2^unit_shift().
  int unit_shift() const { return unit_shift_; }

  // What the hot path reads, by value.
  struct Hot {
    const uint32_t* dir = nullptr;         // the directory (null: framed, or no region index)
    const uint32_t* cubes = nullptr;       // the regions' cubes, region after region (null: framed)
    const RegionFrames* frames = nullptr;  // the directory and cubes in frames (RegionCubes::Framed)
    uint8_t frame_shift = 0;               // a directory block's frame is its number shifted by this
    uint8_t unit_shift = 0;                // a directory count is of 2^unit_shift cubes
    // Where the fixed slots' squares, then the free slots', sit in the packed squares (slot i at
    // bit square_shift(K, i)).
    std::array<uint8_t, 5> shift{};
    uint8_t kings = 0;             // which squares of White's king the directory numbers (KingSquares)
    uint8_t subcube = kNoSubcube;  // the cube field held as a subcube (region_cube::kQueryBits)
    uint8_t place_bits = 0;        // bits of a place among the free pieces' placements (region_list)
    // A region's first word is its list's header when this field (the first free piece's first
    // one) is empty and the output is not (region_list.hpp); the kept cubes' count is below it.
    uint32_t header_field = 0;
    // One bit a region in directory order: its positions the evasion search decides are left to
    // it (null: none are).
    const uint64_t* searched = nullptr;

    // Whether there is a region index to probe.
    [[gnu::always_inline]] bool present() const { return dir != nullptr || frames != nullptr; }
  };
  Hot hot() const {
    if (!built()) return {};  // neither dir nor frames: no region index (its stored slots may say anything)
    // Framed, the words are the searched regions' bits alone.
    const size_t dir_words = frames_ ? 0 : dir_words_;
    Hot h{frames_ ? nullptr : reinterpret_cast<const uint32_t*>(words_data()),
          frames_ ? nullptr : reinterpret_cast<const uint32_t*>(words_data() + dir_words + searched_words_),
          frames_.get()};
    if (searched_words_) h.searched = words_data() + dir_words;
    if (frames_) h.frame_shift = frames_->block_shift();
    size_t i = 0;
    for (int slot : fixed_) h.shift[i++] = uint8_t(square_shift(k_, slot));
    for (int f = 0; f < k_ - int(fixed_.size()); ++f) h.shift[i++] = uint8_t(square_shift(k_, free_[size_t(f)]));
    h.kings = kings_;
    h.subcube = subcube_;
    h.unit_shift = unit_shift_;
    h.place_bits = uint8_t(region_list::place_bits(k_ - fixed_count(k_)));
    h.header_field = region_cube::header_field(subcube_);
    return h;
  }
  // Directory and cubes, contiguous; a prober copies them into its huge-page arena and calls
  // use_hot_words with the copy (which must outlive the index or the next call).
  std::span<const uint64_t> hot_words() const { return {words_data(), words_size()}; }
  void use_hot_words(const uint64_t* copy) {
    words_at_ = copy;
    words_.clear();
    words_.shrink_to_fit();
  }

  // Where a probe's answer lies: its region's cubes, and the query bits they are matched against.
  struct Query {
    uint32_t first;     // the region's first word
    uint32_t count;     // its words (a header, cubes and a list, or cubes alone)
    uint32_t pairs;     // the free pieces' squares as a region's cube has them (region_cube::kQueryBits)
    uint32_t fallback;  // the value when no cube matches (0: none)
    uint32_t place;     // the free pieces' squares as a place of the region's list (region_list)
    uint32_t frame;     // the frame of its cubes (RegionCubes::Framed)
  };
  // The query of a placement: the region's directory block read. `packed`: the representative's
  // squares in encoding order as an index has them (slot i at bit square_shift(K, i)), which a 5-piece
  // probe makes anyway. Made once per probe: the prober starts fetching the region's cubes
  // (prefetch) before it scans the rest of the front line, then matches them (find_output).
  // The slots are fixed per balance, but balances alternate at random: shifts, not branches.
  template <int K>
  [[gnu::always_inline]] static Query locate(const Hot& h, uint32_t stm, uint32_t packed) {
    auto at = [&](int i) { return (packed >> h.shift[size_t(i)]) & kSquareMask; };
    constexpr int kFixed = fixed_count(K);
    const uint32_t r = number<K>(h, stm, packed);
    const uint32_t b = r / kBlockRegions, i = r - b * kBlockRegions;
    const uint8_t* block =
        h.dir ? reinterpret_cast<const uint8_t*>(h.dir) + size_t(b) * kBlockBytes : h.frames->block(b);
    const uint32_t base = block_first_cube(block);
    const uint32_t before = units_before(block + kBlockCounts, i);
    const uint32_t fallback = block_fallback(block, i);
    const auto& bits = region_cube::kQueryBits[h.subcube];
    uint32_t pairs = bits[0][at(kFixed)], place = at(kFixed);
    if constexpr (K - kFixed == 2) pairs |= bits[1][at(kFixed + 1)], place = place << kSquareBits | at(kFixed + 1);
    return {base + (before << h.unit_shift),
            block_units(block, i) << h.unit_shift,
            pairs,
            fallback,
            place,
            b >> h.frame_shift};
  }

  // The region's number in the directory: side to move, White's king numbered among its
  // canonical squares when it is the first fixed slot (Hot::kings), the other fixed squares.
  template <int K>
  [[gnu::always_inline]] static uint32_t number(const Hot& h, uint32_t stm, uint32_t packed) {
    static_assert(K >= 3 && K <= 5);
    auto at = [&](int i) { return (packed >> h.shift[size_t(i)]) & kSquareMask; };
    uint32_t r = stm * kKingSquares.count[h.kings] + kKingSquares.id[h.kings][at(0)];
    for (int i = 1; i < fixed_count(K); ++i) r = r << kSquareBits | at(i);
    return r;
  }
  // Whether the placement's region leaves the positions the evasion search decides to it (then
  // its cubes may say anything there).
  template <int K>
  [[gnu::always_inline]] static bool searched(const Hot& h, uint32_t stm, uint32_t packed) {
    if (!h.searched) return false;
    const uint32_t r = number<K>(h, stm, packed);
    return h.searched[r >> 6] >> (r & 63) & 1;
  }
  // The same for an index of the encoding.
  bool searched(uint64_t index) const;

  // The region's words: in place, or in its frame, decoded (unless this thread just did).
  [[gnu::always_inline]] static const uint32_t* region_words(const Hot& h, const Query& q) {
    if (h.frames) [[unlikely]]
      return h.frames->cubes(q.frame, q.first);
    return h.cubes + q.first;
  }

  // Starts fetching the region's first 64 cubes, which find_output will read (framed cubes are
  // fetched as their frame is decoded).
  [[gnu::always_inline]] static void prefetch(const Hot& h, const Query& q) {
    if (h.frames) [[unlikely]]
      return;
    const uint32_t* c = h.cubes + q.first;
    __builtin_prefetch(c);
    __builtin_prefetch(c + 16);
    __builtin_prefetch(c + 32);
    __builtin_prefetch(c + 48);
    __builtin_prefetch(c + 63);
  }

  // A region's words: where its cubes end (1 + the kept cubes after a list's header, else all its
  // words), which the scan must not pass: a list's words could look like cubes that match.
  [[gnu::always_inline]] static uint32_t cubes_end(const Hot& h, const uint32_t* c, uint32_t n) {
    const uint32_t w0 = c[0];  // read even when n is 0: the array ends with kScanPad zeros
    const bool header = (w0 & h.header_field) == 0 && region_cube::output(w0) != 0;
    return header ? std::min(n, 1 + region_list::kept_cubes(w0)) : n;
  }
  // Past the kept cubes: the region's list, if it has one, else the fallback.
  [[gnu::always_inline]] static logic::Output after_cubes(const Hot& h, const Query& q, const uint32_t* c,
                                                          uint32_t end) {
    if (end < q.count) [[unlikely]]
      if (const uint32_t v = region_list::find(c[0], c + end, q.count - end, q.place, h.place_bits, q.fallback))
        return logic::Output(v);
    return logic::Output(q.fallback);
  }
  // The output of a cube of the query's region holding its placement, else its list's value for
  // it, else the region's fallback (Output::None when the region has none).
  [[gnu::always_inline]] static logic::Output find_output(const Hot& h, const Query& q) {
    const uint32_t* c = region_words(h, q);
    const uint32_t n = cubes_end(h, c, q.count);
    // The first 64 cubes in one step: the branch on their matches waits for the region's first
    // cache lines from L3, and a mispredicted one throws away the work on the probes after this
    // one, so it should rarely go the other way: the greedy order puts the cubes that answer most
    // first, and 64 of them answer nearly every region probe (16 or 32 at once: docs/measured.md).
    uint64_t hits = uint64_t(match16(c, q.pairs)) | uint64_t(match16(c + 16, q.pairs)) << 16 |
                    uint64_t(match16(c + 32, q.pairs)) << 32 | uint64_t(match16(c + 48, q.pairs)) << 48;
    if (n < 64) hits &= (uint64_t{1} << n) - 1;  // the rest is the next region's
    if (hits) [[likely]]
      return logic::Output(region_cube::output(c[lowest_bit(hits)]));
    for (uint32_t j = 64; j < n; j += 16) {
      uint32_t more = match16(c + j, q.pairs);
      if (n - j < 16) more &= (1u << (n - j)) - 1;
      if (more) return logic::Output(region_cube::output(c[j + uint32_t(lowest_bit(more))]));
    }
    return after_cubes(h, q, c, n);
  }
  // The same from the representative's squares in encoding order.
  template <int K>
  static logic::Output find_output(const Hot& h, uint32_t stm, const std::array<uint32_t, K>& sq) {
    uint32_t packed = 0;
    for (int i = 0; i < K; ++i) packed = packed << kSquareBits | sq[size_t(i)];
    return find_output(h, locate<K>(h, stm, packed));
  }

  // For a probe layout file, as CubeIndex's: the state without the hot words and the cubes'
  // places in the cover, read back into an empty index, which then uses the stored hot words in
  // place (checked: the directory must stay inside the cubes). An index read back has no find():
  // it gives 0, and the caller scans the cover.
  void save_state(ByteWriter& w) const;
  void load_state(ByteReader& r);
  // `frames`: the directory and cubes, framed (then `hot_words` are the searched regions' bits
  // alone); checked as the plain ones are.
  bool attach_hot_words(std::span<const uint64_t> hot_words, std::unique_ptr<RegionFrames> frames = nullptr);

  // What a framed layout stores (RegionCubes::Framed): the searched regions' bits, and the frames
  // of the directory and cubes (RegionFrames::encode), each region's cubes in ascending order: any
  // order answers the same (cubes of different outputs share no position a region must answer), and
  // sorted they take fewer bytes coded (KBNvKQ's frames 0.98x: docs/measured.md), where the plain
  // form keeps the order that answers most probes soonest. Only of an index built in memory.
  std::span<const uint64_t> framed_hot_words() const {
    if (frames_) return {};
    return {words_data() + dir_words_, searched_words_};
  }
  std::vector<uint64_t> framed_words(Framing framing) const;
  // Whether the cubes are framed, and the frames' stored bytes (0: plain).
  bool framed() const { return frames_ != nullptr; }
  size_t frames_bytes() const { return frames_ ? frames_->bytes() : 0; }

  // The hot path's answer for an index of the encoding (find_output with the layout known only at
  // run time).
  logic::Output output(uint64_t index) const;
  // How the index's region answers it (egtmin_probe_study --answers): the region's cube count,
  // the place of the first of them that holds the index (-1: none, the fallback answers), and,
  // for the fallback, whether some cube of the region holds the first free piece on its square
  // (the second piece anywhere) and the same for the second: a per-region set of the free pieces'
  // squares would let a probe answer the fallback without reading the cubes only where one is false.
  struct Answer {
    uint32_t region_cubes = 0;
    int cube = -1;
    bool first_square_held = false, second_square_held = false;
  };
  Answer answer(uint64_t index) const;
  // A cube of the cover holding the index, among those the region's cubes were grown from, in the
  // hot path's order (0 when none of them holds it: the region's fallback answered, a region cube
  // that grew answered, or an index read back); `cubes`: the cover the index was built from. For a
  // legal representative the cube's output is the hot path's answer.
  logic::CubeWord find(uint64_t index, std::span<const logic::CubeWord> cubes) const;

  // The positions a region of White's and Black's kings has to answer before the front line takes
  // its share: the legal representatives with this side to move and kings, as a bitmap over the
  // other pieces' squares, in slot order: with one, one word (bit = square); with two, bit f of
  // word w for the first on w and the second on f; with three, bit f of word 64 u + w for them on
  // u, w and f. Empty when the region holds none. Exposed for tests (the brute force is
  // Encoding::is_legal and CoverCanon::is_representative on every placement).
  static std::vector<uint64_t> care(const Encoding& enc, const CoverCanon& canon, uint32_t stm, int wk, int bk);
  // The same for every pair of kings, as one bitmap in index order (bit i of word w: index 64 w + i).
  static std::vector<uint64_t> care_bitmap(const Encoding& enc, const CoverCanon& canon);

  size_t memory_bytes() const {
    return (words_.empty() ? hot_size_ : words_.capacity()) * sizeof(uint64_t) + ids_.capacity() * sizeof(uint32_t) +
           first_id_.capacity() * sizeof(uint32_t) + frames_bytes() + sizeof(*this);
  }

 private:
  // A directory block's fields (kBlockBytes bytes at `block`): the first cube of its regions, then
  // region i's count of units and its fallback, as locate reads them and the build writes them.
  [[gnu::always_inline]] static uint32_t block_first_cube(const uint8_t* block) {
    uint32_t base;
    std::memcpy(&base, block, sizeof base);
    return base;
  }
  [[gnu::always_inline]] static uint32_t block_units(const uint8_t* block, uint32_t i) {
    return uint32_t(block[kBlockCounts + i]);
  }
  [[gnu::always_inline]] static uint32_t block_fallback(const uint8_t* block, uint32_t i) {
    return (uint32_t(block[kBlockFallbacks + i / 4]) >> (2 * (i % 4))) & 3;
  }
  static void set_block_first_cube(uint8_t* block, uint32_t base) { std::memcpy(block, &base, sizeof base); }
  static void set_block_region(uint8_t* block, uint32_t i, uint32_t units, uint32_t fallback) {
    block[kBlockCounts + i] = uint8_t(units);
    block[kBlockFallbacks + i / 4] |= uint8_t(fallback << (2 * (i % 4)));
  }
  // The sum of a block's first i counts (i < kBlockRegions): three masked 16-byte sums.
  [[gnu::always_inline]] static uint32_t units_before(const uint8_t* counts, uint32_t i) {
#if defined(__SSE2__)
    const __m128i iota = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                  zero = _mm_setzero_si128();
    __m128i sum = zero;
    for (int k = 0; k < 3; ++k) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(counts + 16 * k));
      // Lanes j < i - 16 k (a negative limit keeps none).
      const __m128i keep = _mm_cmpgt_epi8(_mm_set1_epi8(char(int(i) - 16 * k)), iota);
      sum = _mm_add_epi64(sum, _mm_sad_epu8(_mm_and_si128(v, keep), zero));
    }
    return uint32_t(_mm_cvtsi128_si32(sum) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(sum, sum)));
#else
    uint32_t sum = 0;
    for (uint32_t j = 0; j < i; ++j) sum += counts[j];
    return sum;
#endif
  }
  // Bit j set when cube c[j] holds the query (PCN: every pair of the query's is in the cube's).
  static uint32_t match16(const uint32_t* c, uint32_t pairs) {
#if defined(__SSE2__)
    const __m128i q = _mm_set1_epi32(int(pairs));
    auto eq = [&](int i) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c + 4 * i));
      return _mm_cmpeq_epi32(_mm_and_si128(v, q), q);
    };
    const __m128i lo = _mm_packs_epi32(eq(0), eq(1)), hi = _mm_packs_epi32(eq(2), eq(3));
    return uint32_t(_mm_movemask_epi8(_mm_packs_epi16(lo, hi)));
#else
    uint32_t hits = 0;
    for (int j = 0; j < 16; ++j) hits |= uint32_t((c[j] & pairs) == pairs) << j;
    return hits;
#endif
  }

  // The query of an index of the encoding (the layout known only at run time).
  Query query(const Hot& h, uint64_t index) const;

  const uint64_t* words_data() const { return words_.empty() ? words_at_ : words_.data(); }
  size_t words_size() const { return hot_size_; }

  int k_ = 0;
  std::vector<int> fixed_;
  std::array<int, 2> free_{};
  uint8_t kings_ = 0;             // Hot::kings
  uint8_t subcube_ = kNoSubcube;  // Hot::subcube
  CheckEvasions evasions_ = CheckEvasions::Stored;
  uint8_t unit_shift_ = 0;       // Hot::unit_shift
  std::vector<uint64_t> words_;  // directory (dir_words_), then the regions' cubes
  size_t dir_words_ = 0;
  size_t searched_words_ = 0;  // Hot::searched, after the directory (0: no region searched)
  size_t largest_ = 0;
  const uint64_t* words_at_ = nullptr;
  size_t hot_size_ = 0;                   // words in the directory and slabs
  std::vector<uint32_t> ids_;             // each region's cubes, in scan order
  std::vector<uint32_t> first_id_;        // region r's cubes: ids_[first_id_[r] .. first_id_[r + 1]]
  std::unique_ptr<RegionFrames> frames_;  // the cubes, when framed (then not among the words)
};

}  // namespace egtmin::probe
