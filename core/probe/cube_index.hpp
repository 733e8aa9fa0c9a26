// SPDX-License-Identifier: GPL-3.0-or-later
// The indexed probe strategy: a shallow decision tree over the paper's encoding whose leaves are
// bit-sliced, built from a cover's cubes alone.
//
// Tree: each inner node switches on the value of a run of 1 to 6 consecutive inputs (2 to 64
// children); a cube with don't-cares in that run is copied into every child it admits, so each
// leaf holds exactly the cubes that can contain the minterms reaching it. Nodes are split best
// first, by expected work (the share of sampled queries reaching the node times its 64-cube
// blocks), within a copy budget.
//
// Leaves: scanning a leaf cube by cube costs a compare and a branch per cube, and a leaf holds
// many cubes. Instead a leaf is cut into blocks of 64 cubes, and for every input group (the
// side-to-move bit, then each piece's rank bits and file bits: 3 inputs, 8 values) each block
// has one 64-bit mask per value of the group: bit j set when cube j admits that value. A PCN cube
// is a product over its inputs, so cube j contains the query exactly when bit j is set in the mask
// of every group's query value: matching 64 cubes is one AND per group (9 loads for 4 pieces), and
// the first match is the lowest set bit. Two more masks per block hold the cubes' outputs
// bit-sliced, so the hot path (find_output) never touches the cube words. Groups whose masks would
// be all ones for every value that can reach the leaf (don't-cares, or inputs the path has fixed)
// are left out of the leaf. Cubes are ordered greedily by how many sampled queries they answer that
// no earlier cube does, so most probes stop in the first block.
//
// A leaf's masks are stored row-major ("slab"): one row per (group, value), each row holding that
// mask for all of the leaf's blocks in order. A probe reads one row per group, so scanning B
// blocks streams through 9 rows of B words (about 9 * B / 8 cache lines, sequential), where a
// block-major layout would touch 9 scattered lines per block: misses that scan tens of blocks are
// what this layout is for.
//
// A front line, up to 16 blocks of the cubes that together hold the most sampled queries (chosen
// greedily, a block at a time while a block still answers enough of the remaining queries), is
// matched before the tree: for many balances a few big cubes hold most positions, and these few
// kilobytes per balance stay in cache while the tree's leaves are cache misses. The front's groups
// are whole squares rather than rank and file (64 rows per piece instead of 16): four times the
// rows, but a front block costs 1 + K loads instead of 1 + 2K, and most probes end there. Cubes
// inside a front cube are left out of the tree, and within each node's region cubes inside a
// bigger kept cube are too. Everything lives in flat arrays of 64-bit words.
//
// A leaf may instead hold its cubes' inputs (LeafRows::Inputs), where bytes count more than
// loads: per block and input, the row of the cubes admitting a 0 there and the row of those
// admitting a 1, each stored only where some cube of the block excludes that value, behind a
// header word saying which are. A group's value rows take 8 words a block however few cubes pin
// it; the input rows of the five-piece covers of four pieces against a king take a little over
// half (KQQBvK's layout 400,448 -> 225,600 bytes). A probe reads one row per stored input its
// value names, at a place a population count gives; so that a miss need not enter every block,
// the cubes past the greedy head are sorted by one piece's squares, and a row of each block's
// squares is scanned first (docs/measured.md).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "logic/cube.hpp"
#include "table/encoding.hpp"
#include "util/byte_io.hpp"

namespace egtmin::probe {

// What a leaf's blocks hold: Values, one row per value of each active group (a load per group,
// fixed offsets); Inputs, the rows of each input's admitted values that some cube excludes.
enum class LeafRows : uint8_t { Values, Inputs };

class CubeIndex {
 public:
  // Node references. Leaf: kLeaf | input rows (kInputRowsLeaf) | blocks << 40 | active groups << 29
  // | offset in slices_ of the leaf (a header word: its first position in ids_ and its cube count,
  // then the blocks; a leaf of input rows has its default output word between). Inner: width << 40 |
  // shift << 32 | offset in nodes_ of its 2^width child references, indexed by
  // (index >> shift) & (2^width - 1). Packed and unpacked by the functions below.
  static constexpr uint64_t kLeaf = uint64_t{1} << 63;
  static constexpr uint64_t kInputRowsLeaf = uint64_t{1} << 62;
  static constexpr int kBlocksShift = 40, kActiveShift = 29;
  static constexpr uint64_t kBlocksMask = (uint64_t{1} << 22) - 1;
  static constexpr uint64_t kActiveMask = (uint64_t{1} << 11) - 1;
  static constexpr uint64_t kOffsetMask = (uint64_t{1} << 29) - 1;
  static constexpr int kWidthShift = 40, kSplitShift = 32;
  static constexpr uint64_t kChildrenMask = 0xffffffffu;
  static constexpr int kMaxGroups = 11;
  // The rows of a slab of B blocks (row r of block b is word r * B + b): the outputs' two slices,
  // an all-ones row (what an inactive group reads), then each active group's rows, one per value.
  static constexpr uint32_t kOutHiRow = 0, kOutLoRow = 1, kOnesRow = 2, kFirstGroupRow = 3;
  // A leaf's header word: its first position in ids_ (low 40 bits) and its cube count.
  static constexpr uint64_t kHeaderIdMask = (uint64_t{1} << 40) - 1;
  static constexpr int kHeaderCountShift = 40;
  // A block of input rows: its header word (bit 2j + v: the row of the cubes admitting value v at
  // index bit j is stored; kOutputRowsStored: the outputs' two rows follow the input rows, else
  // every cube of the block has the leaf's default output), and the rows stored, in bit order.
  static constexpr uint64_t kOutputRowsStored = uint64_t{1} << 62;
  static constexpr uint64_t kInputRowBits = kOutputRowsStored - 1;
  // A leaf of input rows begins with a word holding its default output (bits 0-1) and the shift
  // in the index of its guide piece's square (from bit kGuideShift); then two words per block, the
  // guide's squares some cube of the block admits (one bit each) and the block's header; then the
  // blocks' rows, one block after another: a probe reads the directory in one sequential run,
  // counting where each block's rows start, and enters only the blocks admitting its square.
  static constexpr int kGuideShift = 8;

  // The front line's most cubes (16 blocks).
  static constexpr size_t kFront = 1024;
  [[gnu::always_inline]] static constexpr bool is_leaf(uint64_t ref) { return ref & kLeaf; }
  // An inner node's reference: 2^width children from nodes_[children], split on the index bits
  // from `shift` up.
  [[gnu::always_inline]] static constexpr uint64_t inner_ref(uint64_t width, uint64_t shift, uint64_t children) {
    return (width << kWidthShift) | (shift << kSplitShift) | children;
  }
  // Where in nodes_ the reference of the inner node's child that `index` reaches lies.
  [[gnu::always_inline]] static constexpr uint64_t child_slot(uint64_t ref, uint64_t index) {
    const unsigned shift = unsigned(ref >> kSplitShift) & 63, width = unsigned(ref >> kWidthShift) & 7;
    return (ref & kChildrenMask) + ((index >> shift) & ((1u << width) - 1));
  }
  // A leaf's reference: its 64-cube blocks, its active groups (bit g: group g has rows), and the
  // offset of its header word in slices_.
  [[gnu::always_inline]] static constexpr uint64_t leaf_ref(uint64_t blocks, uint64_t active, uint64_t offset,
                                                            LeafRows rows = LeafRows::Values) {
    return kLeaf | (rows == LeafRows::Inputs ? kInputRowsLeaf : 0) | blocks << kBlocksShift | active << kActiveShift |
           offset;
  }
  [[gnu::always_inline]] static constexpr LeafRows leaf_rows(uint64_t ref) {
    return ref & kInputRowsLeaf ? LeafRows::Inputs : LeafRows::Values;
  }
  [[gnu::always_inline]] static constexpr uint32_t leaf_blocks(uint64_t ref) {
    return uint32_t((ref >> kBlocksShift) & kBlocksMask);
  }
  [[gnu::always_inline]] static constexpr unsigned leaf_active(uint64_t ref) {
    return unsigned(ref >> kActiveShift) & unsigned(kActiveMask);
  }
  [[gnu::always_inline]] static constexpr uint64_t leaf_offset(uint64_t ref) { return ref & kOffsetMask; }
  [[gnu::always_inline]] static constexpr uint64_t leaf_header(uint64_t first_id, uint64_t count) {
    return first_id | count << kHeaderCountShift;
  }
  [[gnu::always_inline]] static constexpr uint64_t header_first_id(uint64_t header) { return header & kHeaderIdMask; }
  CubeIndex() = default;
  // Move-only: hot() hands out pointers into the index's own words (or the arena given to
  // use_hot_words), which a move keeps valid and a copy would not.
  CubeIndex(const CubeIndex&) = delete;
  CubeIndex& operator=(const CubeIndex&) = delete;
  CubeIndex(CubeIndex&&) noexcept = default;
  CubeIndex& operator=(CubeIndex&&) noexcept = default;
  // `inputs` = 1 + 6 * pieces. `max_copies`: the leaves may hold at most this many cube copies per
  // cube of the cover (the memory budget).
  // `queries`: optional sample of the indices probes will ask for (canonical representatives of
  // legal positions). With it, the copy budget is spent where the sample goes and regions no
  // sampled query reaches stay unsplit; without it, the index space is taken as uniform.
  // `front_cubes`: the front line's most cubes (at most kFront, in blocks of 64). `leaf_rows`:
  // what the leaves' blocks hold.
  CubeIndex(std::span<const logic::CubeWord> cubes, int inputs, double max_copies = 2.0, double split_copies = 2.0,
            std::span<const uint64_t> queries = {}, size_t front_cubes = kFront, LeafRows leaf_rows = LeafRows::Values);
  // The front line alone, for covers whose misses another structure answers from the start (5-piece
  // covers and their RegionIndex): building the tree of a cover of millions of cubes is slow
  // and is thrown away. find() gives 0 after a front miss, as after drop_tree().
  static CubeIndex front_line(std::span<const logic::CubeWord> cubes, int inputs, std::span<const uint64_t> queries);

  // False for a default-constructed index (a cover opened without one, CoverProber::kNoIndex).
  bool built() const { return words_ != nullptr; }
  // The whole front line.
  std::span<const logic::CubeWord> front_cubes() const { return front_cubes_; }
  // The leaf blocks a probe enters, on average over `queries` (indices; 0 for those the front line
  // answers): what a front miss costs here, apart from reaching the leaf. A leaf of input rows
  // counts only the blocks admitting the probe's guide square; the others cost a directory word.
  double leaf_blocks_per_query(std::span<const uint64_t> queries) const;
  // Keeps the front line only (another structure answers what it misses): find() then gives 0
  // after a front miss. Call before the hot words move to an arena.
  void drop_tree();

  // A cube of the cover containing `minterm` (= logic::minterm(index, inputs)), 0 when none: the
  // first such cube of the front line, else of the leaf `index` reaches.
  logic::CubeWord find(uint64_t index, logic::CubeWord minterm) const {
    (void)minterm;  // the slices read the index itself
    if (const Hit h = front_match(index); h.hits) return front_cubes_[h.block * 64 + size_t(std::countr_zero(h.hits))];
    const Match m = match(index);
    if (!m.hit.hits || ids_.empty()) return 0;  // no cube, or an index read back without its cubes
    return cubes_[ids_[m.leaf_id + m.hit.block * 64 + uint64_t(std::countr_zero(m.hit.hits))]];
  }

  // For a probe layout file: everything but the hot words and the cover's cubes (save_state), read
  // back into an empty index (load_state), which then uses the stored hot words in place
  // (attach_hot_words: false when they do not fit the state; they must outlive the index). An
  // index read back finds cubes in the front line only: find() gives 0 past it, and the caller
  // scans the cover.
  void save_state(ByteWriter& w) const;
  void load_state(ByteReader& r);
  bool attach_hot_words(std::span<const uint64_t> hot_words);
  // The output of that cube (Output::None when none), read from the blocks' output slices: the hot
  // path never touches the cube words.
  logic::Output find_output(uint64_t index) const {
    if (const Hit h = front_match(index); h.hits) return output_at(front(), uint64_t(front_blocks_), h);
    return match(index).out;
  }

  // find_output for covers of the paper's encoding with K pieces (inputs = 1 + 6K, the groups
  // side to move, then rank and file of each piece), with the layout known at compile time: the
  // probe hot path.
  // What the hot path reads, by value, so a caller can keep it beside its own per-balance data
  // (the pointers stay valid as long as the index lives and is not moved from).
  struct Hot {
    const uint64_t* front0 = nullptr;  // block 0 of the front line, one word per row
    const uint64_t* front = nullptr;
    int front_blocks = 0;
    uint64_t root = kLeaf;  // a leaf without blocks when empty
    const uint64_t* nodes = nullptr;
    const uint64_t* slices = nullptr;
  };
  Hot hot() const { return {words_, front(), front_blocks_, root_, nodes_data(), slices_data()}; }

  // The words hot() points into (front line, inner nodes, leaves), contiguous. A prober holding
  // many indexes copies them all into one huge-page arena (scattered small arrays cost a TLB miss
  // per probe) and calls use_hot_words with the copy, which must outlive the index or the next
  // call; the index then releases its own.
  std::span<const uint64_t> hot_words() const {
    if (!words_) return {};
    return {words_, front_words_ + node_words_ + slice_words_};
  }
  void use_hot_words(const uint64_t* copy) {
    words_ = copy;
    own_ = {};
  }

  template <int K>
  logic::Output find_output_fixed(uint64_t index) const {
    return find_output_fixed<K>(hot(), index);
  }
  template <int K>
  static logic::Output find_output_fixed(const Hot& h, uint64_t index) {
    std::array<uint32_t, K> sq;
    for (int i = 0; i < K; ++i) sq[size_t(i)] = uint32_t(index >> square_shift(K, i)) & kSquareMask;
    return find_output_squares<K>(h, uint32_t(index >> stm_shift(K)) & 1, sq);
  }
  // The same from the index's fields (side to move, each piece's square), which the prober has in
  // registers: block 0 of the front line needs nothing else, and the index is packed only after
  // it misses.
  template <int K>
  static logic::Output find_output_squares(const Hot& h, uint32_t stm, const std::array<uint32_t, K>& sq) {
    const logic::Output out = find_output_front0<K>(h, stm, sq);
    return out != logic::Output::None ? out : find_output_after_front0<K>(h, stm, sq);
  }
  // Block 0 of the front line, from its stride-1 column: most probes end there, with one load per
  // group. Its groups are the side to move and each piece's whole square (one row per square), so
  // a front block costs 1 + K loads where the leaves' rank/file groups cost 1 + 2K.
  template <int K>
  static logic::Output find_output_front0(const Hot& h, uint32_t stm, const std::array<uint32_t, K>& sq) {
    constexpr uint32_t kSquareRows = kFirstGroupRow + 2;
    const uint64_t* f0 = h.front0;
    uint64_t acc = f0[kFirstGroupRow + stm];
    for (int i = 0; i < K; ++i) acc &= f0[kSquareRows + 64 * uint32_t(i) + sq[size_t(i)]];
    if (!acc) return logic::Output::None;
    const unsigned bit = unsigned(lowest_bit(acc));
    return logic::Output(((f0[kOutHiRow] >> bit) & 1) << 1 | ((f0[kOutLoRow] >> bit) & 1));
  }
  // The rest: the front line's other blocks, then the tree.
  template <int K>
  static logic::Output find_output_after_front0(const Hot& h, uint32_t stm, const std::array<uint32_t, K>& sq) {
    const logic::Output out = find_output_front_rest<K>(h, stm, sq);
    return out != logic::Output::None ? out : find_output_tree<K>(h, stm, sq);
  }
  // The front line's blocks after the first. A cover with a region index has no tree
  // (drop_tree): its probes stop here, and the region index answers the misses.
  template <int K>
  static logic::Output find_output_front_rest(const Hot& h, uint32_t stm, const std::array<uint32_t, K>& sq) {
    constexpr uint32_t kSquareRows = kFirstGroupRow + 2;
    const uint32_t blocks = uint32_t(h.front_blocks);
    std::array<uint32_t, 1 + K> at;
    at[0] = (kFirstGroupRow + stm) * blocks;
    for (int i = 0; i < K; ++i) at[size_t(1 + i)] = (kSquareRows + 64 * uint32_t(i) + sq[size_t(i)]) * blocks;
    if (const Hit hit = scan(h.front, blocks, at, 1); hit.hits) return output_at(h.front, blocks, hit);
    return logic::Output::None;
  }
  // The tree: its nodes down to a leaf, then the leaf's blocks.
  template <int K>
  static logic::Output find_output_tree(const Hot& h, uint32_t stm, const std::array<uint32_t, K>& sq) {
    constexpr int kGroups = 1 + 2 * K, kInputs = inputs_for(K);
    uint64_t index = stm;
    for (int i = 0; i < K; ++i) index = (index << kSquareBits) | sq[size_t(i)];
    uint64_t ref = h.root;
    while (!is_leaf(ref)) ref = h.nodes[child_slot(ref, index)];
    if (ref & kInputRowsLeaf) {
      logic::Output out = logic::Output::None;
      scan_input_rows(h.slices + leaf_offset(ref), leaf_blocks(ref), index, input_row_query(index, kInputs), out);
      return out;
    }
    // The leaf's groups (only probes that miss the front get here): the side to move, then each
    // piece's rank and file.
    std::array<uint32_t, kGroups> value;
    value[0] = stm;
    for (int g = 1; g < kGroups; ++g) value[size_t(g)] = uint32_t(index >> (kInputs - 1 - 3 * g)) & 7;
    const uint32_t blocks = leaf_blocks(ref);
    // Leaves hold only the active groups' rows, in group order; an inactive group reads the
    // all-ones row instead, so the scan has a fixed number of groups and no branches.
    const unsigned active = leaf_active(ref);
    std::array<uint32_t, kGroups> at;
    uint32_t row = kFirstGroupRow;
    for (int g = 0; g < kGroups; ++g) {
      const bool on = active >> g & 1;
      at[size_t(g)] = (on ? row + value[size_t(g)] : kOnesRow) * blocks;
      row += on ? (g == 0 ? 2u : 8u) : 0u;
    }
    const uint64_t* slab = h.slices + leaf_offset(ref) + 1;
    const Hit hit = scan(slab, blocks, at);
    if (hit.hits) return output_at(slab, blocks, hit);
    return logic::Output::None;
  }

  // The first block of a slab with a cube admitting every group's row `at` (offsets of the rows'
  // first words), and those cubes as bits; hits = 0 when none.
  struct Hit {
    uint64_t block = 0;
    uint64_t hits = 0;
  };
  template <size_t G>
  static Hit scan(const uint64_t* slab, uint64_t blocks, const std::array<uint32_t, G>& at, uint64_t first = 0) {
    for (uint64_t b = first; b < blocks; ++b) {
      uint64_t acc = slab[at[0] + b];
      for (size_t g = 1; g < G; ++g) acc &= slab[at[g] + b];
      if (acc) return {b, acc};
    }
    return {};
  }
  // The header bits of the rows a query at `index` (of `inputs` inputs) reads: for each index bit j
  // of value v, bit 2j + v.
  [[gnu::always_inline]] static constexpr uint64_t input_row_query(uint64_t index, int inputs) {
    const uint64_t bits = index & ((uint64_t{1} << inputs) - 1);
    return spread_bits(bits) << 1 | spread_bits(~bits & ((uint64_t{1} << inputs) - 1));
  }
  // Bit j of x (j < 32) to bit 2j.
  [[gnu::always_inline]] static constexpr uint64_t spread_bits(uint64_t x) {
    x = (x | x << 16) & 0x0000ffff0000ffffull;
    x = (x | x << 8) & 0x00ff00ff00ff00ffull;
    x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
    x = (x | x << 2) & 0x3333333333333333ull;
    return (x | x << 1) & 0x5555555555555555ull;
  }
  // The first block of a leaf of input rows (at its header word) with a cube holding the query
  // (`want`: input_row_query), those cubes as bits, and the first one's output in `out` (None when
  // no block has one).
  static Hit scan_input_rows(const uint64_t* leaf, uint64_t blocks, uint64_t index, uint64_t want, logic::Output& out) {
    const uint64_t count = leaf[0] >> kHeaderCountShift;
    const uint64_t square = (index >> (leaf[1] >> kGuideShift)) & kSquareMask;
    const uint64_t* directory = leaf + 2;           // per block, the guide's squares its cubes admit and its header
    const uint64_t* rows = directory + 2 * blocks;  // block b's rows follow block b - 1's
    for (uint64_t b = 0; b < blocks; ++b, directory += 2) {
      const uint64_t head = directory[1];
      const uint64_t* block = rows;
      rows += block_rows(head);
      if (!(directory[0] >> square & 1)) continue;
      // The last block's places past the leaf's cubes hold none.
      uint64_t acc = b + 1 < blocks || count % 64 == 0 ? ~uint64_t{0} : (uint64_t{1} << (count % 64)) - 1;
      for (uint64_t m = head & want; m && acc; m &= m - 1) acc &= block[std::popcount(head & ((m & (~m + 1)) - 1))];
      if (acc) {
        const uint64_t stored = uint64_t(std::popcount(head & kInputRowBits));
        const unsigned bit = unsigned(lowest_bit(acc));
        out = head & kOutputRowsStored
                  ? logic::Output(((block[stored] >> bit) & 1) << 1 | ((block[stored + 1] >> bit) & 1))
                  : logic::Output(leaf[1] & 3);
        return {b, acc};
      }
    }
    out = logic::Output::None;
    return {};
  }
  // The rows a block of input rows stores: one per header bit, two for the outputs.
  [[gnu::always_inline]] static constexpr uint64_t block_rows(uint64_t head) {
    return uint64_t(std::popcount(head)) + (head & kOutputRowsStored ? 1 : 0);
  }
  static logic::Output output_at(const uint64_t* slab, uint64_t blocks, Hit h) {
    const unsigned bit = unsigned(lowest_bit(h.hits));
    return logic::Output(((slab[kOutHiRow * blocks + h.block] >> bit) & 1) << 1 |
                         ((slab[kOutLoRow * blocks + h.block] >> bit) & 1));
  }

  size_t memory_bytes() const {
    return (own_.empty() ? hot_words().size_bytes() : own_.capacity() * sizeof(uint64_t)) +
           cubes_.capacity() * sizeof(uint64_t) + front_cubes_.capacity() * sizeof(logic::CubeWord) +
           ids_.capacity() * sizeof(uint32_t) + sizeof(*this);
  }
  size_t nodes() const { return node_words_; }
  int inputs() const { return inputs_; }
  size_t cube_copies() const { return ids_.size(); }
  int depth() const { return depth_; }
  int front_size() const { return int(front_cubes_.size()); }
  size_t largest_leaf() const { return largest_leaf_; }

 private:
  // side to move + 2 per piece, up to 5 pieces

  // The first front block with a cube holding the query (all groups are active in the front).
  Hit front_match(uint64_t index) const {
    std::array<uint32_t, kMaxFrontGroups> at{};
    for (int g = 0; g < front_groups_; ++g)
      at[size_t(g)] =
          (front_offset_[size_t(g)] + uint32_t((index >> front_shift_[size_t(g)]) & front_mask_[size_t(g)])) *
          uint32_t(front_blocks_);
    for (int g = front_groups_; g < kMaxFrontGroups; ++g) at[size_t(g)] = kOnesRow * uint32_t(front_blocks_);
    return scan(front(), uint64_t(front_blocks_), at);
  }

  struct Match {
    const uint64_t* slab = nullptr;  // the leaf's rows
    uint64_t blocks = 0;
    uint64_t leaf_id = 0;                     // the leaf's first position in ids_
    Hit hit;                                  // hit.hits = 0: no match
    logic::Output out = logic::Output::None;  // the first matching cube's
    bool input_rows = false;                  // a leaf of input rows, at slab - 1
  };
  // The blocks before `end` of the leaf of input rows at `leaf` that a probe of `index` enters.
  static uint64_t input_blocks_entered(const uint64_t* leaf, uint64_t end, uint64_t index) {
    const uint64_t square = (index >> (leaf[1] >> kGuideShift)) & kSquareMask;
    uint64_t entered = 0;
    for (uint64_t b = 0; b < end; ++b) entered += leaf[2 + 2 * b] >> square & 1;
    return entered;
  }
  Match match(uint64_t index) const {
    if (slice_words_ == 0) [[unlikely]]
      return {};  // default-constructed
    uint64_t ref = root_;
    while (!is_leaf(ref)) ref = nodes_data()[child_slot(ref, index)];
    const uint64_t* p = slices_data() + leaf_offset(ref);
    Match m;
    m.leaf_id = header_first_id(p[0]);
    m.slab = p + 1;
    m.blocks = leaf_blocks(ref);
    if (ref & kInputRowsLeaf) {
      m.input_rows = true;
      m.hit = scan_input_rows(p, m.blocks, index, input_row_query(index, inputs_), m.out);
      return m;
    }
    const unsigned active = leaf_active(ref);
    std::array<uint32_t, kMaxGroups> at{};
    uint32_t row = kFirstGroupRow;
    for (int g = 0; g < kMaxGroups; ++g) {
      const bool on = g < groups_ && (active >> g & 1);
      at[size_t(g)] = uint32_t(m.blocks) *
                      (on ? row + uint32_t((index >> group_shift_[size_t(g)]) & group_mask_[size_t(g)]) : kOnesRow);
      if (on) row += group_mask_[size_t(g)] + 1;
    }
    m.hit = scan(m.slab, m.blocks, at);
    if (m.hit.hits) m.out = output_at(m.slab, m.blocks, m.hit);
    return m;
  }

  struct Split {
    int first = -1, width = 0;  // inputs first .. first + width - 1
    size_t total = 0;           // cube copies over the children
  };
  Split choose(const std::vector<uint32_t>& cubes, uint64_t used_inputs, const std::vector<uint64_t>& queries) const;
  bool admits(logic::CubeWord c, const Split& sp, int v) const;
  void prune(std::vector<uint32_t>& ids, uint64_t used, uint64_t values) const;
  uint8_t admitted_values(logic::CubeWord c, int g) const;  // group g's values cube c admits, as bits
  // The slab of `ids` (blocks of 64 in order): the outputs' two rows, the all-ones row, then for
  // each active group one row per value.
  void append_slab(std::span<const uint32_t> ids, unsigned active, std::vector<uint64_t>& out) const;
  // The blocks of input rows of `ids` (LeafRows::Inputs), after the leaf's word (default output,
  // guide), `guide` the piece whose squares each block's first word lists.
  void append_input_rows(std::span<const uint32_t> ids, uint64_t guide, std::vector<uint64_t>& out) const;
  // Orders a leaf of input rows (past its greedy head) and returns its guide piece.
  uint64_t arrange_input_rows(std::vector<uint32_t>& order) const;
  // The input rows the blocks of input rows of `ids` store (append_input_rows), and two output
  // rows for each block whose cubes differ in output: an estimate that leaves out the blocks whose
  // cubes all share an output other than the leaf's default, which store them too.
  uint64_t input_rows_stored(std::span<const uint32_t> ids) const;
  // The squares of `piece` (0: the first after the side to move) that cube c admits, as bits.
  uint64_t admitted_squares(logic::CubeWord c, int piece) const;
  // Whether a leaf of input rows at `offset` in the slices, of `blocks` blocks, lies inside them
  // and its headers name only this index's inputs (a layout read back).
  bool input_rows_fit(uint64_t offset, uint64_t blocks, const uint64_t* slices) const;
  uint64_t make_leaf(std::vector<uint32_t>& cubes, const std::vector<uint64_t>& queries, uint64_t used_inputs,
                     uint64_t fixed_values);
  // The front line: blocks of 64 greedy picks, at most `max_cubes` cubes (kFront).
  void choose_front(std::span<const uint64_t> queries, size_t max_cubes = kFront);
  // The front line's slab: rows per value of each front group (side to move, squares).
  void append_front_slab(std::span<const uint32_t> ids, std::vector<uint64_t>& out) const;
  void set_groups();
  // The front line's cubes from its rows (a layout read back): a cube's squares admitted on a
  // piece are a subcube of the square's six inputs, so they give back its pairs exactly.
  void front_cubes_from_rows();
  // Every field save_state writes, in order (one list for writing and reading).
  template <class Visit>
  void visit_state(Visit&& v) {
    v(root_), v(front_words_), v(node_words_), v(slice_words_), v(groups_), v(front_blocks_);
    v(inputs_), v(front_count_), v(group_first_), v(group_width_), v(group_shift_), v(group_mask_);
    v(front_groups_), v(front_rows_), v(front_first_), v(front_width_), v(front_shift_), v(front_mask_);
    v(front_offset_), v(depth_), v(largest_leaf_);
  }

  // The hot words: the front line's slab, the inner nodes' child references, the leaves (each a
  // header, then its slab). In own_, or in the copy given to use_hot_words.
  const uint64_t* front() const { return words_ + front_slab_offset(front_rows_, front_blocks_); }
  // Where the front line's slab starts in the hot words, and the words of column and slab: a slab
  // of one block is block 0's column itself.
  static constexpr size_t front_slab_offset(size_t rows, int blocks) { return blocks > 1 ? rows : 0; }
  static constexpr size_t front_line_words(size_t rows, int blocks) {
    return rows + (blocks > 1 ? rows * size_t(blocks) : 0);
  }
  const uint64_t* nodes_data() const { return words_ + front_words_; }
  const uint64_t* slices_data() const { return words_ + front_words_ + node_words_; }

  // The members the hot path reads first, together.
  uint64_t root_ = kLeaf;
  const uint64_t* words_ = nullptr;
  size_t front_words_ = 0, node_words_ = 0, slice_words_ = 0;
  std::vector<uint64_t> own_;          // the hot words until a prober moves them to its arena
  std::vector<uint64_t> front_block_;  // while building
  int groups_ = 0;
  int front_blocks_ = 0;

  int inputs_ = 0;
  double split_copies_ = 2.0;
  LeafRows leaf_rows_ = LeafRows::Values;  // while building
  size_t budget_ = 0;
  std::vector<logic::CubeWord> front_cubes_;  // the front line, block after block
  // Its cubes: a layout stores the count alone and reads the cubes back from the front's rows
  // (front_cubes_from_rows), which hold each of them whole.
  uint64_t front_count_ = 0;
  // Input groups: group g covers inputs group_first_[g] .. + group_width_[g] - 1; its value in an
  // index is (index >> group_shift_[g]) & group_mask_[g]. The front line's groups: the first input,
  // then runs of up to 6 (squares), front_offset_[g] the first row of group g.
  std::array<uint8_t, kMaxGroups> group_first_{}, group_width_{}, group_shift_{};
  std::array<uint32_t, kMaxGroups> group_mask_{};
  static constexpr int kMaxFrontGroups = 6;
  int front_groups_ = 0;
  uint32_t front_rows_ = 0;  // rows of the front's slab (and words of its block-0 column)
  std::array<uint8_t, kMaxFrontGroups> front_first_{}, front_width_{}, front_shift_{};
  std::array<uint32_t, kMaxFrontGroups> front_mask_{}, front_offset_{};
  std::vector<logic::CubeWord> cubes_;                // the cover
  std::vector<uint32_t> ids_;                         // each leaf's cubes (positions in cubes_), in scan order
  std::vector<uint64_t> build_nodes_, build_slices_;  // nodes_ and slices_ while building
  int depth_ = 0;
  size_t largest_leaf_ = 0;
};

}  // namespace egtmin::probe
