// SPDX-License-Identifier: GPL-3.0-or-later
// The RegionFreedom of a capture-resolved cover: for every legal representative of its balance,
// what the probe's capture search reaches (table/capture_resolve.hpp), found by searching the
// position's captures and promotions in the covers of the balances they lead to, as the probe
// itself does, or in their tables where the data directory holds them all. Why not only the
// tables: a layout can be made from the cover files alone (minimize saves it beside the cover;
// `egtmin-cli layouts` remakes it after an upgrade), and the search's values are exact whatever
// answers them.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "probe/region_index.hpp"
#include "table/capture_resolve.hpp"
#include "table/cover_canon.hpp"
#include "table/encoding.hpp"

namespace egtmin::probe {

// `value`: the value for the side to move of a position a capture or promotion leads to. Runs on
// `threads` workers (0: one per core). With `same`, the value of a position of this balance (its
// table's), the positions in check are searched too, each found to be given its value by the
// search (RegionFreedom::evasions) or another (evasions_missed).
RegionFreedom capture_freedom(const Encoding& enc, const CoverCanon& canon, const SuccessorValue& value, int threads,
                              const SuccessorValue* same = nullptr);

// The same, the values looked up in the tables under data_dir/tables of the balances the
// captures and promotions reach when every one is there, and otherwise probed in their covers
// under data_dir/covers (either kind, and theirs in turn). Nothing when a cover is not there
// either: the regions are then planned without it, and are as exact. The evasions with
// CheckEvasions::Searched, and only where the balance's own table is there too (checking the
// search against it needs its every value).
std::optional<RegionFreedom> capture_freedom(const std::filesystem::path& data_dir, const Encoding& enc,
                                             const CoverCanon& canon, int threads,
                                             CheckEvasions evasions = kDefaultCheckEvasions);

// The 50-move rule's draws (a cover's ascending representative indices) a layout must still hold:
// all but those the evasion search decides (`freedom.evasions`) in a region that leaves them to it
// (`searched`). A probe answers those by the search alone, which gives the cursed wins and
// blessed losses too, so they would never be looked up.
std::vector<uint32_t> rule_draws_left(std::span<const uint32_t> draws, const RegionFreedom& freedom,
                                      const std::function<bool(uint64_t)>& searched);

}  // namespace egtmin::probe
