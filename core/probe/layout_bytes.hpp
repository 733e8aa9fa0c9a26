// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes a probe layout should take, as make_layout chooses its form: the fast form (plain
// region cubes) or one of the framings (probe/region_frames.hpp), slower to probe and smaller.
#pragma once

#include <cstdint>

namespace egtmin::probe {

// `target`: the bytes the layout should take where some form does; `ceiling`: where none does, the
// bytes it should still keep to (at least `target`). Why two: a batch's target keeps a whole set of
// layouts within a share of Syzygy's bytes, and where a balance cannot meet it, its fastest form
// within the ceiling (its Syzygy file) probes many times faster than its smallest form, which
// saves only the last few bytes.
struct LayoutBytes {
  uint64_t target = 0;
  uint64_t ceiling = 0;
};

}  // namespace egtmin::probe
