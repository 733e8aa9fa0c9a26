// SPDX-License-Identifier: GPL-3.0-or-later
// "Our" value of a position, behind one small interface: today it is read from the generated
// tables (TableValueSource); when cover files and the cover prober land, a CoverValueSource
// implements the same three calls and the probe panel does not change.
#pragma once

#include <QString>
#include <cstddef>
#include <optional>

#include "chess/balance.hpp"
#include "chess/position.hpp"
#include "logic/cube.hpp"
#include "table/table.hpp"
#include "util/result.hpp"

namespace egtmin::ui {

// What a source keeps in memory: its bytes, and the setting that decided them.
struct SourceMemory {
  size_t bytes = 0;
  QString level;  // the covers' probe memory level ("fast")
};

// What answered a probe: a line for people and, from a cover, the cube itself.
struct ProbeDetail {
  QString text;              // the matching cube's notation, for covers
  logic::CubeWord cube = 0;  // the cover's cube holding the position's representative; 0: none
};

class ValueSource {
 public:
  virtual ~ValueSource() = default;

  // Short name for column headers and labels ("table", "cover").
  virtual QString name() const = 0;
  // Whether data for the balance (either colouring) is available, so the panel can offer to make it.
  virtual bool available(const Balance& b) const = 0;
  // Exact WDL for the side to move of a legal position. Called from worker threads (one at a
  // time). detail, when given, receives what answered (the matching cube for covers).
  virtual Result<Wdl> probe(const Position& pos, ProbeDetail* detail = nullptr) = 0;
  // The memory the source holds now, when it tells (the covers do, once loaded). Called from the
  // worker threads, as probe() is.
  virtual std::optional<SourceMemory> memory() { return std::nullopt; }
};

}  // namespace egtmin::ui
