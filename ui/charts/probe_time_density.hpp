// SPDX-License-Identifier: GPL-3.0-or-later
// The joint density of two probe methods' times on the same positions, after the paper's Fig. 2b:
// each position is one (our time, Fathom's time) pair, counted in a grid of log-spaced cells and
// drawn as a heat map on log-time axes with the y = x diagonal and both means. Points above the
// diagonal are positions Fathom took longer on.
#pragma once

#include <QList>
#include <QString>
#include <QtGlobal>
#include <cstdint>
#include <vector>

#include "probe/probe.hpp"

class QChart;

namespace egtmin::ui {

// A probe method's name ("indexed": CSV columns, summaries) and label ("cover, indexed": legends
// and axes), from the probe registry.
QString probeMethodName(probe::ProbeMethodId id);
QString probeMethodLabel(probe::ProbeMethodId id);

struct ProbeTimeDensity {
  probe::ProbeMethodId xMethod = probe::ProbeMethodId::Indexed;  // ours across
  probe::ProbeMethodId yMethod = probe::ProbeMethodId::Fathom;   // the anchor up
  int perDecade = 10;
  QList<double> edges;  // ns, shared by both axes; cell (i, j) spans [edges[i], edges[i+1]) x [edges[j], edges[j+1])
  struct Cell {
    int x = 0, y = 0;
    quint64 count = 0;
    bool operator==(const Cell&) const = default;
  };
  QList<Cell> cells;  // the non-empty ones, by x then y
  quint64 positions = 0;
  quint64 above = 0;  // y's time longer than x's (Fathom slower)
  quint64 below = 0;  // x's time longer than y's
  double xMeanNs = 0, yMeanNs = 0;

  bool empty() const { return positions == 0; }
  quint64 maxCount() const;
};

// Pairs x[i] with y[i] (the same position; a longer vector's tail has no partner and is left out)
// and bins both on edges 10^k with `perDecade` cells per decade, from the decade below the smaller
// time to the decade above the larger, so every pair lands in a cell.
ProbeTimeDensity binJointProbeTimes(const std::vector<uint32_t>& x, const std::vector<uint32_t>& y, int perDecade = 10);

// Cells are split into this many shades by count (log-spaced), one scatter series each, so the
// legend reads as the colour scale.
inline constexpr int kDensityShades = 6;

// The heat map: one QScatterSeries of square markers per shade (named by its count range), the
// diagonal "y = x" and the point "mean". The axes share one range, cut at the 99.9th percentile of
// either method (every pair is still counted), and the squares follow the plot area's size.
QChart* makeProbeDensityChart(const ProbeTimeDensity& d, const QString& title);

}  // namespace egtmin::ui
