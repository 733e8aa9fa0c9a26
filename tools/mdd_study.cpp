// SPDX-License-Identifier: GPL-3.0-or-later
// How large a multi-valued decision diagram (MDD) of a table is, as a probe structure beside the
// cubes: one level per piece, each node switching on that piece's square (64 children), the side
// to move choosing the root, the leaves the table's five values. A probe would read one word per
// level, K dependent loads and no matching. Don't-cares (illegal placements and those that are not
// their class's representative) are filled, node by node, with the node's commonest cared-for
// child, so that nodes agreeing where they care merge; a node with no cared-for child is itself a
// don't-care. Identical nodes are stored once per level.
//
//   egtmin_mdd_study TABLE_FILE [ORDER]
//
// ORDER lists the table's slots (its encoding order, printed first) from the root down, e.g.
// 3,0,1,2 (default: the encoding order). Prints each level's distinct nodes and the bytes of the
// MDD with each child stored in the fewest whole bytes that number the next level's nodes (leaves:
// half a byte per value).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "table/table.hpp"

using namespace egtmin;

namespace {

constexpr uint32_t kDontCare = ~uint32_t{0};

struct NodeHash {
  size_t operator()(const std::array<uint32_t, 64>& a) const {
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (uint32_t v : a) h = (h ^ v) * 0x100000001B3ull;
    return size_t(h ^ (h >> 29));
  }
};

class Study {
 public:
  Study(const Table& t, std::vector<int> order) : t_(t), enc_(t.encoding()), order_(std::move(order)) {
    levels_.resize(order_.size());
  }

  // The node for the placement's slots order_[0 .. depth-1] fixed.
  uint32_t build(Placement& p, size_t depth) {
    std::array<uint32_t, 64> child;
    const int slot = order_[depth];
    for (int s = 0; s < 64; ++s) {
      p.sq[size_t(slot)] = Square(s);
      if (depth + 1 == order_.size()) {
        child[size_t(s)] = kDontCare;
        if (enc_.is_legal(p) && t_.symmetry().is_canonical(p)) {
          const Wdl v = t_.value(p);
          if (v != Wdl::Illegal) child[size_t(s)] = uint32_t(v);
        }
      } else {
        child[size_t(s)] = build(p, depth + 1);
      }
    }
    // Fill the don't-cares with the commonest cared-for child.
    std::unordered_map<uint32_t, int> counts;
    for (uint32_t c : child)
      if (c != kDontCare) ++counts[c];
    if (counts.empty()) return kDontCare;
    uint32_t best = 0;
    int best_n = -1;
    for (auto [c, n] : counts)
      if (n > best_n || (n == best_n && c < best)) best = c, best_n = n;
    for (uint32_t& c : child)
      if (c == kDontCare) c = best;
    auto& level = levels_[depth];
    auto [it, added] = level.try_emplace(child, uint32_t(level.size()));
    return it->second;
  }

  const std::vector<std::unordered_map<std::array<uint32_t, 64>, uint32_t, NodeHash>>& levels() const {
    return levels_;
  }

 private:
  const Table& t_;
  const Encoding& enc_;
  std::vector<int> order_;
  std::vector<std::unordered_map<std::array<uint32_t, 64>, uint32_t, NodeHash>> levels_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s TABLE_FILE [ORDER]\n", argv[0]);
    return 2;
  }
  auto t = Table::load(argv[1]);
  if (!t) {
    std::fprintf(stderr, "%s\n", t.error().message.c_str());
    return 1;
  }
  const Encoding& enc = t->encoding();
  const int k = enc.pieces();
  std::vector<int> order;
  if (argc > 2) {
    for (const char* s = argv[2]; *s;) {
      order.push_back(std::atoi(s));
      s += std::strcspn(s, ",");
      if (*s) ++s;
    }
  } else {
    for (int i = 0; i < k; ++i) order.push_back(i);
  }
  std::vector<bool> seen(size_t(k), false);
  for (int o : order) {
    if (o < 0 || o >= k || seen[size_t(o)]) {
      std::fprintf(stderr, "ORDER must list each slot 0-%d once\n", k - 1);
      return 2;
    }
    seen[size_t(o)] = true;
  }
  if (int(order.size()) != k) {
    std::fprintf(stderr, "ORDER must list each slot 0-%d once\n", k - 1);
    return 2;
  }
  std::printf("%s: slots", t->balance().name().c_str());
  for (int i = 0; i < k; ++i) std::printf(" %d=%c", i, piece_char(enc.piece(i)));
  std::printf("; order");
  for (int o : order) std::printf(" %d", o);
  std::printf("\n");

  Study study(*t, order);
  uint32_t roots[2];
  for (int stm = 0; stm < 2; ++stm) {
    Placement p;
    p.stm = Color(stm);
    roots[stm] = study.build(p, 0);
  }
  double bytes = 0;
  const auto& levels = study.levels();
  for (size_t d = 0; d < levels.size(); ++d) {
    const size_t next = d + 1 < levels.size() ? levels[d + 1].size() : 0;
    double child_bytes = 0.5;  // a leaf's value
    if (d + 1 < levels.size()) child_bytes = next <= 256 ? 1 : next <= 65536 ? 2 : next <= (1u << 24) ? 3 : 4;
    const double level_bytes = double(levels[d].size()) * 64 * child_bytes;
    bytes += level_bytes;
    std::printf("  level %zu (slot %d): %zu nodes, %.0f bytes\n", d, order[d], levels[d].size(), level_bytes);
  }
  std::printf("roots %u %u; %.0f bytes in all\n", roots[0], roots[1], bytes);
}
