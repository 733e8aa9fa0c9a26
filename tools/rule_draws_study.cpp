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
// With --cover it also minimizes the flag itself, the way a balance's table is minimized: a
// function whose care positions are the decisive representatives (1 where the rule makes them a
// draw, 0 elsewhere), the draws and illegal positions don't-cares. It reports the cover's cubes,
// its file and the probe layout the default index would make of it (regions or one leaf), against
// the Rice-coded set: what a second cover in place of the set would take.
//
// With --orders it reports instead what the Rice-coded set takes with its indices' fields put in
// another order (the side to move first or last, the pieces' squares in every order, each square
// rank first or file first): a probe could look the draws up under any fixed reordering of its
// index, and the set is smaller where the order puts positions of like flags side by side.
//
// With --rows it reports the draws as rows of 64 (study_rows below).
//
//   egtmin_rule_draws_study DATA_DIR NAME [--cover [--threads N]] [--orders] [--rows]
//
// Reads DATA_DIR/tables/NAME.egtt and DATA_DIR/covers/NAME.egtcr (its canon and draws); --orders
// and --rows read the cover alone.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "logic/pass_sequence.hpp"
#include "logic/pipeline.hpp"
#include "probe/probe_layout.hpp"
#include "probe/rule_draw_rows.hpp"
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

// The flag as a table: White wins where the rule makes a decisive position a draw, White loses at
// the other decisive positions, and the rest is illegal (the minimizer's don't-cares).
Table flag_table(const Table& t) {
  Table flag = t;
  for (uint64_t s = 0; s < t.slots(); ++s) {
    const Wdl v = t.at_slot(s);
    const bool rule = v == Wdl::CursedWin || v == Wdl::BlessedLoss;
    const bool plain = v == Wdl::Win || v == Wdl::Loss;
    flag.set_slot(s, rule ? Wdl::Win : plain ? Wdl::Loss : Wdl::Illegal);
  }
  return flag;
}

int minimize_flag(const Table& t, const store::CoverFile& cover, size_t set_bytes, int threads) {
  const Table flag = flag_table(t);
  logic::MinimizeOptions options;
  options.canon = cover.canon;
  options.threads = threads;
  auto m = logic::minimize_table(flag, logic::default_passes(), options);
  if (!m) {
    std::fprintf(stderr, "%s\n", m.error().message.c_str());
    return 1;
  }
  const logic::Output implied = logic::most_cubes_output(m->cover, m->may_imply);
  logic::drop_output(m->cover, implied);
  store::CoverFile file;
  file.balance = cover.balance;
  file.inputs = cover.inputs;
  file.canon = m->scheme;
  file.passes = logic::passes_string(logic::default_passes());
  file.cubes = std::move(m->cover);
  file.implied = implied;
  const size_t cubes = file.cubes.size();
  const size_t file_bytes = store::serialize_cover(file).size();
  auto lc = probe::CoverProber::build(std::move(file), probe::CoverProber::kDefaultCopies, probe::RegionPolicy::Auto,
                                      threads);
  if (!lc) {
    std::fprintf(stderr, "%s\n", lc.error().message.c_str());
    return 1;
  }
  const size_t layout = probe::serialize_layout(**lc, {}).size();
  std::printf(
      "  a cover of the flag (%s implied): %zu cubes, file %zu bytes, layout %zu bytes (%s), "
      "%.3fx the Rice-coded set\n",
      implied == logic::Output::Win ? "the rule's draws" : "the others", cubes, file_bytes, layout,
      (*lc)->region.built() ? "regions" : "one leaf", double(layout) / double(set_bytes));
  return 0;
}

// The Rice-coded set's bytes for each order of the indices' fields; the smallest few printed.
int study_orders(const Balance& b, const std::vector<uint32_t>& draws) {
  const int k = b.pieces();
  const Encoding enc(b);
  std::vector<int> order(static_cast<size_t>(k));
  for (int i = 0; i < k; ++i) order[size_t(i)] = i;
  struct Result {
    size_t bytes;
    std::string order;
  };
  std::vector<Result> results;
  size_t encoding_order = 0;
  std::vector<uint32_t> moved(draws.size());
  do {
    for (int stm_last = 0; stm_last < 2; ++stm_last)
      for (int file_first = 0; file_first < 2; ++file_first) {
        for (size_t n = 0; n < draws.size(); ++n) {
          const uint64_t i = draws[n];
          uint64_t out = stm_last ? 0 : i >> stm_shift(k) & 1;
          for (int slot : order) {
            uint64_t sq = i >> square_shift(k, slot) & kSquareMask;
            if (file_first) sq = (sq & 7) << 3 | sq >> 3;
            out = out << kSquareBits | sq;
          }
          if (stm_last) out = out << 1 | (i >> stm_shift(k) & 1);
          moved[n] = uint32_t(out);
        }
        std::sort(moved.begin(), moved.end());
        auto set = probe::RuleDrawSet::build(moved);
        if (!set) {
          std::fprintf(stderr, "%s\n", set.error().message.c_str());
          return 1;
        }
        std::string name = stm_last ? "" : "stm ";
        for (int slot : order) {
          name.push_back(piece_char(enc.piece(slot)));
          name.append(std::to_string(slot)).push_back(' ');
        }
        if (stm_last) name += "stm ";
        name += file_first ? "(file first)" : "(rank first)";
        if (!stm_last && !file_first && std::is_sorted(order.begin(), order.end()))
          encoding_order = set->words().size_bytes();
        results.push_back({set->words().size_bytes(), name});
      }
  } while (std::next_permutation(order.begin(), order.end()));
  std::sort(results.begin(), results.end(), [](const Result& x, const Result& y) { return x.bytes < y.bytes; });
  std::printf("%s: %zu draws; the encoding's order (stm, slots 0 to %d, rank first) %zu bytes; the smallest:\n",
              b.name().c_str(), draws.size(), k - 1, encoding_order);
  size_t shown = 0;
  for (const Result& r : results)
    if (shown++ < 12) std::printf("  %10zu bytes  %s\n", r.bytes, r.order.c_str());
  std::printf("  %10zu bytes  the largest\n", results.back().bytes);
  return 0;
}

// The draws as rows of 64: one piece's square free, the side to move and the other squares the
// row. Per free piece: the rows holding a draw, their distinct masks, and what a form would take
// that keeps the rows as a Rice-coded set (its look-up as the set's), a mask's number per row at
// the masks' empirical entropy (a bound), and each distinct mask once.
int study_rows(const Balance& b, const std::vector<uint32_t>& draws) {
  const int k = b.pieces();
  const Encoding enc(b);
  std::printf("%s: %zu draws as rows of one piece's 64 squares\n", b.name().c_str(), draws.size());
  for (int slot = 0; slot < k; ++slot) {
    const auto [keys, masks] = probe::RuleDrawRows::rows_of(draws, k, slot);
    std::vector<uint64_t> sorted = masks;
    std::sort(sorted.begin(), sorted.end());
    double bits = 0;
    size_t distinct = 0;
    for (size_t a = 0; a < sorted.size();) {
      size_t z = a;
      while (z < sorted.size() && sorted[z] == sorted[a]) ++z;
      bits += double(z - a) * -std::log2(double(z - a) / double(sorted.size()));
      ++distinct, a = z;
    }
    auto key_set = probe::RuleDrawSet::build(keys);
    if (!key_set) return 1;
    const size_t form = key_set->words().size_bytes() + size_t(bits / 8) + distinct * 8;
    std::printf(
        "  %c%d free: %zu rows, %zu distinct masks; rows as a set %zu bytes + masks' numbers %.0f + "
        "masks %zu = %zu bytes\n",
        piece_char(enc.piece(slot)), slot, keys.size(), distinct, key_set->words().size_bytes(), bits / 8, distinct * 8,
        form);
  }
  // The built form, each slot free, against the set: bytes, and the mean time of a look-up of
  // every draw and of as many other indices.
  auto set = probe::RuleDrawSet::build(draws);
  if (!set) return 1;
  std::vector<uint32_t> others;
  std::mt19937_64 rng(7);
  while (others.size() < draws.size()) others.push_back(uint32_t(rng() & ((uint64_t{1} << enc.bits()) - 1)));
  auto time_ns = [&](auto&& contains, uint64_t& found) {
    const auto t0 = std::chrono::steady_clock::now();
    for (uint32_t i : draws) found += contains(i);
    for (uint32_t i : others) found += contains(i);
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
           double(2 * draws.size());
  };
  uint64_t set_found = 0;
  const double set_ns = time_ns([&](uint64_t i) { return set->contains(i); }, set_found);
  std::printf("  the Rice-coded set: %zu bytes, %.0f ns a look-up\n", set->words().size_bytes(), set_ns);
  for (int slot = 0; slot < k; ++slot) {
    auto built = probe::RuleDrawRows::build(draws, k, slot);
    if (!built) return 1;
    uint64_t found = 0;
    const double ns = time_ns([&](uint64_t i) { return built->contains(i); }, found);
    std::printf("  built, %c%d free: %zu bytes (%.3fx the set), %.0f ns a look-up, %s\n", piece_char(enc.piece(slot)),
                slot, built->words().size_bytes(),
                double(built->words().size_bytes()) / double(set->words().size_bytes()), ns,
                found == set_found ? "the same answers" : "OTHER ANSWERS");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  bool with_cover = false, orders = false, rows = false;
  int threads = 2;
  for (int i = 3; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--cover")
      with_cover = true;
    else if (a == "--orders")
      orders = true;
    else if (a == "--rows")
      rows = true;
    else if (a == "--threads" && i + 1 < argc)
      threads = std::atoi(argv[++i]);
    else
      argc = 0;  // the usage below
  }
  if (argc < 3 || threads < 1) {
    std::fprintf(stderr, "usage: egtmin_rule_draws_study DATA_DIR NAME [--cover [--threads N]] [--orders] [--rows]\n");
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
  if (orders) return study_orders(*balance, cover->rule_draws);
  if (rows) return study_rows(*balance, cover->rule_draws);
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
  std::fflush(stdout);
  return with_cover ? minimize_flag(**table, *cover, rules->words().size_bytes(), threads) : 0;
}
