// SPDX-License-Identifier: GPL-3.0-or-later
// How much structure a balance's 50-move-rule draws have: what the probe layout's Rice-coded set
// of them takes (probe/rule_draw_set.hpp), against the empirical entropy of "is this decisive
// position a cursed win or blessed loss" over the cover's representatives whose value is decisive,
// alone and given a context (the side to move with the squares of some of the pieces). The
// entropies are bounds for a form that codes the flag relative to the decisive positions (a probe
// would have to rank them, which none does today), so a small bound given a coarse context says a
// cover of "cursed among the wins" could be small, and a bound near the Rice set's says it could
// not. The contexts: the side to move alone, with one piece's square, and with two pieces'.
//
//   egtmin_rule_draws_study DATA_DIR NAME
//
// Reads DATA_DIR/tables/NAME.egtt and DATA_DIR/covers/NAME.egtcr (its canon and draws).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "probe/rule_draw_set.hpp"
#include "store/cover_file.hpp"
#include "table/table_store.hpp"

using namespace egtmin;

namespace {

// Entropy in bytes of counts (yes, no) per context.
double entropy_bytes(const std::vector<uint64_t>& yes, const std::vector<uint64_t>& all) {
  double bits = 0;
  for (size_t c = 0; c < yes.size(); ++c) {
    const double n = double(all[c]), k = double(yes[c]);
    if (k == 0 || k == n) continue;
    bits += -k * std::log2(k / n) - (n - k) * std::log2((n - k) / n);
  }
  return bits / 8;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: egtmin_rule_draws_study DATA_DIR NAME\n");
    return 2;
  }
  const std::filesystem::path data = argv[1];
  const auto balance = Balance::parse(argv[2]);
  if (!balance) {
    std::fprintf(stderr, "%s: %s\n", argv[2], balance.error().message.c_str());
    return 2;
  }
  auto cover = store::load_cover(data / "covers" / (balance->name() + ".egtcr"), &*balance);
  if (!cover) {
    std::fprintf(stderr, "%s\n", cover.error().message.c_str());
    return 1;
  }
  TableStore store(data);
  auto table = store.get(*balance);
  if (!table) {
    std::fprintf(stderr, "%s\n", table.error().message.c_str());
    return 1;
  }
  const Encoding enc(*balance);
  const CoverCanon canon(enc, cover->canon);
  auto rules = probe::RuleDrawSet::build(cover->rule_draws);
  if (!rules) {
    std::fprintf(stderr, "%s\n", rules.error().message.c_str());
    return 1;
  }
  // Contexts: the side to move with the squares of the pieces in a subset of at most two slots.
  std::vector<std::vector<int>> subsets{{}};
  for (int a = 0; a < enc.pieces(); ++a) {
    subsets.push_back({a});
    for (int b = a + 1; b < enc.pieces(); ++b) subsets.push_back({a, b});
  }
  std::vector<std::vector<uint64_t>> yes(subsets.size()), all(subsets.size());
  for (size_t k = 0; k < subsets.size(); ++k) {
    const size_t size = size_t{2} << (kSquareBits * subsets[k].size());
    yes[k].assign(size, 0);
    all[k].assign(size, 0);
  }
  uint64_t decisive = 0, flagged = 0;
  for (uint64_t i = 0; i < enc.size(); ++i) {
    const Placement p = enc.decode(i);
    if (!enc.is_legal(p) || !canon.is_representative(p)) continue;
    const Wdl v = (*table)->value(p);
    if (v == Wdl::Draw || v == Wdl::Illegal) continue;
    const bool rule = v == Wdl::CursedWin || v == Wdl::BlessedLoss;
    ++decisive;
    flagged += rule;
    for (size_t k = 0; k < subsets.size(); ++k) {
      size_t c = p.stm;
      for (int s : subsets[k]) c = c << kSquareBits | p.sq[size_t(s)];
      ++all[k][c];
      yes[k][c] += rule;
    }
  }
  std::printf("%s: %llu decisive representatives, %llu of them the rule's draws; Rice-coded set %zu bytes\n",
              balance->name().c_str(), (unsigned long long)decisive, (unsigned long long)flagged,
              rules->words().size_bytes());
  for (size_t k = 0; k < subsets.size(); ++k) {
    std::printf("  entropy given the side to move");
    for (int s : subsets[k]) std::printf(" + slot %d (%c)", s, piece_char(enc.piece(s)));
    std::printf(": %.0f bytes\n", entropy_bytes(yes[k], all[k]));
  }
  return 0;
}
