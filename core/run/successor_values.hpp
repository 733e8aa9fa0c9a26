// SPDX-License-Identifier: GPL-3.0-or-later
// Where a capture-resolved cover's proof takes the values its capture search reaches (batch and
// check --successors).
#pragma once

#include <cstdint>
#include <span>

#include "util/enum_names.hpp"

namespace egtmin::run {

// Covers: the covers of the balances captures and promotions reach, as an engine probes them, so
// those covers are made and proven first. Tables: their tables, which the balance's own table was
// generated from. Why both: each of those covers was proven equal to its table on every legal
// position (its own check-cr), so the search answers the same either way; with tables, remaking
// one balance (on a machine that kept none of the covers below it) generates the tables it needs
// and skips minimizing and proving the dozens of covers they belong to.
enum class SuccessorValues : uint8_t { Covers, Tables };
inline constexpr EnumName<SuccessorValues> kSuccessorValuesNames[] = {{SuccessorValues::Covers, "covers"},
                                                                      {SuccessorValues::Tables, "tables"}};
constexpr std::span<const EnumName<SuccessorValues>> enum_names(SuccessorValues) { return kSuccessorValuesNames; }

}  // namespace egtmin::run
