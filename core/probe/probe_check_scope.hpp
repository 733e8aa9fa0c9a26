// SPDX-License-Identifier: GPL-3.0-or-later
// Which positions the probe's proof (probe/probe_check.hpp) asks the probe about.
#pragma once

#include <cstdint>

namespace egtmin::probe {

// Which positions are probed. Each class of positions the board symmetries join has one value,
// and the probe answers every member through its representative's cover entry and a capture
// search that the symmetry maps onto the representative's.
enum class ProbeCheckScope : uint8_t {
  // One member of each class, counted with the positions it stands for (as `check` counts the
  // cubes' check): a different board transform of the representative from class to class, so
  // the probe's own transforms are taken on most probes. A fraction of the probes: an eighth
  // without pawns, a half with.
  OneOfEachClass,
  // Every legal placement of the index space: each member of each class probed.
  EveryPlacement,
};

}  // namespace egtmin::probe
