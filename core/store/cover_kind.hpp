// SPDX-License-Identifier: GPL-3.0-or-later
// The two kinds of cover a balance may have, side by side under DATA/covers. Standalone: every
// care position's value is in the cubes (one match per probe). Capture-resolved: what a capture
// or promotion reaches is left to the probe's capture search, whose value the probe combines with
// the cubes' (table/capture_resolve.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "util/enum_names.hpp"

namespace egtmin::store {

enum class CoverKind : uint8_t { Standalone = 0, CaptureResolved = 1 };

// As JSON reports spell them (util/enum_names.hpp).
inline constexpr EnumName<CoverKind> kCoverKindNames[] = {{CoverKind::Standalone, "standalone"},
                                                          {CoverKind::CaptureResolved, "capture-resolved"}};
constexpr std::span<const EnumName<CoverKind>> enum_names(CoverKind) { return kCoverKindNames; }

// ".egtc", or ".egtcr" for a capture-resolved cover: a balance may have both, and what looks for
// one kind by its extension never picks up the other.
constexpr std::string_view cover_extension(CoverKind kind) {
  return kind == CoverKind::CaptureResolved ? ".egtcr" : ".egtc";
}
// ".egtl", or ".egtlr": each kind's probe layout (probe/probe_layout.hpp), beside its cover.
constexpr std::string_view layout_extension(CoverKind kind) {
  return kind == CoverKind::CaptureResolved ? ".egtlr" : ".egtl";
}

}  // namespace egtmin::store
