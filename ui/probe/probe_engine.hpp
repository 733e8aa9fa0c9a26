// SPDX-License-Identifier: GPL-3.0-or-later
// Computes a ProbeResult from a value source and Syzygy. Synchronous and thread-agnostic; the
// panel calls it from a worker. Calls are serialized because Fathom's first probe of a table and
// its DTZ probes are not safe to run concurrently.
#pragma once

#include <QMutex>

#include "probe/probe_result.hpp"
#include "probe/value_source.hpp"

namespace egtmin::ui {

class ProbeEngine {
 public:
  static ProbeResult compute(const Position& pos, ValueSource* source, const Syzygy* syzygy);
  // Long algebraic notation with capture, promotion and check/mate marks.
  static QString moveText(const Position& pos, const Move& m);
  // Held while computing; AppContext takes it to swap Fathom's global Syzygy state safely.
  static QMutex& mutex();
};

}  // namespace egtmin::ui
