// SPDX-License-Identifier: GPL-3.0-or-later
// Computes a ProbeResult from a value source and Syzygy. Synchronous and thread-safe; the panel
// calls it from a worker. Syzygy guards Fathom's state itself (core/probe/syzygy.hpp), and the
// tables a position's moves reach are warmed up before they are probed.
#pragma once

#include <QString>

#include "probe/probe_result.hpp"
#include "probe/value_source.hpp"

namespace egtmin::ui {

class ProbeEngine {
 public:
  static ProbeResult compute(const Position& pos, ValueSource* source, const Syzygy* syzygy);
  // Long algebraic notation with capture, promotion and check/mate marks.
  static QString moveText(const Position& pos, const Move& m);
};

}  // namespace egtmin::ui
