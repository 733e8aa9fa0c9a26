// SPDX-License-Identifier: GPL-3.0-or-later
// Building a CubeIndex from a cover's cubes (front line, tree, leaves) and saving its state for a
// probe layout; an index read back from a layout and its queries are in cube_index.cpp.
#include "probe/cube_index.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <tuple>

namespace egtmin::probe {

namespace {
// A leaf of one 64-cube block is matched in one step: splitting it further cannot pay.
constexpr size_t kLeafMax = 64;
// A leaf of input rows keeps the greedy order for this many cubes, where most probes that pass
// the front line stop; past them it groups the cubes by one piece's squares (its guide).
constexpr size_t kGreedyInputRowCubes = 1024;
// The guide is the piece whose blocks then store fewest rows, among those whose blocks a probe
// enters at most this many times as often as with the guide entering fewest. Why: the guide
// entering fewest is rarely the one grouping the cubes into fewest rows (KQQBvK: the lone king's
// squares, 27,181 rows; a queen's, 25,364 rows, 7 % fewer bytes, for 26 % more blocks entered),
// and a block entered costs a few row loads, a small part of a probe (docs/measured.md).
constexpr double kGuideEnteredSlack = 1.3;
// Bit b of a square, over the 64 squares: the squares with that bit set.
constexpr std::array<uint64_t, kSquareBits> kSquareBitMasks = [] {
  std::array<uint64_t, kSquareBits> m{};
  for (int s = 0; s < 64; ++s)
    for (int b = 0; b < kSquareBits; ++b)
      if (s >> b & 1) m[size_t(b)] |= uint64_t{1} << s;
  return m;
}();
// Front-line candidates: the cubes with the fewest literals (only big cubes hold many queries),
// judged on at most this many sampled queries.
constexpr size_t kFrontCandidates = 4096;
constexpr size_t kFrontQueries = 16384;
constexpr size_t kFrontPayoff = 30;
// Within a node, each cube is checked for containment in the front line and in this many of the
// node's biggest kept cubes (bounding the pruning at O(cubes) per node).
constexpr size_t kAbsorbers = 256;

// A cube restricted to a node's region: the inputs the path fixed take the path's values.
struct Region {
  logic::CubeWord fixed_pairs = 0;  // 11 at every fixed input
  logic::CubeWord pattern = 0;      // the path's values there, as PCN pairs
  // Only meaningful for cubes that admit the region.
  logic::CubeWord restrict(logic::CubeWord c) const { return (c & ~fixed_pairs) | pattern; }
  bool admits(logic::CubeWord c) const { return (c & pattern) == pattern; }
};

Region region_of(uint64_t used, uint64_t values, int inputs) {
  Region r;
  for (int i = 0; i < inputs; ++i)
    if (used >> i & 1) {
      r.fixed_pairs |= logic::pair_mask(i);
      r.pattern |= logic::CubeWord(values >> i & 1 ? 1 : 2) << logic::pair_shift(i);
    }
  return r;
}

bool inside(logic::CubeWord small, logic::CubeWord big) { return ((small & ~big) & logic::kInputMask) == 0; }

}  // namespace

CubeIndex::CubeIndex(std::span<const logic::CubeWord> cubes, int inputs, double max_copies, double split_copies,
                     std::span<const uint64_t> queries, size_t front_cubes, LeafRows leaf_rows)
    : inputs_(inputs), split_copies_(split_copies), leaf_rows_(leaf_rows), cubes_(cubes.begin(), cubes.end()) {
  set_groups();
  const bool sampled = !queries.empty();
  budget_ = size_t(std::max(max_copies - 1.0, 0.0) * double(cubes.size()));

  // 1. The front line, and what it leaves to the tree: queries it does not answer, and cubes it
  // does not swallow (a cube inside a front cube is never the first answer).
  choose_front(queries, front_cubes);
  std::vector<uint64_t> rest_queries;
  for (uint64_t q : queries)
    if (!front_match(q).hits) rest_queries.push_back(q);
  std::vector<uint32_t> rest_cubes;
  for (uint32_t c = 0; c < cubes_.size(); ++c) {
    bool swallowed = false;
    for (size_t f = 0; f < front_cubes_.size() && !swallowed; ++f) swallowed = inside(cubes_[c], front_cubes_[f]);
    if (!swallowed) rest_cubes.push_back(c);
  }

  // 2. The tree, best first: always split the pending node with the most expected work (the share
  // of probes reaching it times its 64-cube blocks), so the copy budget goes where probes go
  // instead of to whichever subtree a depth-first build reaches first.
  struct Pending {
    double priority;
    uint64_t used;    // inputs fixed on the path here
    uint64_t values;  // their values (bit i = input i)
    double share;
    size_t slot;  // where its reference goes in nodes_ (SIZE_MAX: the root)
    int level;
    std::vector<uint32_t> cubes;
    std::vector<uint64_t> queries;  // the sampled queries reaching this node
  };
  auto cmp = [](const Pending* a, const Pending* b) { return a->priority < b->priority; };
  std::vector<Pending*> heap;
  std::vector<std::unique_ptr<Pending>> owned;
  const double all_queries = double(rest_queries.size());
  auto push = [&](std::vector<uint32_t> cs, uint64_t used, uint64_t values, double share, size_t slot, int level,
                  std::vector<uint64_t> qs) {
    depth_ = std::max(depth_, level);
    const double reach = sampled ? (all_queries > 0 ? double(qs.size()) / all_queries : 0.0) : share;
    const double blocks = double((cs.size() + 63) / 64);
    owned.push_back(std::make_unique<Pending>(
        Pending{reach * blocks, used, values, share, slot, level, std::move(cs), std::move(qs)}));
    heap.push_back(owned.back().get());
    std::push_heap(heap.begin(), heap.end(), cmp);
  };
  auto set_ref = [&](size_t slot, uint64_t ref) {
    if (slot == SIZE_MAX)
      root_ = ref;
    else
      build_nodes_[slot] = ref;
  };
  push(std::move(rest_cubes), 0, 0, 1.0, SIZE_MAX, 0, std::move(rest_queries));
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), cmp);
    Pending* p = heap.back();
    heap.pop_back();
    const Split sp = sampled && p->queries.empty() ? Split{} : choose(p->cubes, p->used, p->queries);
    bool split = false;
    if (sp.first >= 0 && sp.total - p->cubes.size() <= budget_) {
      const int w = sp.width, n = 1 << w;
      uint64_t used = p->used;
      for (int b = 0; b < w; ++b) used |= uint64_t{1} << (sp.first + b);
      std::vector<std::vector<uint32_t>> children(static_cast<size_t>(n));
      std::vector<uint64_t> child_values(static_cast<size_t>(n));
      size_t total = 0;
      for (int v = 0; v < n; ++v) {
        uint64_t values = p->values;
        for (int b = 0; b < w; ++b)
          if (v >> (w - 1 - b) & 1) values |= uint64_t{1} << (sp.first + b);
        child_values[size_t(v)] = values;
        for (uint32_t c : p->cubes)
          if (admits(cubes_[c], sp, v)) children[size_t(v)].push_back(c);
        prune(children[size_t(v)], used, values);
        total += children[size_t(v)].size();
      }
      // Copies are counted after pruning: what the children really hold.
      if (total <= p->cubes.size() + budget_) {
        split = true;
        budget_ -= std::min(budget_, total > p->cubes.size() ? total - p->cubes.size() : 0);
        const size_t off = build_nodes_.size();
        build_nodes_.resize(off + size_t(n));
        set_ref(p->slot, inner_ref(uint64_t(w), uint64_t(inputs_ - sp.first - w), off));
        const unsigned shift = unsigned(inputs_ - sp.first - w);
        std::vector<std::vector<uint64_t>> qs(static_cast<size_t>(n));
        for (uint64_t q : p->queries) qs[(q >> shift) & uint64_t(n - 1)].push_back(q);
        for (int v = 0; v < n; ++v)
          push(std::move(children[size_t(v)]), used, child_values[size_t(v)], p->share / double(n), off + size_t(v),
               p->level + 1, std::move(qs[size_t(v)]));
      }
    }
    if (!split) set_ref(p->slot, make_leaf(p->cubes, p->queries, p->used, p->values));
    p->cubes = {};
    p->queries = {};
  }
  std::vector<uint64_t> words = std::move(front_block_);
  words.insert(words.end(), build_nodes_.begin(), build_nodes_.end());
  words.insert(words.end(), build_slices_.begin(), build_slices_.end());
  node_words_ = build_nodes_.size();
  slice_words_ = build_slices_.size();
  own_ = std::move(words);
  words_ = own_.data();
  front_block_ = {};
  build_nodes_ = {};
  build_slices_ = {};
  ids_.shrink_to_fit();
}

CubeIndex CubeIndex::front_line(std::span<const logic::CubeWord> cubes, int inputs, std::span<const uint64_t> queries) {
  CubeIndex idx;
  idx.inputs_ = inputs;
  idx.cubes_.assign(cubes.begin(), cubes.end());
  idx.set_groups();
  idx.choose_front(queries);
  idx.own_ = std::move(idx.front_block_);
  idx.words_ = idx.own_.data();
  idx.front_block_ = {};
  idx.cubes_ = {};  // only the tree's leaves refer to them
  return idx;
}

void CubeIndex::save_state(ByteWriter& w) const {
  const_cast<CubeIndex*>(this)->visit_state([&](const auto& field) { w.put(field); });
}

void CubeIndex::drop_tree() {
  own_.resize(front_words_);
  own_.shrink_to_fit();
  words_ = own_.data();
  node_words_ = slice_words_ = 0;
  root_ = kLeaf;
  ids_ = {};
  depth_ = 0;
  largest_leaf_ = 0;
}

void CubeIndex::prune(std::vector<uint32_t>& ids, uint64_t used, uint64_t values) const {
  // Within the node's region, a cube inside another kept cube or inside a front cube is never
  // needed: every query reaching the node that it holds is held by the other one too (and cubes of
  // different outputs never share a care position, so either answer is exact).
  const Region r = region_of(used, values, inputs_);
  std::vector<std::pair<int, uint32_t>> order(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) order[i] = {logic::literals(r.restrict(cubes_[ids[i]])), ids[i]};
  std::stable_sort(order.begin(), order.end());
  // Front cubes that miss the region say nothing about it (restricting them would pretend they do).
  std::array<logic::CubeWord, kFront> front{};
  int fronts = 0;
  for (logic::CubeWord f : front_cubes_)
    if (r.admits(f)) front[size_t(fronts++)] = r.restrict(f);
  std::vector<logic::CubeWord> absorbers;
  std::vector<uint32_t> kept;
  kept.reserve(ids.size());
  for (const auto& [lits, id] : order) {
    const logic::CubeWord c = r.restrict(cubes_[id]);
    bool swallowed = false;
    for (int f = 0; f < fronts && !swallowed; ++f) swallowed = inside(c, front[size_t(f)]);
    for (size_t a = 0; a < absorbers.size() && !swallowed; ++a) swallowed = inside(c, absorbers[a]);
    if (swallowed) continue;
    kept.push_back(id);
    if (absorbers.size() < kAbsorbers) absorbers.push_back(c);
  }
  // Keep the cover's order (scan order is decided by make_leaf).
  std::sort(kept.begin(), kept.end());
  ids = std::move(kept);
}

void CubeIndex::set_groups() {
  // The side-to-move bit alone, then runs of 3 inputs: with the paper's encoding, each piece's
  // rank bits and file bits.
  groups_ = 0;
  for (int first = 0; first < inputs_ && groups_ < kMaxGroups;) {
    const int width = first == 0 ? 1 : std::min(3, inputs_ - first);
    group_first_[size_t(groups_)] = uint8_t(first);
    group_width_[size_t(groups_)] = uint8_t(width);
    group_shift_[size_t(groups_)] = uint8_t(inputs_ - first - width);
    group_mask_[size_t(groups_)] = (1u << width) - 1;
    ++groups_;
    first += width;
  }
  // The front line's groups: the side-to-move bit, then whole squares.
  front_groups_ = 0;
  uint32_t row = kFirstGroupRow;
  for (int first = 0; first < inputs_ && front_groups_ < kMaxFrontGroups;) {
    const int width = first == 0 ? 1 : std::min(6, inputs_ - first);
    const size_t g = size_t(front_groups_++);
    front_first_[g] = uint8_t(first);
    front_width_[g] = uint8_t(width);
    front_shift_[g] = uint8_t(inputs_ - first - width);
    front_mask_[g] = (1u << width) - 1;
    front_offset_[g] = row;
    row += 1u << width;
    first += width;
  }
  front_rows_ = row;
}

uint8_t CubeIndex::admitted_values(logic::CubeWord c, int g) const {
  const int first = group_first_[size_t(g)], width = group_width_[size_t(g)];
  uint8_t set = 0;
  for (int v = 0; v < (1 << width); ++v) {
    bool ok = true;
    for (int b = 0; b < width; ++b) {
      const unsigned pair = unsigned(c >> logic::pair_shift(first + b)) & 3;
      if (!(pair & ((v >> (width - 1 - b) & 1) ? 1u : 2u))) ok = false;
    }
    if (ok) set |= uint8_t(1u << v);
  }
  return set;
}

void CubeIndex::append_slab(std::span<const uint32_t> ids, unsigned active, std::vector<uint64_t>& out) const {
  const size_t blocks = (ids.size() + 63) / 64;
  size_t rows = kFirstGroupRow;
  for (int g = 0; g < groups_; ++g)
    if (active >> g & 1) rows += size_t{1} << group_width_[size_t(g)];
  const size_t base = out.size();
  out.resize(base + rows * blocks, 0);
  uint64_t* slab = out.data() + base;
  for (size_t b = 0; b < blocks; ++b) slab[kOnesRow * blocks + b] = ~uint64_t{0};
  for (size_t i = 0; i < ids.size(); ++i) {
    const size_t b = i / 64;
    const uint64_t bit = uint64_t{1} << (i % 64);
    const unsigned o = unsigned(logic::output_of(cubes_[ids[i]]));
    if (o >> 1 & 1) slab[kOutHiRow * blocks + b] |= bit;
    if (o & 1) slab[kOutLoRow * blocks + b] |= bit;
    size_t row = kFirstGroupRow;
    for (int g = 0; g < groups_; ++g) {
      if (!(active >> g & 1)) continue;
      for (unsigned set = admitted_values(cubes_[ids[i]], g); set; set &= set - 1)
        slab[(row + size_t(std::countr_zero(set))) * blocks + b] |= bit;
      row += size_t{1} << group_width_[size_t(g)];
    }
  }
}

uint64_t CubeIndex::admitted_squares(logic::CubeWord c, int piece) const {
  uint64_t squares = ~uint64_t{0};
  for (int b = 0; b < kSquareBits; ++b) {
    // Squares with bit b (of the six, most significant first) set.
    const uint64_t ones = kSquareBitMasks[size_t(kSquareBits - 1 - b)];
    const unsigned pair = unsigned(c >> logic::pair_shift(square_input(piece) + b)) & 3;
    squares &= (pair & 2 ? ~ones : 0) | (pair & 1 ? ones : 0);
  }
  return squares;
}

uint64_t CubeIndex::input_rows_stored(std::span<const uint32_t> ids) const {
  uint64_t rows = 0;
  for (size_t first = 0; first < ids.size(); first += 64) {
    // Bit i: some cube of the block excludes a 0 (a 1) at input i; its row is then stored.
    uint64_t excludes0 = 0, excludes1 = 0;
    unsigned outputs = 0;
    for (size_t k = first; k < std::min(ids.size(), first + 64); ++k) {
      const logic::CubeWord c = cubes_[ids[k]];
      const logic::CubeWord x = c & logic::kInputMask;
      excludes0 |= ~(x >> 1) & logic::kLowBits;  // pair bit 1 clear: may not be 0
      excludes1 |= ~x & logic::kLowBits;         // pair bit 0 clear: may not be 1
      outputs |= 1u << unsigned(logic::output_of(c));
    }
    rows += uint64_t(std::popcount(excludes0) + std::popcount(excludes1));  // unused inputs admit both
    if (std::popcount(outputs) > 1) rows += 2;
  }
  return rows;
}

uint64_t CubeIndex::arrange_input_rows(std::vector<uint32_t>& order) const {
  // Past the greedy head, the cubes sorted by the guide's admitted squares, then as words (cubes
  // alike share their blocks' rows): a probe enters only the blocks admitting its square. The
  // guide: the piece whose blocks store fewest rows of those a probe enters nearly as seldom as
  // the fewest (kGuideEnteredSlack).
  const int pieces = (inputs_ - 1) / kSquareBits;
  if (pieces < 1) return 0;
  const size_t head = std::min(order.size(), kGreedyInputRowCubes);
  struct Arranged {
    std::vector<uint32_t> order;
    uint64_t entered = 0, rows = 0;  // squares admitted summed over the blocks; rows stored
  };
  std::vector<Arranged> by_guide;
  for (int piece = 0; piece < pieces; ++piece) {
    std::vector<std::tuple<uint64_t, logic::CubeWord, uint32_t>> keyed;  // squares, cube, id
    keyed.reserve(order.size());
    for (uint32_t id : order) keyed.emplace_back(admitted_squares(cubes_[id], piece), cubes_[id], id);
    std::sort(keyed.begin() + long(head), keyed.end());
    Arranged a;
    a.order.reserve(order.size());
    for (size_t first = 0; first < keyed.size(); first += 64) {
      uint64_t any = 0;
      for (size_t k = first; k < std::min(keyed.size(), first + 64); ++k) any |= std::get<0>(keyed[k]);
      a.entered += uint64_t(std::popcount(any));
    }
    for (const auto& k : keyed) a.order.push_back(std::get<2>(k));
    a.rows = input_rows_stored(a.order);
    by_guide.push_back(std::move(a));
  }
  const uint64_t fewest = std::min_element(by_guide.begin(), by_guide.end(), [](const Arranged& a, const Arranged& b) {
                            return a.entered < b.entered;
                          })->entered;
  size_t best = by_guide.size();  // the guide entering fewest always qualifies
  for (size_t g = 0; g < by_guide.size(); ++g)
    if (double(by_guide[g].entered) <= kGuideEnteredSlack * double(fewest) &&
        (best == by_guide.size() || by_guide[g].rows < by_guide[best].rows))
      best = g;
  order = std::move(by_guide[best].order);
  return best;
}

void CubeIndex::append_input_rows(std::span<const uint32_t> ids, uint64_t guide, std::vector<uint64_t>& out) const {
  // The default output, which a block whose cubes all have it gives without rows: the commonest.
  std::array<size_t, 4> tally{};
  for (uint32_t id : ids) ++tally[size_t(logic::output_of(cubes_[id]))];
  const uint64_t fallback = uint64_t(std::max_element(tally.begin(), tally.end()) - tally.begin());
  const int pieces = (inputs_ - 1) / kSquareBits;
  const uint64_t guide_shift = uint64_t(square_shift(pieces, int(guide)));
  out.push_back(fallback | guide_shift << kGuideShift);
  const size_t blocks = (ids.size() + 63) / 64;
  const size_t directory_at = out.size();  // per block, the guide's squares and the block's header
  out.resize(directory_at + 2 * blocks, 0);
  for (size_t first = 0, b = 0; first < ids.size(); first += 64, ++b) {
    const size_t n = std::min<size_t>(64, ids.size() - first);
    const uint64_t valid = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    std::array<uint64_t, 2 * logic::kMaxInputs> admit{};  // bit k of row 2j + v: cube k admits v at index bit j
    uint64_t hi = 0, lo = 0, squares = 0;
    bool other_outputs = false;
    for (size_t k = 0; k < n; ++k) {
      const logic::CubeWord c = cubes_[ids[first + k]];
      const uint64_t bit = uint64_t{1} << k;
      for (int i = 0; i < inputs_; ++i) {
        const unsigned pair = unsigned(c >> logic::pair_shift(i)) & 3;  // bit 1: may be 0, bit 0: may be 1
        const size_t j = size_t(inputs_ - 1 - i);
        if (pair & 2) admit[2 * j] |= bit;
        if (pair & 1) admit[2 * j + 1] |= bit;
      }
      const uint64_t o = uint64_t(logic::output_of(c));
      if (o >> 1 & 1) hi |= bit;
      if (o & 1) lo |= bit;
      other_outputs = other_outputs || o != fallback;
      squares |= admitted_squares(c, int(guide));
    }
    uint64_t head = 0;
    for (size_t r = 0; r < 2 * size_t(inputs_); ++r)
      if (admit[r] != valid) head |= uint64_t{1} << r, out.push_back(admit[r]);
    if (other_outputs) head |= kOutputRowsStored, out.push_back(hi), out.push_back(lo);
    out[directory_at + 2 * b] = squares;
    out[directory_at + 2 * b + 1] = head;
  }
}

void CubeIndex::append_front_slab(std::span<const uint32_t> ids, std::vector<uint64_t>& out) const {
  const size_t blocks = (ids.size() + 63) / 64;
  size_t rows = kFirstGroupRow;
  for (int g = 0; g < front_groups_; ++g) rows += size_t{1} << front_width_[size_t(g)];
  const size_t base = out.size();
  out.resize(base + rows * blocks, 0);
  uint64_t* slab = out.data() + base;
  for (size_t b = 0; b < blocks; ++b) slab[kOnesRow * blocks + b] = ~uint64_t{0};
  for (size_t i = 0; i < ids.size(); ++i) {
    const size_t b = i / 64;
    const uint64_t bit = uint64_t{1} << (i % 64);
    const logic::CubeWord c = cubes_[ids[i]];
    const unsigned o = unsigned(logic::output_of(c));
    if (o >> 1 & 1) slab[kOutHiRow * blocks + b] |= bit;
    if (o & 1) slab[kOutLoRow * blocks + b] |= bit;
    for (int g = 0; g < front_groups_; ++g) {
      const int first = front_first_[size_t(g)], width = front_width_[size_t(g)];
      for (int v = 0; v < (1 << width); ++v) {
        bool ok = true;
        for (int k = 0; k < width && ok; ++k) {
          const unsigned pair = unsigned(c >> logic::pair_shift(first + k)) & 3;
          ok = pair & ((v >> (width - 1 - k) & 1) ? 1u : 2u);
        }
        if (ok) slab[(front_offset_[size_t(g)] + size_t(v)) * blocks + b] |= bit;
      }
    }
  }
}

void CubeIndex::choose_front(std::span<const uint64_t> queries, size_t max_cubes) {
  // Greedy maximum coverage of (a sample of) the sampled queries by up to 64 cubes, among the
  // cubes with the fewest literals.
  std::vector<uint32_t> candidates(cubes_.size());
  for (uint32_t c = 0; c < candidates.size(); ++c) candidates[c] = c;
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](uint32_t a, uint32_t b) { return logic::literals(cubes_[a]) < logic::literals(cubes_[b]); });
  if (candidates.size() > kFrontCandidates) candidates.resize(kFrontCandidates);
  const size_t step = std::max<size_t>(1, queries.size() / kFrontQueries);
  std::vector<std::vector<uint32_t>> holds;  // per query, the candidates (positions) holding it
  std::vector<uint32_t> count(candidates.size(), 0);
  for (size_t q = 0; q < queries.size(); q += step) {
    const logic::CubeWord m = logic::minterm(queries[q], inputs_);
    std::vector<uint32_t> h;
    for (uint32_t k = 0; k < candidates.size(); ++k)
      if (logic::contains(cubes_[candidates[k]], m)) h.push_back(k), ++count[k];
    if (!h.empty()) holds.push_back(std::move(h));
  }
  // A block at a time: 64 greedy picks, kept while the block answers enough of what is left (a
  // block costs a few cached loads to every query that reaches it; answering a query here instead
  // of in a leaf saves far more than that).
  std::vector<char> covered(holds.size(), 0);
  std::vector<uint32_t> chosen;
  size_t left = holds.size();
  const size_t sampled = (queries.size() + step - 1) / step;
  while (chosen.size() < std::min(max_cubes, kFront) && left > 0) {
    std::vector<uint32_t> block;
    std::vector<size_t> newly;
    while (block.size() < 64) {
      uint32_t best = 0, best_n = 0;
      for (uint32_t k = 0; k < count.size(); ++k)
        if (count[k] > best_n) best = k, best_n = count[k];
      if (best_n == 0) break;
      block.push_back(candidates[best]);
      for (size_t q = 0; q < holds.size(); ++q) {
        if (covered[q] || std::find(holds[q].begin(), holds[q].end(), best) == holds[q].end()) continue;
        covered[q] = 1;
        newly.push_back(q);
        for (uint32_t k : holds[q]) --count[k];
      }
    }
    const size_t misses = left + (sampled - holds.size());  // queries no candidate holds miss too
    if (block.empty() || (!chosen.empty() && newly.size() * kFrontPayoff < misses)) {
      for (size_t q : newly) covered[q] = 0;  // not taken: the tree answers them
      break;
    }
    left -= newly.size();
    chosen.insert(chosen.end(), block.begin(), block.end());
  }
  front_blocks_ = int((chosen.size() + 63) / 64);
  front_cubes_.resize(chosen.size());
  for (size_t f = 0; f < chosen.size(); ++f) front_cubes_[f] = cubes_[chosen[f]];
  front_count_ = front_cubes_.size();
  // The hot words start with block 0's column of the slab, one word per row (stride 1): most
  // probes end in block 0, and reading it there needs no row-times-blocks products. A slab of one
  // block is that column, so it is stored once (front_slab_offset).
  std::vector<uint64_t> slab;
  append_front_slab(chosen, slab);
  front_block_.assign(front_rows_, 0);
  if (front_blocks_ > 0)
    for (size_t r = 0; r < front_rows_; ++r) front_block_[r] = slab[r * size_t(front_blocks_)];
  if (front_blocks_ > 1) front_block_.insert(front_block_.end(), slab.begin(), slab.end());
  words_ = front_block_.data();  // front_match reads it while the tree is built
  front_words_ = front_block_.size();
}

uint64_t CubeIndex::make_leaf(std::vector<uint32_t>& cubes, const std::vector<uint64_t>& queries, uint64_t used_inputs,
                              uint64_t fixed_values) {
  // Matching stops at the first block with a match, so the cubes that answer the most sampled
  // queries go first: greedily, each next cube the one holding the most sampled queries no earlier
  // cube holds (cubes overlap: counting raw hits would put near-duplicates side by side), ties and
  // the cubes no query reached ordered bigger first (fewer literals).
  std::stable_sort(cubes.begin(), cubes.end(),
                   [&](uint32_t a, uint32_t b) { return logic::literals(cubes_[a]) < logic::literals(cubes_[b]); });
  std::vector<uint32_t> order = cubes;
  if (cubes.size() > 64 && !queries.empty()) {
    std::vector<std::vector<uint32_t>> held_by(queries.size());  // per query, the cubes (positions) holding it
    std::vector<std::vector<uint32_t>> holds(cubes.size());      // per cube, the queries it holds
    for (size_t q = 0; q < queries.size(); ++q) {
      const logic::CubeWord m = logic::minterm(queries[q], inputs_);
      for (uint32_t i = 0; i < cubes.size(); ++i)
        if (logic::contains(cubes_[cubes[i]], m)) held_by[q].push_back(i), holds[i].push_back(uint32_t(q));
    }
    std::vector<uint32_t> fresh(cubes.size());
    std::vector<std::pair<uint32_t, uint32_t>> heap;  // (fresh count, -position) as a max-heap
    for (uint32_t i = 0; i < cubes.size(); ++i) {
      fresh[i] = uint32_t(holds[i].size());
      if (fresh[i]) heap.push_back({fresh[i], ~i});
    }
    std::make_heap(heap.begin(), heap.end());
    std::vector<char> covered(queries.size(), 0), placed(cubes.size(), 0);
    size_t next = 0;
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end());
      const auto [n, neg] = heap.back();
      heap.pop_back();
      const uint32_t i = ~neg;
      if (placed[i] || n != fresh[i]) {  // stale: pushed again with its current count, if any
        if (!placed[i] && fresh[i]) heap.push_back({fresh[i], ~i}), std::push_heap(heap.begin(), heap.end());
        continue;
      }
      placed[i] = 1;
      order[next++] = cubes[i];
      for (uint32_t q : holds[i]) {
        if (covered[q]) continue;
        covered[q] = 1;
        for (uint32_t j : held_by[q]) --fresh[j];
      }
    }
    for (uint32_t i = 0; i < cubes.size(); ++i)
      if (!placed[i]) order[next++] = cubes[i];
  }
  const uint64_t guide = leaf_rows_ == LeafRows::Inputs ? arrange_input_rows(order) : 0;
  // A group is left out when every cube admits every value the path lets reach this leaf.
  unsigned active = 0;
  for (int g = 0; g < groups_; ++g) {
    const int first = group_first_[size_t(g)], width = group_width_[size_t(g)];
    unsigned reachable = 0;
    for (int v = 0; v < (1 << width); ++v) {
      bool ok = true;
      for (int b = 0; b < width; ++b) {
        const int input = first + b;
        if ((used_inputs >> input & 1) && ((fixed_values >> input & 1) != uint64_t(v >> (width - 1 - b) & 1)))
          ok = false;
      }
      if (ok) reachable |= 1u << v;
    }
    for (uint32_t c : order)
      if ((admitted_values(cubes_[c], g) & reachable) != reachable) {
        active |= 1u << g;
        break;
      }
  }

  const uint64_t leaf_id = ids_.size();
  ids_.insert(ids_.end(), order.begin(), order.end());
  largest_leaf_ = std::max(largest_leaf_, cubes.size());

  const uint64_t offset = build_slices_.size();
  if (offset > kOffsetMask) throw std::length_error("cube index: more than 2^29 words of leaves");
  build_slices_.push_back(leaf_header(leaf_id, uint64_t(order.size())));
  const std::span<const uint32_t> placed(ids_.data() + leaf_id, order.size());
  const size_t blocks = (order.size() + 63) / 64;
  if (blocks > kBlocksMask) throw std::length_error("cube index: a leaf of more than 2^22 blocks");
  if (leaf_rows_ == LeafRows::Inputs) {
    append_input_rows(placed, guide, build_slices_);
    return leaf_ref(uint64_t(blocks), 0, offset, LeafRows::Inputs);
  }
  append_slab(placed, active, build_slices_);
  return leaf_ref(uint64_t(blocks), uint64_t(active), offset);
}

bool CubeIndex::admits(logic::CubeWord c, const Split& sp, int v) const {
  // Child v takes the cubes admitting value v of the run (the run's first input is v's top bit).
  for (int b = 0; b < sp.width; ++b) {
    const unsigned pair = unsigned(c >> logic::pair_shift(sp.first + b)) & 3;
    const unsigned bit = unsigned(v >> (sp.width - 1 - b)) & 1;
    if (!(pair & (bit ? 1u : 2u))) return false;
  }
  return true;
}

CubeIndex::Split CubeIndex::choose(const std::vector<uint32_t>& ids, uint64_t used_inputs,
                                   const std::vector<uint64_t>& queries) const {
  Split best;
  if (ids.size() <= kLeafMax) return best;
  std::vector<logic::CubeWord> cubes(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) cubes[i] = cubes_[ids[i]];
  // Enough sampled queries: judge a split by the cubes the sampled queries would find in their
  // child (where probes really go); else by the mean child size over the run's values.
  const bool weighted = queries.size() >= 16;
  std::vector<uint8_t> dc(cubes.size());
  std::vector<uint32_t> child(64), hits(64);
  double best_expected = 0;
  for (int i = 0; i < inputs_; ++i) {
    if (used_inputs >> i & 1) continue;
    std::fill(dc.begin(), dc.end(), 0);
    for (int w = 1; w <= 6 && i + w <= inputs_; ++w) {
      if (used_inputs >> (i + w - 1) & 1) break;
      const int shift = logic::pair_shift(i + w - 1);
      // total(i, w) = sum over cubes of 2^(the cube's don't-cares among inputs i .. i+w-1).
      size_t total = 0;
      for (size_t c = 0; c < cubes.size(); ++c) {
        dc[c] = uint8_t(dc[c] + (((cubes[c] >> shift) & 3) == 3));
        total += size_t{1} << dc[c];
      }
      if (double(total) > split_copies_ * double(cubes.size())) break;  // wider only copies more
      double expected = double(total) / double(1 << w);
      if (weighted) {
        std::fill(child.begin(), child.end(), 0);
        for (logic::CubeWord c : cubes) {
          // The run's fixed value bits and its don't-care bits; every value they admit gets a copy.
          unsigned ones = 0, x = 0;
          for (int b = 0; b < w; ++b) {
            const unsigned pair = unsigned(c >> logic::pair_shift(i + b)) & 3, bit = 1u << (w - 1 - b);
            if (pair == 3)
              x |= bit;
            else if (pair == 1)
              ones |= bit;
          }
          unsigned sub = 0;
          do {
            ++child[ones | sub];
            sub = (sub - x) & x;
          } while (sub != 0);
        }
        const unsigned qshift = unsigned(inputs_ - i - w);
        double sum = 0;
        for (uint64_t q : queries) sum += child[(q >> qshift) & ((1u << w) - 1)];
        expected = sum / double(queries.size());
      }
      if (best.first < 0 || expected < best_expected) best = {i, w, total}, best_expected = expected;
    }
  }
  if (best.first >= 0 && best_expected > 0.75 * double(cubes.size())) best = {};
  return best;
}

}  // namespace egtmin::probe
