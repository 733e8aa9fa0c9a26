// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/capture_freedom.hpp"

#include <algorithm>
#include <array>
#include <bit>

#include "probe/cover_prober.hpp"
#include "table/generator.hpp"
#include "table/successor_tables.hpp"
#include "table/table_store.hpp"
#include "util/parallel.hpp"

namespace egtmin::probe {

RegionFreedom capture_freedom(const Encoding& enc, const CoverCanon& canon, const SuccessorValue& value, int threads,
                              const SuccessorValue* same) {
  RegionFreedom f;
  const std::vector<uint64_t> care = RegionIndex::care_bitmap(enc, canon);
  f.capture_wins.assign(care.size(), 0);
  f.capture_draws.assign(care.size(), 0);
  if (same) f.evasions.assign(care.size(), 0), f.evasions_missed.assign(care.size(), 0);
  // Chunks of whole words: workers never write the same word.
  parallel_for(care.size(), threads, 1024, no_progress(), [&](uint64_t begin, uint64_t end, int) {
    for (uint64_t w = begin; w < end; ++w)
      for (uint64_t x = care[w]; x; x &= x - 1) {
        const unsigned bit = unsigned(std::countr_zero(x));
        const Position pos = enc.position(enc.decode(w << 6 | bit));
        const Wdl reached = capture_value(pos, value);
        if (reached == Wdl::Win)
          f.capture_wins[w] |= uint64_t{1} << bit;
        else if (reached == Wdl::Draw || reached == Wdl::CursedWin)
          f.capture_draws[w] |= uint64_t{1} << bit;
        if (!same || !pos.in_check(pos.side_to_move())) continue;
        // A child of this balance (a move that neither captures nor promotes) from `same`.
        const uint64_t key = pos.material_key();
        const SuccessorValue child = [&](const Position& after) {
          return after.material_key() == key ? (*same)(after) : value(after);
        };
        if (const Wdl searched = evasion_value(pos, child); searched != Wdl::Illegal)
          (searched == (*same)(pos) ? f.evasions : f.evasions_missed)[w] |= uint64_t{1} << bit;
      }
  });
  return f;
}

std::optional<RegionFreedom> capture_freedom(const std::filesystem::path& data_dir, const Encoding& enc,
                                             const CoverCanon& canon, int threads, CheckEvasions evasions) {
  // Where DATA holds the tables of every balance the search reaches, a capture's value is one
  // lookup; a capture-resolved cover would search that position's own captures again.
  TableStore tables(data_dir);
  const std::vector<Balance> reached = successor_balances(enc.balance());
  if (std::all_of(reached.begin(), reached.end(), [&](const Balance& s) { return tables.on_disk(s); })) {
    const SuccessorTables successors(enc.balance(), tables.lookup());
    if (!successors.missing()) {
      const SuccessorValue value = [&](const Position& after) { return successors.value_stm(after); };
      if (evasions == CheckEvasions::Stored) return capture_freedom(enc, canon, value, threads);
      auto own = tables.get(enc.balance());  // an error when its table is not there
      if (!own) return capture_freedom(enc, canon, value, threads);
      const Table& table = **own;
      const SuccessorValue same = [&](const Position& p) {
        const Wdl white = table.value(p);
        return p.side_to_move() == White || white == Wdl::Illegal ? white : negate(white);
      };
      return capture_freedom(enc, canon, value, threads, &same);
    }
  }
  // The prober of the balances the search reaches (not this one, whose layout is being made),
  // read as they are: nothing written beside them.
  CoverProber successors;
  constexpr std::array kinds{store::CoverKind::CaptureResolved, store::CoverKind::Standalone};
  // add_reaching skips a balance with no cover on disk: has() says whether it was there.
  for (const Balance& s : reached)
    if (s.pieces() > 1 && (!successors.add_reaching(data_dir, s, kinds, CoverProber::LayoutPolicy::Read,
                                                    CoverProber::kDefaultCopies, RegionPolicy::Auto, threads) ||
                           !successors.has(s)))
      return std::nullopt;
  return capture_freedom(
      enc, canon, [&](const Position& after) { return successors.probe_wdl(after, Method::Indexed); }, threads);
}

std::vector<uint32_t> rule_draws_left(std::span<const uint32_t> draws, const RegionFreedom& freedom,
                                      const std::function<bool(uint64_t)>& searched) {
  std::vector<uint32_t> left;
  left.reserve(draws.size());
  for (const uint32_t index : draws) {
    const size_t word = index >> 6;
    const bool decided = word < freedom.evasions.size() && (freedom.evasions[word] >> (index & 63) & 1);
    if (!decided || !searched(index)) left.push_back(index);
  }
  return left;
}

}  // namespace egtmin::probe
