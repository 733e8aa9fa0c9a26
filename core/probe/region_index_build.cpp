// SPDX-License-Identifier: GPL-3.0-or-later
// Building a RegionIndex from a cover's cubes (the choice of fixed pieces, each region's greedy
// cover of grown cubes, the directory) and saving its state for a probe layout; an index read back
// from a layout and its queries are in region_index.cpp.
#include "probe/region_index.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <span>

#include "chess/attacks.hpp"
#include "table/symmetry.hpp"
#include "util/parallel.hpp"

namespace egtmin::probe {

namespace {

// A cube's inputs for the piece in encoding slot `slot` (inputs 1 + 6 slot .. 6 + 6 slot: the
// square's row bits, then its file bits, most significant first) as PCN pairs (01 for a 1 bit, 10
// for a 0 bit).
uint32_t slot_field(logic::CubeWord c, int slot) {
  return uint32_t(c >> logic::pair_shift(square_input(slot) + kSquareBits - 1)) & 0xFFF;
}

unsigned stm_mask(logic::CubeWord c) {
  const unsigned pair = unsigned(c >> logic::pair_shift(0)) & 3;
  return (pair & 2 ? 1u : 0u) | (pair & 1 ? 2u : 0u);  // bit 0: White to move, bit 1: Black
}

// Where the pieces sit in the encoding: Black's king, and the others (but White's king, which is
// slot 0), in slot order: the free pieces of a region of the kings.
struct Slots {
  int bk = 0, nfree = 0;
  std::array<int, 3> free{};
  explicit Slots(const Encoding& enc) {
    for (int i = 1; i < enc.pieces(); ++i)
      if (enc.piece(i) == make_piece(Black, King)) bk = i;
    for (int i = 1; i < enc.pieces(); ++i)
      if (i != bk && nfree < 3) free[size_t(nfree++)] = i;
  }
};

}  // namespace

bool RegionIndex::applies_to(const Encoding& enc) {
  const int k = enc.pieces();
  if (k < 3 || k > 5 || enc.piece(0) != make_piece(White, King)) return false;
  int black_kings = 0, slot = 0;
  for (int i = 1; i < k; ++i)
    if (enc.piece(i) == make_piece(Black, King)) ++black_kings, slot = i;
  return black_kings == 1 && slot >= 2;
}

namespace {

// Square sets as rows and files (row e: squares 8e .. 8e + 7, bit e of a row or file set).
constexpr std::array<uint64_t, 256> kRowSquares = [] {
  std::array<uint64_t, 256> t{};
  for (uint32_t rows = 0; rows < 256; ++rows)
    for (int e = 0; e < 8; ++e)
      if (rows >> e & 1) t[rows] |= uint64_t{0xFF} << (8 * e);
  return t;
}();
uint64_t rect_squares(uint32_t rows, uint32_t files) {
  return kRowSquares[rows] & (uint64_t(files) * 0x0101010101010101ull);
}

// The rows (or files) that three inputs' PCN pairs admit: a slot field's upper or lower half, in
// the code a region cube's subcube field uses.
constexpr std::array<uint8_t, 64> kAdmitted = [] {
  std::array<uint8_t, 64> t{};
  for (uint32_t pairs = 0; pairs < 64; ++pairs)
    for (uint32_t e = 0; e < 8; ++e)
      if ((region_cube::field_code(e, true) & pairs) == region_cube::field_code(e, true)) t[pairs] |= uint8_t(1u << e);
  return t;
}();

// Per cube: the side-to-move values, and for every slot the rows and files it admits and their
// squares.
struct Shape {
  unsigned stm = 0;
  unsigned out = 0;  // logic::Output
  std::array<uint64_t, 5> sq{};
  std::array<uint8_t, 5> rows{}, files{};
};
// The slots a region fixes (besides the side to move) and the free ones, in slot order. A region
// is the side to move, then the fixed slots' squares, 6 bits each.
struct Layout {
  std::vector<int> fixed;
  int nfree = 0;
  std::array<int, 2> free{};
  Layout(int k, std::vector<int> f) : fixed(std::move(f)) {
    for (int i = 0; i < k; ++i)
      if (std::find(fixed.begin(), fixed.end(), i) == fixed.end() && nfree < 2) free[size_t(nfree++)] = i;
  }
  uint32_t region(uint32_t stm, const std::array<uint32_t, 5>& sq) const {
    uint32_t r = stm;
    for (int slot : fixed) r = r << kSquareBits | sq[size_t(slot)];
    return r;
  }
  // Calls f(region) for every region whose side to move and fixed squares the cube admits and
  // `kept` keeps: kept[r >> 6], the squares of the last fixed piece kept with the side to move and
  // the other fixed squares of region r. Why masks: a cube spans thousands of regions at five
  // pieces, and a trial plan keeps a sixteenth or a sixty-fourth of them, so visiting every region
  // to ask was most of a trial's listing.
  template <class F>
  void for_each_region(const Shape& s, const uint64_t* kept, F&& f) const {
    const uint64_t last = s.sq[size_t(fixed.back())];
    // p: the region's number without its last square.
    auto visit = [&](uint32_t p) {
      for (uint64_t z = last & kept[p]; z; z &= z - 1) f(p << kSquareBits | uint32_t(std::countr_zero(z)));
    };
    const uint64_t a = s.sq[size_t(fixed[0])];
    for (uint32_t stm = 0; stm < 2; ++stm) {
      if (!(s.stm >> stm & 1)) continue;
      for (uint64_t x = a; x; x &= x - 1) {
        const uint32_t p = stm << kSquareBits | uint32_t(std::countr_zero(x));
        if (fixed.size() == 2) {
          visit(p);
          continue;
        }
        for (uint64_t y = s.sq[size_t(fixed[1])]; y; y &= y - 1)
          visit(p << kSquareBits | uint32_t(std::countr_zero(y)));
      }
    }
  }
};

// Clears from a region's bitmap (one word with one free piece, else 64 words: bit f of word w for
// the first on w and the second on f) the positions whose free pieces stand on `first` and `second`.
void clear_held(uint64_t* t, int nfree, uint64_t first, uint64_t second) {
  if (nfree == 1)
    t[0] &= ~first;
  else
    for (uint64_t x = first; x; x &= x - 1) t[std::countr_zero(x)] &= ~second;
}

// One layout's regions: each region's cubes in the greedy cover's order.
struct Plan {
  std::vector<uint32_t> ids, first;  // first[r] .. first[r + 1]: region r's cubes in ids
  // The region cubes (the free pieces' fields, the output), beside ids: the cover's cube each one
  // was grown from.
  std::vector<uint32_t> words;
  // Beside words: the least each may be (settle_fields): a cube's rows and files of the positions
  // it answers first; any other word, itself.
  std::vector<uint32_t> least;
  std::vector<uint8_t> fallback;  // each region's value when no cube matches
  size_t largest = 0;

  // Appends `from`'s words b to e, with their ids and least words.
  void append(const Plan& from, size_t b, size_t e) {
    ids.insert(ids.end(), from.ids.begin() + ptrdiff_t(b), from.ids.begin() + ptrdiff_t(e));
    words.insert(words.end(), from.words.begin() + ptrdiff_t(b), from.words.begin() + ptrdiff_t(e));
    least.insert(least.end(), from.least.begin() + ptrdiff_t(b), from.least.begin() + ptrdiff_t(e));
  }
  // Keeps the first n words, with their ids and least words.
  void truncate(size_t n) {
    ids.resize(n);
    words.resize(n);
    least.resize(n);
  }
};

// Greedy set cover of each region's target (a bitmap over the free pieces' squares, `words`
// long, from fill(region, words)) by the cubes admitting the region, each grown within it (lazy:
// a cube's gain only falls), for the regions `take` keeps. The order picked is also the best
// first-match order for uniformly drawn positions.
// Each region's most common value among its positions is the answer when no cube matches, and
// only the positions of other values need cubes: cubes of different outputs never share a care
// position, so a position of the fallback value matches none of them. A cover with an implied
// output has no cubes for it: a region holding any of its positions (those no cube holds) falls
// back to it, or keeps its most common value and holds them in cubes of the implied output grown
// from each of them, whichever plan takes fewer cubes (the region is planned both ways).
// Regions are planned independently of each other: in chunks of kChunkRegions, on `threads`
// threads, each chunk's cubes then appended in region order, so the plan is the same whatever the
// threads. Enough chunks that two threads finish together; few enough that a chunk's own lists
// stay cheap.
constexpr uint32_t kChunkRegions = 256;
// The rounds of reduce and expand a region's cover gets at most: a round is kept only when it has
// fewer cubes, and more rounds left KRNvKR's layout byte for byte the same (docs/measured.md).
constexpr int kReduceExpandRounds = 4;

// The rows and the files a set of squares occupies.
uint32_t rows_of(uint64_t squares) {
  uint32_t rows = 0;
  for (int e = 0; e < 8; ++e) rows |= uint32_t((squares >> (8 * e) & 0xFF) != 0) << e;
  return rows;
}
uint32_t files_of(uint64_t squares) {
  squares |= squares >> 32;
  squares |= squares >> 16;
  squares |= squares >> 8;
  return uint32_t(squares & 0xFF);
}
// The smallest subcube of rows (or files) holding a set of them: what the PCN pairs of the set's
// members admit together.
uint32_t subcube_around(uint32_t set) {
  uint32_t pairs = 0;
  for (uint32_t x = set; x; x &= x - 1) pairs |= region_cube::field_code(uint32_t(std::countr_zero(x)), true);
  return kAdmitted[pairs];
}

template <class Take, class Fill>
Plan greedy_plan(const std::vector<Shape>& shapes, const Layout& lay, int subcube, uint32_t regions, size_t words,
                 unsigned implied, RegionLists lists, RegionPicking picking, Take&& take, Fill&& fill, int threads) {
  // Each region's cubes in cube order, region after region in one array: the cubes in one range
  // per thread, each range's cubes counted per region first, then written at the places the counts
  // give (each region's run holds the ranges' cubes in range order, so every region's cubes
  // ascend). A cube spans thousands of regions at five pieces, so listing them on one thread left
  // the other idle for a large share of the layout. One array, not a list per region grown cube by
  // cube: the lists' spare capacity was a large share of a five-piece layout's peak memory.
  const uint32_t ranges = uint32_t(std::clamp<size_t>(size_t(resolve_threads(threads)), 1, shapes.size() + 1));
  auto range_of = [&](uint64_t range) {
    return std::pair{shapes.size() * range / ranges, shapes.size() * (range + 1) / ranges};
  };
  // The regions `take` keeps, as masks of their last square (Layout::for_each_region).
  std::vector<uint64_t> kept(regions >> kSquareBits, 0);
  for (uint32_t r = 0; r < regions; ++r)
    if (take(r)) kept[r >> kSquareBits] |= uint64_t{1} << (r & kSquareMask);
  // Per range, then per region: the range's cubes in the region; then where they start in its run.
  std::vector<std::vector<uint32_t>> in_range(ranges, std::vector<uint32_t>(regions, 0));
  parallel_for(ranges, threads, 1, no_progress(), [&](uint64_t range, uint64_t, int) {
    uint32_t* count = in_range[range].data();
    for (auto [c, c1] = range_of(range); c < c1; ++c)
      lay.for_each_region(shapes[c], kept.data(), [&](uint32_t r) { ++count[r]; });
  });
  std::vector<uint64_t> run_start(size_t(regions) + 1, 0);  // region r's cubes: [run_start[r], run_start[r + 1])
  uint64_t listed = 0;
  for (uint32_t r = 0; r < regions; ++r) {
    run_start[r] = listed;
    for (auto& count : in_range) {
      const uint32_t n = count[r];
      count[r] = uint32_t(listed - run_start[r]);
      listed += n;
    }
  }
  run_start[regions] = listed;
  std::vector<uint32_t> listed_cubes(listed);
  parallel_for(ranges, threads, 1, no_progress(), [&](uint64_t range, uint64_t, int) {
    uint32_t* next = in_range[range].data();
    for (auto [c, c1] = range_of(range); c < c1; ++c)
      lay.for_each_region(shapes[c], kept.data(),
                          [&](uint32_t r) { listed_cubes[run_start[r] + next[r]++] = uint32_t(c); });
  });
  in_range = {};
  const int nfree = lay.nfree;
  const size_t f0 = size_t(lay.free[0]), f1 = size_t(lay.free[1]);
  Plan plan;
  plan.first.assign(size_t(regions) + 1, 0);
  plan.fallback.assign(regions, 0);
  const uint32_t chunks = (regions + kChunkRegions - 1) / kChunkRegions;
  std::vector<Plan> parts(chunks);  // each chunk's ids and words; its `first` counts from 0
  parallel_for(chunks, threads, 1, no_progress(), [&](uint64_t chunk, uint64_t, int) {
    Plan& part = parts[chunk];
    const uint32_t r0 = uint32_t(chunk) * kChunkRegions, r1 = std::min(regions, r0 + kChunkRegions);
    part.first.assign(r1 - r0, 0);
    std::vector<std::pair<uint64_t, uint32_t>> heap;  // (gain, cube) max-heap
    std::vector<uint64_t> left(words), reach(words), capped(words);
    std::array<std::vector<uint64_t>, 4> off;  // per value, the region's positions of other values
    for (auto& v : off) v.assign(words, 0);
    struct Local {
      uint64_t a, b;  // the squares it admits for the free pieces
      uint32_t word;  // as a region cube
      uint32_t id;    // the cover's cube it came from
    };
    std::vector<Local> local;
    struct Picked {
      Local cube;
      uint64_t gain;  // the positions it held first
    };
    struct Reduced {
      std::array<uint32_t, 4> set;  // the rows and files it holds
      unsigned out;
      uint32_t id;
    };
    std::vector<Picked> picked;                       // a region's cubes in the greedy order
    std::vector<uint64_t> targets(words);             // the positions a region must not answer by its fallback
    std::vector<uint64_t> start(words), rest(words);  // the positions left before it, and after a cut
    std::vector<Picked> saved;                        // the first cover, while a second is tried
    std::vector<Picked> saved_cover;                  // a cover, while reduce and expand try another
    std::vector<Local> spare;                         // the candidates, while reduce and expand grow others
    std::vector<Reduced> reduced;                     // a cover's cubes cut to what each alone holds
    std::vector<Local> irredundant_cubes;             // the cubes an irredundant cover keeps
    std::vector<uint16_t> held_count(words * 64);     // per position, the picked cubes holding it (irredundant)
    std::vector<region_list::Entry> entries;          // a region's list
    std::vector<uint64_t> unheld(words);              // targets no cube before holds (least_words)
    std::vector<uint32_t> kept_least;                 // the kept cubes' least words (emit)
    Plan other;                                       // a region's other plan (below), reused
    std::array<std::vector<uint64_t>, 4> of_value;    // the region's positions by the value of their cubes
    for (auto& v : of_value) v.assign(words, 0);
    for (uint32_t r = r0; r < r1; ++r) {
      part.first[r - r0] = uint32_t(part.ids.size());
      const std::span<const uint32_t> in_region(listed_cubes.data() + run_start[r], run_start[r + 1] - run_start[r]);
      if (in_region.empty()) continue;
      fill(r, left.data(), capped.data());
      unsigned fallback = 0;
      // The fallback: the most common value of the positions left (the front line's are not).
      for (auto& v : of_value) std::fill(v.begin(), v.end(), 0);
      for (uint32_t c : in_region) {
        const Shape& s = shapes[c];
        uint64_t* v = of_value[s.out].data();
        if (nfree == 1)
          v[0] |= s.sq[f0];
        else
          for (uint64_t x = s.sq[f0]; x; x &= x - 1) v[size_t(std::countr_zero(x))] |= s.sq[f1];
      }
      // The side to move's win (White's output with White to move): the one output the capped
      // positions (RegionFreedom) must not get. Any other fallback holds them, and cubes of other
      // outputs may too. Not capped: the positions the cover gives that win, by its cubes or, when
      // it is the implied output, by holding them in none.
      const unsigned mover_wins = (r >> (kSquareBits * lay.fixed.size())) & 1 ? 3u : 1u;
      uint64_t capped_count = 0;
      for (size_t w = 0; w < words; ++w) {
        const uint64_t held = of_value[1][w] | of_value[2][w] | of_value[3][w];
        capped[w] &= left[w] & ~of_value[mover_wins][w] & (implied == mover_wins ? held : ~uint64_t{0});
        capped_count += uint64_t(std::popcount(capped[w]));
      }
      uint64_t most = 0;
      for (unsigned o = 1; o < 4; ++o) {
        uint64_t n = o == mover_wins ? 0 : capped_count;
        for (size_t w = 0; w < words; ++w) n += uint64_t(std::popcount(left[w] & ~capped[w] & of_value[o][w]));
        if (n > most) most = n, fallback = o;
      }
      const unsigned commonest = fallback;
      bool uncovered = false;
      if (implied) {
        // Positions no cube holds: no region cube of the cover's can, so the fallback must (a
        // capped one only against the side to move's win), or cubes of the implied output below.
        for (size_t w = 0; w < words && !uncovered; ++w)
          uncovered =
              left[w] & ~(fallback == mover_wins ? 0 : capped[w]) & ~(of_value[1][w] | of_value[2][w] | of_value[3][w]);
        if (uncovered) fallback = implied;
      }
      reach = left;  // every position a probe brings here, of any value
      // Implied positions forced the fallback away from the commonest value: plan both ways.
      const bool both_ways = uncovered && commonest != unsigned(implied);
      if (both_ways)
        // The implied output's positions: those no cube holds (the cover stores no cube of that
        // output, so its bitmap is free for them).
        for (size_t w = 0; w < words; ++w)
          of_value[implied][w] = reach[w] & ~(of_value[1][w] | of_value[2][w] | of_value[3][w]);
      // The positions a cube of each value must stay off, whichever the fallback: once a region.
      for (unsigned v = 1; v < 4; ++v)
        for (size_t w = 0; w < words; ++w)
          off[v][w] = reach[w] & ~of_value[v][w] & (v == mover_wins ? ~0ull : ~capped[w]);
      // The value a position of `targets` must get when the region falls back to `falls_to`.
      auto value_at = [&](unsigned falls_to, size_t w, uint64_t bit) -> uint8_t {
        if (falls_to == mover_wins && (capped[w] & bit)) {  // anything but the side to move's win
          for (unsigned v = 1; v < 4; ++v)
            if (v != mover_wins && (of_value[v][w] & bit)) return uint8_t(v);
          return uint8_t(logic::Output::Draw);
        }
        for (unsigned v = 1; v < 4; ++v)
          if (v != falls_to && (of_value[v][w] & bit)) return uint8_t(v);
        return uint8_t(implied);
      };
      // Where the greedy order's cubes are best cut (the first `cut` kept, the positions of
      // `targets` they leave listed after them: region_list.hpp) and the region's words then;
      // no cut (all cubes kept) when a list saves no word.
      struct Cut {
        size_t cut, words;
      };
      auto best_cut = [&](unsigned falls_to) {
        uint64_t k = 0;
        std::array<bool, 4> seen{};
        for (size_t w = 0; w < words; ++w)
          for (uint64_t x = targets[w]; x; x &= x - 1) ++k, seen[value_at(falls_to, w, x & (0 - x))] = true;
        // A list holds at most two values, none the fallback (so a region that falls back to none has none).
        const int values = int(seen[1]) + int(seen[2]) + int(seen[3]);
        const int value_bits = values > 1 ? 1 : 0;
        Cut best{picked.size(), picked.size()};
        const int ubits = region_list::place_bits(nfree);
        if (lists == RegionLists::WhereSmaller && falls_to && values <= 2)
          for (size_t c = 0; c < picked.size() && c <= region_list::kMaxKeptCubes; k -= picked[c++].gain)
            if (const size_t n = 1 + c + region_list::stream_words(uint32_t(k), ubits, value_bits); n < best.words)
              best.words = n, best.cut = c;
        return best;
      };
      // The region's words falling back to `falls_to`, from the greedy order's cubes (`picked`):
      // the first ones up to the cut that takes the fewest words, and the positions of `targets`
      // they leave in a list after them (region_list.hpp); all of them when a list saves no word.
      // The least words of the first n picked cubes (Plan::least): each one's positions of
      // `targets` that no cube before it holds, as rows and files.
      auto least_words = [&](size_t n, std::vector<uint32_t>& out) {
        unheld = targets;
        for (size_t c = 0; c < n; ++c) {
          const Local& k = picked[c].cube;
          uint64_t a = 0, b = 0;
          if (nfree == 1) {
            a = k.a & unheld[0];
            unheld[0] &= ~a;
          } else {
            for (uint64_t x = k.a; x; x &= x - 1) {
              const size_t row = size_t(std::countr_zero(x));
              if (const uint64_t y = k.b & unheld[row]) a |= uint64_t{1} << row, b |= y, unheld[row] &= ~y;
            }
          }
          out.push_back(region_cube::word({rows_of(a), files_of(a), rows_of(b), files_of(b)}, nfree, subcube,
                                          region_cube::output(k.word)));
        }
      };
      auto emit = [&](unsigned falls_to, Plan& to) {
        const size_t cut = best_cut(falls_to).cut;
        const int ubits = region_list::place_bits(nfree);
        if (cut == picked.size()) {
          for (const Picked& p : picked) to.ids.push_back(p.cube.id), to.words.push_back(p.cube.word);
          least_words(picked.size(), to.least);
          return;
        }
        kept_least.clear();
        least_words(cut, kept_least);
        for (size_t c = 0; c < cut; ++c) clear_held(targets.data(), nfree, picked[c].cube.a, picked[c].cube.b);
        entries.clear();
        for (size_t w = 0; w < words; ++w)
          for (uint64_t x = targets[w]; x; x &= x - 1)
            entries.push_back({uint32_t(w * 64) + uint32_t(std::countr_zero(x)), value_at(falls_to, w, x & (0 - x))});
        const std::vector<uint32_t> list = region_list::encode(entries, ubits, uint32_t(cut));
        to.ids.push_back(RegionIndex::kNoCoverCube);
        to.words.push_back(list[0]);  // the header, then the kept cubes, then the stream
        to.least.push_back(list[0]);
        for (size_t c = 0; c < cut; ++c) to.ids.push_back(picked[c].cube.id), to.words.push_back(picked[c].cube.word);
        to.least.insert(to.least.end(), kept_least.begin(), kept_least.end());
        to.words.insert(to.words.end(), list.begin() + 1, list.end());
        to.least.insert(to.least.end(), list.begin() + 1, list.end());
        to.ids.resize(to.words.size(), RegionIndex::kNoCoverCube);
      };
      // Calls f(i) for each position of `targets` the cube holds (i: its bit in the region's bitmap).
      auto for_each_held = [&](const Local& c, auto&& f) {
        if (nfree == 1) {
          for (uint64_t y = c.a & targets[0]; y; y &= y - 1) f(size_t(std::countr_zero(y)));
          return;
        }
        for (uint64_t x = c.a; x; x &= x - 1) {
          const size_t row = size_t(std::countr_zero(x));
          for (uint64_t y = c.b & targets[row]; y; y &= y - 1) f(row * 64 + size_t(std::countr_zero(y)));
        }
      };
      // Drops the picked cubes whose `targets` positions later picks hold too, the last picked first
      // (they hold the fewest): the greedy cover never looks back, and a cube it picked early can
      // end up holding nothing a later one does not. Whether it dropped any.
      auto irredundant = [&] {
        std::fill(held_count.begin(), held_count.end(), 0);
        for (const Picked& p : picked) for_each_held(p.cube, [&](size_t i) { ++held_count[i]; });
        bool dropped = false;
        for (size_t i = picked.size(); i-- > 0;) {
          bool needed = false;
          for_each_held(picked[i].cube, [&](size_t j) { needed |= held_count[j] < 2; });
          if (needed) continue;
          for_each_held(picked[i].cube, [&](size_t j) { --held_count[j]; });
          picked[i].gain = ~uint64_t{0};
          dropped = true;
        }
        std::erase_if(picked, [](const Picked& p) { return p.gain == ~uint64_t{0}; });
        return dropped;
      };
      // The region's cubes falling back to `falls_to`, appended to `to` in the greedy order: the
      // cover's cubes of other outputs, and with `seeds` cubes of the implied output grown from
      // its positions one by one.
      auto plan_region = [&](unsigned falls_to, bool seeds, Plan& to) {
        left = reach;
        if (falls_to)
          for (size_t w = 0; w < words; ++w) left[w] &= ~of_value[falls_to][w];
        if (falls_to != mover_wins)
          for (size_t w = 0; w < words; ++w) left[w] &= ~capped[w];
        auto gain_of = [&](uint64_t a, uint64_t b) {
          if (nfree == 1) return uint64_t(std::popcount(left[0] & a));
          uint64_t g = 0;
          for (uint64_t x = a; x; x &= x - 1) g += uint64_t(std::popcount(left[size_t(std::countr_zero(x))] & b));
          return g;
        };
        // Each candidate restricted to the region, then expanded there (ESPRESSO's expand, on the
        // free pieces' rows and files): every row or file whose adding keeps the cube off the region's
        // positions of other values is added, nearest the cube's own first (intervals and
        // neighbourhoods are what chess values follow), the subcube field by raising one of its three
        // bits at a time. Everything else in the region is a don't-care here (positions no probe
        // brings: illegal or not representative, or answered by the front line), so a cover's cube,
        // minimal for the whole balance, often grows to hold several of its neighbours' shares of the
        // region, and fewer cubes hold the region.
        local.clear();
        // Grows a cube of output `out` holding the free pieces on rows x files `set` (squares
        // `held`) and adds it to the candidates; `id`: the cover's cube it came from.
        auto grow = [&](unsigned out, std::array<uint32_t, 4> set, std::array<uint64_t, 2> held, uint32_t id,
                        int first_piece) {
          const uint64_t* o = off[out].data();
          // The squares of the growing piece that would put the cube on another value's position,
          // given the other piece's squares, which stay put while this one grows (the first piece
          // grows before the second): the squares x whose o[x] meets the second piece's squares,
          // then the union of o[x] over the first piece's. The cube held no such position before
          // it grew, so a row or file may be added when the squares it adds miss this set.
          uint64_t blocked = 0;
          auto try_add = [&](int piece, int field, uint32_t add) {
            std::array<uint32_t, 4> grown = set;
            grown[size_t(field)] |= add;
            const uint64_t now = rect_squares(grown[size_t(2 * piece)], grown[size_t(2 * piece + 1)]);
            if (now & ~held[size_t(piece)] & blocked) return;
            set = grown;
            held[size_t(piece)] = now;
          };
          for (int step = 0; step < nfree; ++step) {
            const int piece = step ^ first_piece;
            blocked = 0;
            if (nfree == 1)
              blocked = o[0];
            else if (piece == 0)
              for (size_t x = 0; x < 64; ++x) blocked |= uint64_t((o[x] & held[1]) != 0) << x;
            else
              for (uint64_t x = held[0]; x; x &= x - 1) blocked |= o[size_t(std::countr_zero(x))];
            for (int d = 1; d < 8; ++d)
              for (int field = 2 * piece; field < 2 * piece + 2; ++field) {
                if (field == subcube) {
                  if (d > 1) continue;
                  for (int bit = 2; bit >= 0; --bit) {  // the subcube's mirror across one of its bits
                    uint32_t mirror = 0;
                    for (uint32_t x = set[size_t(field)]; x; x &= x - 1)
                      mirror |= 1u << (std::countr_zero(x) ^ (1 << bit));
                    if (mirror & ~set[size_t(field)]) try_add(piece, field, mirror);
                  }
                  continue;
                }
                const uint32_t near =
                    ((set[size_t(field)] << d) | (set[size_t(field)] >> d)) & 0xFF & ~set[size_t(field)];
                for (uint32_t x = near; x; x &= x - 1) try_add(piece, field, x & -x);
              }
          }
          local.push_back({held[0], held[1], region_cube::word(set, nfree, subcube, out), id});
        };
        for (uint32_t c : in_region) {
          const Shape& s = shapes[c];
          if (s.out == falls_to || !gain_of(s.sq[f0], nfree == 2 ? s.sq[f1] : 0)) continue;
          for (int first_piece = 0; first_piece < nfree; ++first_piece)
            grow(s.out, {s.rows[f0], s.files[f0], nfree == 2 ? s.rows[f1] : 0u, nfree == 2 ? s.files[f1] : 0u},
                 {s.sq[f0], nfree == 2 ? s.sq[f1] : 0}, c, first_piece);
        }
        // Grows a cube of output `out` from the one position at bit `b` of word `w` (a region's
        // bitmap, clear_held).
        auto grow_from = [&](unsigned out, size_t w, uint32_t b, int first_piece) {
          const uint32_t a = nfree == 1 ? b : uint32_t(w);
          grow(out, {1u << (a >> 3), 1u << (a & 7), nfree == 2 ? 1u << (b >> 3) : 0u, nfree == 2 ? 1u << (b & 7) : 0u},
               {uint64_t{1} << a, nfree == 2 ? uint64_t{1} << b : 0}, RegionIndex::kNoCoverCube, first_piece);
        };
        // Cubes that grew into the same one count once.
        auto drop_repeats = [&] {
          std::sort(local.begin(), local.end(), [](const Local& a, const Local& b) { return a.word < b.word; });
          local.erase(
              std::unique(local.begin(), local.end(), [](const Local& a, const Local& b) { return a.word == b.word; }),
              local.end());
        };
        if (seeds)  // one cube of the implied output from each of its positions left
          for (size_t w = 0; w < words; ++w)
            for (uint64_t x = left[w] & of_value[implied][w]; x; x &= x - 1)
              grow_from(implied, w, uint32_t(std::countr_zero(x)), 0);
        drop_repeats();
        // The positions that must not get the fallback (a list holds what the kept cubes leave):
        // those left, but the implied output's that no cube holds when it is the fallback.
        targets = left;
        if (falls_to && falls_to == implied)
          for (size_t w = 0; w < words; ++w) targets[w] &= of_value[1][w] | of_value[2][w] | of_value[3][w];
        start = left;
        // The greedy cover of `targets` by the cubes `from`.
        auto greedy = [&](const std::vector<Local>& from) {
          auto gain = [&](uint32_t c) { return gain_of(from[c].a, from[c].b); };
          left = start;
          picked.clear();
          heap.clear();
          for (uint32_t c = 0; c < from.size(); ++c)
            if (const uint64_t g = gain(c)) heap.push_back({g, c});
          std::make_heap(heap.begin(), heap.end());
          while (!heap.empty()) {
            std::pop_heap(heap.begin(), heap.end());
            const auto [old_gain, c] = heap.back();
            heap.pop_back();
            const uint64_t g = gain(c);
            if (g == 0) continue;
            if (g < old_gain && !heap.empty() && g < heap.front().first) {
              heap.push_back({g, c});
              std::push_heap(heap.begin(), heap.end());
              continue;
            }
            picked.push_back({from[c], g});
            clear_held(left.data(), nfree, from[c].a, from[c].b);
          }
        };
        // The squares each free piece may stand on in a cube of these rows and files.
        auto squares_of = [&](const std::array<uint32_t, 4>& set) {
          return std::array<uint64_t, 2>{rect_squares(set[0], set[1]), nfree == 2 ? rect_squares(set[2], set[3]) : 0};
        };
        // ESPRESSO's reduce and expand on the cover picked: each cube in turn cut down to the
        // smallest cube holding the positions no other cube (as cut so far) holds; two cut cubes of
        // one output merged where the smallest cube holding both stays off other values; each grown
        // again, and the greedy cover taken over those and the cubes before. Kept when it takes
        // fewer cubes: a cube grown from its own share alone can reach past a neighbour's.
        auto reduce_expand = [&] {
          std::fill(held_count.begin(), held_count.end(), 0);
          for (const Picked& p : picked) for_each_held(p.cube, [&](size_t i) { ++held_count[i]; });
          spare.clear();
          std::swap(local, spare);  // the region's candidates, kept for a later cover
          reduced.clear();
          for (const Picked& p : picked) {
            uint64_t a = 0, b = 0;  // the squares of the positions only this cube holds
            for_each_held(p.cube, [&](size_t i) {
              if (held_count[i] != 1) return;
              if (nfree == 1)
                a |= uint64_t{1} << i;
              else
                a |= uint64_t{1} << (i >> 6), b |= uint64_t{1} << (i & 63);
            });
            for_each_held(p.cube, [&](size_t i) { --held_count[i]; });
            if (!a) continue;  // held by the others
            std::array<uint32_t, 4> set{rows_of(a), files_of(a), nfree == 2 ? rows_of(b) : 0u,
                                        nfree == 2 ? files_of(b) : 0u};
            if (subcube < int(region_cube::kNoSubcube)) set[size_t(subcube)] = subcube_around(set[size_t(subcube)]);
            const auto [cut_a, cut_b] = squares_of(set);
            for_each_held(Local{cut_a, cut_b, 0, p.cube.id}, [&](size_t i) { ++held_count[i]; });
            reduced.push_back({set, region_cube::output(p.cube.word), p.cube.id});
          }
          // Two cut cubes of one output whose smallest common cube stays off other values merge.
          for (size_t i = 0; i < reduced.size(); ++i)
            for (size_t j = i + 1; j < reduced.size(); ++j) {
              if (reduced[j].out != reduced[i].out) continue;
              std::array<uint32_t, 4> u;
              for (size_t f = 0; f < 4; ++f) u[f] = reduced[i].set[f] | reduced[j].set[f];
              if (subcube < int(region_cube::kNoSubcube)) u[size_t(subcube)] = subcube_around(u[size_t(subcube)]);
              const auto [a, b] = squares_of(u);
              const uint64_t* o = off[reduced[i].out].data();
              bool clear = true;
              if (nfree == 1)
                clear = !(o[0] & a);
              else
                for (uint64_t x = a; x && clear; x &= x - 1) clear = !(o[std::countr_zero(x)] & b);
              if (!clear) continue;
              reduced[i].set = u;
              reduced.erase(reduced.begin() + std::ptrdiff_t(j));
              j = i;
            }
          for (const Reduced& c : reduced)
            for (int first_piece = 0; first_piece < nfree; ++first_piece)
              grow(c.out, c.set, squares_of(c.set), c.id, first_piece);
          for (const Picked& p : picked) local.push_back(p.cube);
          drop_repeats();
          const size_t before = picked.size();
          saved_cover = picked;
          greedy(local);
          irredundant();
          std::swap(local, spare);
          if (picked.size() < before) return true;
          picked = saved_cover;
          return false;
        };
        // The greedy cover by the candidates, its irredundant cubes (after reduce and expand, with
        // RegionPicking::ReduceExpand), and those in the greedy order again (the one a probe's
        // first match wants, and the one the cut assumes): each still holds a position no other
        // does, so all are picked again.
        auto cover = [&] {
          greedy(local);
          bool changed = irredundant();
          if (picking == RegionPicking::ReduceExpand)
            for (int round = 0; round < kReduceExpandRounds && reduce_expand(); ++round) changed = true;
          if (!changed) return;
          irredundant_cubes.clear();
          for (const Picked& p : picked) irredundant_cubes.push_back(p.cube);
          greedy(irredundant_cubes);
        };
        cover();
        // The positions a list would hold are those the cover's cubes hold one or two at a time:
        // cubes grown from them, in both orders, may hold several together. Kept when the
        // region then takes fewer words.
        if (const Cut first = best_cut(falls_to); first.cut < picked.size()) {
          rest = targets;
          for (size_t c = 0; c < first.cut; ++c) clear_held(rest.data(), nfree, picked[c].cube.a, picked[c].cube.b);
          for (size_t w = 0; w < words; ++w)
            for (uint64_t x = rest[w]; x; x &= x - 1) {
              const uint64_t bit = x & (0 - x);
              const unsigned v = value_at(falls_to, w, bit);
              if (v == 0 || (off[v][w] & bit)) continue;
              for (int first_piece = 0; first_piece < nfree; ++first_piece)
                grow_from(v, w, uint32_t(std::countr_zero(x)), first_piece);
            }
          drop_repeats();
          saved = picked;
          cover();
          if (best_cut(falls_to).words >= first.words) picked = saved;
        }
        emit(falls_to, to);
      };
      const size_t before = part.ids.size();
      plan_region(fallback, false, part);
      if (both_ways) {
        // The other choice: the commonest value falls back, and cubes of the implied output hold
        // its positions. Kept when it takes fewer cubes: a region where a few isolated positions
        // of the implied output (a lone king's stalemates) force the fallback lists every other
        // position as cubes.
        other.truncate(0);
        plan_region(commonest, true, other);
        if (other.ids.size() < part.ids.size() - before) {
          part.truncate(before);
          part.append(other, 0, other.words.size());
          fallback = commonest;
        }
      }
      plan.fallback[r] = uint8_t(fallback);
      part.largest = std::max(part.largest, part.ids.size() - before);
    }
  });
  for (uint32_t chunk = 0; chunk < chunks; ++chunk) {
    Plan& part = parts[chunk];
    const uint32_t r0 = chunk * kChunkRegions;
    const uint32_t base = uint32_t(plan.ids.size());
    for (size_t i = 0; i < part.first.size(); ++i) plan.first[r0 + i] = base + part.first[i];
    plan.append(part, 0, part.words.size());
    plan.largest = std::max(plan.largest, part.largest);
    part = Plan();
  }
  plan.first[regions] = uint32_t(plan.ids.size());
  return plan;
}

// Each region cube's fields set, within what its region allows, to the values most cubes take. A
// cube may hold anything from its least word (the rows and files of the positions it answers
// first: Plan::least) to the word it was grown to, field by field: it then answers the same
// positions first and still holds none it must not. Grown as far as they go, the fields take
// nearly every value about as often (KBNvKQ's 7.1 to 7.5 bits of 8 each); settled, far fewer
// values, which is what the framed cubes' coder gains on (docs/measured.md). A few rounds: each
// field of each cube takes the value, of those it may, that the most cubes took in the round
// before (the one it has on a tie).
constexpr int kSettleRounds = 3;
void settle_fields(std::vector<uint32_t>& words, const std::vector<uint32_t>& least, int nfree, int subcube) {
  const std::vector<uint32_t> grown = words;
  for (int f = 0; f < 2 * nfree; ++f) {
    const int shift = region_cube::field_shift(f, subcube);
    const uint32_t mask = (1u << region_cube::field_width(f, subcube)) - 1;
    for (int round = 0; round < kSettleRounds; ++round) {
      std::array<uint64_t, 256> count{};
      for (uint32_t w : words) ++count[(w >> shift) & mask];
      for (size_t i = 0; i < words.size(); ++i) {
        const uint32_t most = (grown[i] >> shift) & mask, low = (least[i] >> shift) & mask;
        // Not a cube's field with room (a list's words, and a cube's empty field, stay).
        if (low == 0 || (low & ~most) != 0 || low == most) continue;
        uint32_t best = (words[i] >> shift) & mask;
        // Every value from low to most: low with any of the bits only most has.
        const uint32_t room = most & ~low;
        for (uint32_t extra = room;; extra = (extra - 1) & room) {
          if (count[low | extra] > count[best]) best = low | extra;
          if (extra == 0) break;
        }
        words[i] = (words[i] & ~(mask << shift)) | best << shift;
      }
    }
  }
}

// The fixed slots' choices that go on from the rough trial at five pieces: the best of the ten
// choices has been among the first three of the rough trial on every cover tried.
constexpr size_t kFinalists = 3;

// Every choice of `n` slots out of `k`, ascending.
std::vector<std::vector<int>> slot_choices(int k, int n) {
  std::vector<std::vector<int>> out;
  for (unsigned m = 0; m < (1u << k); ++m) {
    if (std::popcount(m) != n) continue;
    std::vector<int> c;
    for (int i = 0; i < k; ++i)
      if (m >> i & 1) c.push_back(i);
    out.push_back(std::move(c));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

RegionIndex::RegionIndex(std::span<const logic::CubeWord> cubes, const Encoding& enc, const CoverCanon& canon,
                         std::span<const logic::CubeWord> answered, std::optional<std::vector<int>> fixed,
                         logic::Output implied, uint8_t min_unit_shift, std::optional<uint8_t> subcube_field,
                         int threads, const RegionFreedom* freedom, RegionLists lists, RegionPicking picking,
                         RegionFields fields) {
  if (!applies_to(enc)) return;
  k_ = enc.pieces();
  const int nfixed = fixed_count(k_);
  const uint32_t regions = regions_for(k_);
  if (fixed) {
    const std::vector<int>& f = *fixed;
    if (int(f.size()) != nfixed || f.front() < 0 || f.back() >= k_ || !std::is_sorted(f.begin(), f.end()) ||
        std::adjacent_find(f.begin(), f.end()) != f.end())
      return;
  }
  if (subcube_field && (k_ - nfixed == 2) != (*subcube_field < kNoSubcube)) return;
  const size_t words = k_ == 3 ? 1 : 64;  // words of a region's bitmap
  const uint8_t kings_mode = canon.scheme() == CanonScheme::None ? 0 : enc.balance().has_pawns() ? 1 : 2;
  // What a layout's directory costs: layouts that fix White's king number its canonical squares
  // only.
  const unsigned below_king = unsigned(kSquareBits * (nfixed - 1));  // the other fixed squares' bits in a region
  auto numbered_regions = [&](uint8_t kings) { return (2 * kKingSquares.count[kings]) << below_king; };
  auto directory_bytes = [&](const Layout& lay) -> size_t {
    const size_t numbered = numbered_regions(lay.fixed[0] == 0 ? kings_mode : 0);
    return (numbered + kBlockRegions - 1) / kBlockRegions * kBlockBytes;
  };

  auto shape_of = [&](logic::CubeWord c) {
    Shape s{stm_mask(c), unsigned(logic::output_of(c)), {}, {}, {}};
    for (size_t i = 0; i < size_t(k_); ++i) {
      const uint32_t field = slot_field(c, int(i));
      s.rows[i] = kAdmitted[field >> 6];
      s.files[i] = kAdmitted[field & 63];
      s.sq[i] = rect_squares(s.rows[i], s.files[i]);
    }
    return s;
  };
  std::vector<Shape> shapes(cubes.size());
  for (size_t c = 0; c < cubes.size(); ++c) shapes[c] = shape_of(cubes[c]);

  // The positions to answer, as a bitmap in index order (bit i: index i; 256 MiB at five
  // pieces), less what the front line answers: it never reaches a region. A region's positions are
  // gathered from it, reading whole words where the last slot is free.
  std::vector<uint64_t> care_bits = care_bitmap(enc, canon);
  // RegionFreedom: the wins a capture reaches need no answer; the draws it reaches are gathered
  // beside each region's positions (capped there).
  const std::vector<uint64_t>* capped_bits = nullptr;  // read in place: 256 MiB at five pieces
  // The positions the evasion search decides, and the care bits with them kept: each region is
  // planned both ways, and leaves them to the search only where that pays (below).
  const std::vector<uint64_t>* evasion_bits = nullptr;
  const std::vector<uint64_t>* missed_bits = nullptr;  // a region holding one keeps them all
  std::vector<uint64_t> care_kept;
  if (freedom) {
    if (freedom->capture_wins.size() == care_bits.size())
      for (size_t w = 0; w < care_bits.size(); ++w) care_bits[w] &= ~freedom->capture_wins[w];
    if (freedom->capture_draws.size() == care_bits.size()) capped_bits = &freedom->capture_draws;
    if (freedom->evasions.size() == care_bits.size() &&
        std::any_of(freedom->evasions.begin(), freedom->evasions.end(), [](uint64_t w) { return w != 0; })) {
      care_kept = care_bits;
      for (size_t w = 0; w < care_bits.size(); ++w) care_bits[w] &= ~freedom->evasions[w];
      evasion_bits = &freedom->evasions;
      if (freedom->evasions_missed.size() == care_bits.size()) missed_bits = &freedom->evasions_missed;
    }
  }
  for (logic::CubeWord c : answered) {
    const Shape s = shape_of(c);
    // Every word of index bits the cube's side to move and first k - 1 squares admit loses the
    // last slot's squares it admits.
    auto clear = [&](auto&& self, int slot, uint64_t prefix) -> void {
      if (slot == k_ - 1) {
        care_bits[prefix] &= ~s.sq[size_t(slot)];
        if (!care_kept.empty()) care_kept[prefix] &= ~s.sq[size_t(slot)];
        return;
      }
      for (uint64_t x = s.sq[size_t(slot)]; x; x &= x - 1)
        self(self, slot + 1, prefix << kSquareBits | uint64_t(std::countr_zero(x)));
    };
    for (uint64_t stm = 0; stm < 2; ++stm)
      if (s.stm >> stm & 1) clear(clear, 0, stm);
  }
  auto gather = [&](const std::vector<uint64_t>& bitmap, const Layout& lay, uint32_t r, uint64_t* out) {
    uint64_t base = uint64_t(r >> (kSquareBits * lay.fixed.size())) << stm_shift(k_);
    for (size_t i = 0; i < lay.fixed.size(); ++i)
      base |= uint64_t((r >> (kSquareBits * (lay.fixed.size() - 1 - i))) & kSquareMask)
              << square_shift(k_, lay.fixed[i]);
    const unsigned s0 = unsigned(square_shift(k_, lay.free[0])), s1 = unsigned(square_shift(k_, lay.free[1]));
    auto bit = [&](uint64_t index) { return bitmap[index >> 6] >> (index & 63) & 1; };
    if (lay.nfree == 1) {
      if (s0 == 0) {
        out[0] = bitmap[base >> 6];
        return;
      }
      out[0] = 0;
      for (uint64_t a = 0; a < 64; ++a) out[0] |= bit(base | a << s0) << a;
      return;
    }
    for (uint64_t a = 0; a < 64; ++a) {
      const uint64_t row = base | a << s0;
      if (s1 == 0) {
        out[a] = bitmap[row >> 6];
        continue;
      }
      uint64_t w = 0;
      for (uint64_t b = 0; b < 64; ++b) w |= bit(row | b << s1) << b;
      out[a] = w;
    }
  };
  // Regions that hold no position: the fixed squares alone decide most of them (two pieces on one
  // square, a pawn on the last rank, White's king off its canonical squares), but not all, so
  // the plan skips regions whose gathered bitmap is empty as it goes.
  auto plan_for = [&](const Layout& lay, int subcube, auto&& take, const std::vector<uint64_t>& care = {}) {
    return greedy_plan(
        shapes, lay, subcube, regions, words, unsigned(implied), lists, picking, take,
        [&](uint32_t r, uint64_t* out, uint64_t* capped) {
          gather(care.empty() ? care_bits : care, lay, r, out);
          if (capped_bits) gather(*capped_bits, lay, r, capped);
        },
        threads);
  };

  // Which pieces to fix: the cubes of a cover tend to pin some pieces and leave others free, and
  // a cube spans every region whose fixed squares it admits, so the layouts differ severalfold in
  // copies (KNvKP: 12.5 per cube with the kings fixed, 2.7 with knight and pawn). Unless told,
  // every choice is tried on a sixteenth of its regions (a fixed choice, so the index stays a
  // function of the cover) and the one with the fewest cubes kept. At five pieces, where the ten
  // trials cost more than the plan they choose, every choice is first tried on a sixty-fourth of
  // the regions (within the sixteenth), and only the kFinalists best go on to the sixteenth.
  // Then which field of the cube words is the subcube one (two free pieces): the one whose
  // subcubes cost the fewest extra cubes, tried the same way on the chosen layout.
  std::optional<Layout> best_layout;
  auto sampled = [](uint32_t r) { return ((r * 0x9E3779B1u) >> 28) == 0; };
  auto sampled_rough = [](uint32_t r) { return ((r * 0x9E3779B1u) >> 26) == 0; };
  const int nfree = k_ - nfixed;
  // The first free piece's files while the slots are chosen.
  int subcube = subcube_field ? *subcube_field : nfree == 2 ? 1 : kNoSubcube;
  size_t fewest = SIZE_MAX;  // the sampled cubes of the best layout with `subcube`
  if (fixed) {
    best_layout = Layout(k_, *fixed);
  } else {
    // Bytes: the directory, and the cubes a sixteenth of the regions need, sixteen times.
    const std::vector<std::vector<int>> choices = slot_choices(k_, nfixed);
    std::vector<char> finalist(choices.size(), 1);
    if (k_ == 5 && choices.size() > kFinalists) {
      std::vector<std::pair<size_t, size_t>> rough;  // bytes on the sixty-fourth, choice
      for (size_t i = 0; i < choices.size(); ++i) {
        const Layout lay(k_, choices[i]);
        rough.push_back({64 * 4 * plan_for(lay, subcube, sampled_rough).ids.size() + directory_bytes(lay), i});
      }
      std::sort(rough.begin(), rough.end());
      std::fill(finalist.begin(), finalist.end(), 0);
      for (size_t i = 0; i < kFinalists; ++i) finalist[rough[i].second] = 1;
    }
    size_t best_bytes = 0;
    for (size_t i = 0; i < choices.size(); ++i) {
      if (!finalist[i]) continue;
      const Layout lay(k_, choices[i]);
      const size_t cubes_sampled = plan_for(lay, subcube, sampled).ids.size();
      const size_t bytes = 16 * 4 * cubes_sampled + directory_bytes(lay);
      if (!best_layout || bytes < best_bytes) best_bytes = bytes, best_layout = lay, fewest = cubes_sampled;
    }
  }
  if (nfree == 2 && !subcube_field) {
    // The first of the fewest, in field order.
    for (int field = 0; field < 4; ++field) {
      if (field == subcube && fewest != SIZE_MAX) continue;  // the slots' trial measured it
      const size_t n = plan_for(*best_layout, field, sampled).ids.size();
      if (n < fewest || (n == fewest && field < subcube)) fewest = n, subcube = field;
    }
  }
  subcube_ = uint8_t(subcube);
  auto every_region = [](uint32_t) { return true; };
  Plan best = plan_for(*best_layout, subcube, every_region);
  care_bits = {};
  const Layout& lay = *best_layout;
  // Each region planned again answering the positions the evasion search decides: a region
  // leaves them to the search where that saves its cubes (words of 4 bytes) at least
  // min_bytes_per_thousand_searched bytes per thousand of them and the search misses none of its
  // positions, else keeps this plan's.
  std::vector<char> searched_region;
  if (evasion_bits) {
    const Plan kept = plan_for(lay, subcube, every_region, care_kept);
    care_kept = {};
    searched_region.assign(regions, 0);
    parallel_for(regions, threads, 1024, no_progress(), [&](uint64_t begin, uint64_t end, int) {
      std::vector<uint64_t> decided(words);
      for (uint32_t r = uint32_t(begin); r < end; ++r) {
        if (missed_bits) {
          gather(*missed_bits, lay, r, decided.data());
          if (std::any_of(decided.begin(), decided.end(), [](uint64_t w) { return w != 0; })) continue;
        }
        gather(*evasion_bits, lay, r, decided.data());
        uint64_t n = 0;
        for (uint64_t w : decided) n += uint64_t(std::popcount(w));
        const int64_t saved =
            (int64_t(kept.first[r + 1] - kept.first[r]) - int64_t(best.first[r + 1] - best.first[r])) * 4;
        searched_region[r] = n && saved * 1000 >= int64_t(n) * int64_t(freedom->min_bytes_per_thousand_searched);
      }
    });
    Plan merged;
    merged.first.assign(size_t(regions) + 1, 0);
    merged.fallback.assign(regions, 0);
    for (uint32_t r = 0; r < regions; ++r) {
      const Plan& from = searched_region[r] ? best : kept;
      merged.first[r] = uint32_t(merged.ids.size());
      merged.fallback[r] = from.fallback[r];
      merged.append(from, from.first[r], from.first[r + 1]);
      merged.largest = std::max<size_t>(merged.largest, from.first[r + 1] - from.first[r]);
    }
    merged.first[regions] = uint32_t(merged.ids.size());
    best = std::move(merged);
  }
  fixed_ = lay.fixed;
  free_ = lay.free;
  largest_ = best.largest;
  if (fields == RegionFields::Settled) settle_fields(best.words, best.least, k_ - fixed_count(k_), subcube);

  // Each region's cubes, restricted to the free pieces' inputs, with their outputs. With White's
  // king fixed, the directory numbers its canonical squares only (regions of other squares hold
  // nothing): in square order, so the regions' cubes stay in directory order.
  kings_ = lay.fixed[0] == 0 ? kings_mode : 0;
  // Blocks of kBlockRegions regions in directory order (RegionIndex::query). The unit: the fewest
  // cubes that let the largest region's count fit a byte.
  unit_shift_ = std::min<uint8_t>(min_unit_shift, 16);
  while ((best.largest + (size_t{1} << unit_shift_) - 1) >> unit_shift_ > kMaxUnits) ++unit_shift_;
  const uint32_t unit = 1u << unit_shift_, squares = kKingSquares.count[kings_];
  const uint32_t numbered = numbered_regions(kings_), blocks = (numbered + kBlockRegions - 1) / kBlockRegions;
  const uint32_t below_mask = (1u << below_king) - 1;
  std::vector<uint8_t> block_bytes(size_t(blocks) * kBlockBytes, 0);
  std::vector<uint64_t> searched((numbered + 63) / 64, 0);  // Hot::searched
  std::vector<uint32_t> region_cubes;
  region_cubes.reserve(best.ids.size() + kScanPad);
  for (uint32_t r = 0; r < regions; ++r) {
    const uint32_t sq0 = (r >> below_king) & kSquareMask, stm = r >> (below_king + kSquareBits);
    if (kings_ && kKingSquares.id[kings_][sq0] == 0 && sq0 != 0) {         // square 0 (a8) is canonical: id 0
      if (best.first[r + 1] != best.first[r] || best.fallback[r]) return;  // a non-canonical king holds positions
      continue;
    }
    // The canonical squares in square order: the numbers d ascend with r.
    const uint32_t d = (stm * squares + kKingSquares.id[kings_][sq0]) << below_king | (r & below_mask);
    uint8_t* block = block_bytes.data() + size_t(d / kBlockRegions) * kBlockBytes;
    const uint32_t i = d % kBlockRegions;
    if (i == 0) {
      if (region_cubes.size() > UINT32_MAX) return;  // more cubes than a block's 32 bits can place
      set_block_first_cube(block, uint32_t(region_cubes.size()));
    }
    if (!searched_region.empty() && searched_region[r]) searched[d >> 6] |= uint64_t{1} << (d & 63);
    const uint32_t n = best.first[r + 1] - best.first[r], units = (n + unit - 1) / unit;
    set_block_region(block, i, units, best.fallback[r]);
    for (uint32_t j = best.first[r]; j < best.first[r + 1]; ++j) region_cubes.push_back(best.words[j]);
    region_cubes.resize(region_cubes.size() + (units * unit - n), 0);  // 0 matches no query
  }
  std::vector<uint32_t> dir(block_bytes.size() / sizeof(uint32_t));
  std::memcpy(dir.data(), block_bytes.data(), block_bytes.size());
  region_cubes.resize(region_cubes.size() + kScanPad, 0);
  // Directory, the searched regions and the cubes in one run of 64-bit words, for the prober's arena.
  if (std::any_of(searched.begin(), searched.end(), [](uint64_t w) { return w != 0; })) {
    evasions_ = CheckEvasions::Searched;
    searched_words_ = searched.size();
  }
  dir_words_ = (dir.size() * sizeof(uint32_t) + 7) / 8;
  words_.assign(dir_words_ + searched_words_ + (region_cubes.size() * sizeof(uint32_t) + 7) / 8, 0);
  std::memcpy(words_.data(), dir.data(), dir.size() * sizeof(uint32_t));
  if (searched_words_) std::copy(searched.begin(), searched.end(), words_.begin() + ptrdiff_t(dir_words_));
  std::memcpy(words_.data() + dir_words_ + searched_words_, region_cubes.data(),
              region_cubes.size() * sizeof(uint32_t));
  ids_ = std::move(best.ids);
  first_id_ = std::move(best.first);
  ids_.shrink_to_fit();
  hot_size_ = words_.size();
  words_.shrink_to_fit();
}

std::vector<uint64_t> RegionIndex::care(const Encoding& enc, const CoverCanon& canon, uint32_t stm, int wk, int bk) {
  if (!applies_to(enc) || wk == bk || (kKingAttacks[size_t(wk)] & bb(Square(bk)))) return {};
  const Slots slots(enc);
  const int bk_slot = slots.bk, nfree = slots.nfree;
  const std::array<int, 3> fs = slots.free;
  std::array<Piece, 3> fp{};
  for (int i = 0; i < nfree; ++i) fp[size_t(i)] = enc.piece(fs[size_t(i)]);

  const bool by_symmetry = canon.scheme() != CanonScheme::None;
  // Black to move is the colour swap's business in symmetric balances under the full scheme.
  if (canon.scheme() == CanonScheme::Full && enc.balance().is_symmetric() && stm == 1) return {};
  // The representative is the smallest index among the symmetric images, and the white king's
  // square comes first in the index: it is the minimum of the king's orbit. Only with the king on
  // a symmetry axis does the rest of the placement decide (checked one by one below).
  const int group = enc.balance().has_pawns() ? 2 : 8;
  int orbit_min = 64, at_min = 0;
  for (int g = 0; g < group; ++g) orbit_min = std::min<int>(orbit_min, kTransforms[size_t(g)][size_t(wk)]);
  for (int g = 0; g < group; ++g) at_min += kTransforms[size_t(g)][size_t(wk)] == orbit_min;
  if (by_symmetry && orbit_min != wk) return {};
  const bool per_position = by_symmetry && at_min > 1;
  // Identical pieces ascend (they sit in adjacent slots: the same colour and type).
  std::array<bool, 2> ascending{};
  for (int i = 0; i + 1 < nfree; ++i) ascending[size_t(i)] = by_symmetry && fp[size_t(i)] == fp[size_t(i + 1)];

  // Legal as Encoding::is_legal has it: no shared squares, no pawn on rank 1 or 8, the side not
  // to move not in check.
  const Bitboard kings = bb(Square(wk)) | bb(Square(bk));
  const Color mover = Color(stm);
  const Square their_king = Square(stm == 0 ? bk : wk);
  auto allowed = [&](Piece p, Bitboard occ) { return ~occ & (type_of(p) == Pawn ? ~kPromotionRanks : ~Bitboard{0}); };
  auto checks = [&](Piece p, Square s, Bitboard occ) {
    return color_of(p) == mover && attacks_square(type_of(p), mover, s, their_king, occ);
  };
  const size_t words = size_t(1) << (kSquareBits * (nfree - 1));
  std::vector<uint64_t> t(words, 0);
  for (Bitboard as = allowed(fp[0], kings); as;) {
    const Square sa = pop_lsb(as);
    if (nfree == 1) {
      if (!checks(fp[0], sa, kings | bb(sa))) t[0] |= bb(sa);
      continue;
    }
    for (Bitboard bs = allowed(fp[1], kings | bb(sa)); bs;) {
      const Square sb = pop_lsb(bs);
      if (ascending[0] && sa > sb) continue;
      if (nfree == 2) {
        const Bitboard occ = kings | bb(sa) | bb(sb);
        if (!checks(fp[0], sa, occ) && !checks(fp[1], sb, occ)) t[sa] |= bb(sb);
        continue;
      }
      for (Bitboard cs = allowed(fp[2], kings | bb(sa) | bb(sb)); cs;) {
        const Square sc = pop_lsb(cs);
        if (ascending[1] && sb > sc) continue;
        const Bitboard occ = kings | bb(sa) | bb(sb) | bb(sc);
        if (!checks(fp[0], sa, occ) && !checks(fp[1], sb, occ) && !checks(fp[2], sc, occ))
          t[64 * size_t(sa) + size_t(sb)] |= bb(sc);
      }
    }
  }
  if (per_position)
    for (size_t w = 0; w < t.size(); ++w)
      for (uint64_t bits = t[w]; bits; bits &= bits - 1) {
        Placement p;
        p.stm = mover;
        p.sq[0] = Square(wk);
        p.sq[size_t(bk_slot)] = Square(bk);
        const unsigned f = unsigned(std::countr_zero(bits));
        if (nfree >= 2) p.sq[size_t(fs[size_t(nfree - 2)])] = Square(w & kSquareMask);
        if (nfree == 3) p.sq[size_t(fs[0])] = Square(w >> kSquareBits);
        p.sq[size_t(fs[size_t(nfree - 1)])] = Square(f);
        if (!canon.is_representative(p)) t[w] &= ~(uint64_t{1} << f);
      }
  if (std::all_of(t.begin(), t.end(), [](uint64_t w) { return w == 0; })) return {};
  return t;
}

std::vector<uint64_t> RegionIndex::care_bitmap(const Encoding& enc, const CoverCanon& canon) {
  const int k = enc.pieces();
  std::vector<uint64_t> bits(size_t(1) << (enc.bits() - 6), 0);
  if (!applies_to(enc)) return bits;
  const Slots slots(enc);
  const int nfree = slots.nfree;
  auto shift = [&](int slot) { return unsigned(square_shift(k, slot)); };
  for (uint32_t kr = 0; kr < 2 * 64 * 64; ++kr) {  // side to move and both kings
    const uint32_t stm = kr >> (2 * kSquareBits), wk = (kr >> kSquareBits) & kSquareMask, bk = kr & kSquareMask;
    const std::vector<uint64_t> t = care(enc, canon, stm, int(wk), int(bk));
    const uint64_t base =
        uint64_t(stm) << (kSquareBits * k) | uint64_t(wk) << shift(0) | uint64_t(bk) << shift(slots.bk);
    for (size_t w = 0; w < t.size(); ++w) {
      if (!t[w]) continue;
      // care()'s word w: the free pieces but the last on its squares, bits: the last's square.
      uint64_t row = base;
      if (nfree >= 2) row |= uint64_t(w & kSquareMask) << shift(slots.free[size_t(nfree - 2)]);
      if (nfree == 3) row |= uint64_t(w >> kSquareBits) << shift(slots.free[0]);
      const unsigned last = shift(slots.free[size_t(nfree - 1)]);
      if (last == 0) {
        bits[row >> 6] |= t[w];
        continue;
      }
      for (uint64_t x = t[w]; x; x &= x - 1) {
        const uint64_t index = row | uint64_t(std::countr_zero(x)) << last;
        bits[index >> 6] |= uint64_t{1} << (index & 63);
      }
    }
  }
  return bits;
}

void RegionIndex::save_state(ByteWriter& w) const {
  w.put(int32_t(k_));
  w.put(fixed_);
  w.put(free_);
  w.put(uint64_t(dir_words_));
  w.put(uint64_t(largest_));
  w.put(kings_);
  w.put(unit_shift_);
  w.put(subcube_);
  w.put(uint8_t(evasions_));
  w.put(uint64_t(searched_words_));
}

}  // namespace egtmin::probe
