// SPDX-License-Identifier: GPL-3.0-or-later
// Charts of finished runs: cubes, literals, seconds or memory after each pass, one line per
// balance and run, on a log scale for the counts (they fall by orders of magnitude). Exports the
// chart as PNG or SVG and the numbers as CSV. Further tabs: minimization time vs cover size,
// table vs cover file sizes, our cover vs Syzygy WDL file sizes, and probe-time distributions
// from a probe benchmark run in the background.
#pragma once

#include <QList>
#include <QWidget>

#include "runs/run_job.hpp"

class QChart;
class QChartView;
class QComboBox;
class QTabWidget;

namespace egtmin::ui {

class AppContext;
class ProbeTimesChart;
class SizesChart;
class SyzygySizeChart;
class TimeChart;

class ChartsPanel : public QWidget {
  Q_OBJECT
 public:
  enum Metric { Cubes = 0, Literals, Seconds, Memory };

  // With a context, a second tab compares table and cover file sizes in its data directory.
  explicit ChartsPanel(AppContext* ctx = nullptr, QWidget* parent = nullptr);
  SizesChart* sizesChart() const { return sizes_; }
  // Cover vs Syzygy WDL sizes (with a context only) and minimization time vs cover size.
  SyzygySizeChart* syzygyChart() const { return syzygy_; }
  TimeChart* timeChart() const { return time_; }
  // Probe-time distributions (with a context only).
  ProbeTimesChart* probeTimesChart() const { return probeTimes_; }
  // Brings a tab to the front (with a context): "passes", "time", "sizes", "syzygy", "probe-times".
  void showTab(const QString& name);

  // Adds a finished run's points (nothing when it ran no passes).
  void addRun(const RunJob* job);
  void addPoints(const QString& runTitle, const QList<PassPoint>& points);
  void clear();
  void setMetric(int m);

  int seriesCount() const;
  QChart* chart() const;
  bool exportPng(const QString& path) const;
  bool exportSvg(const QString& path) const;
  bool exportCsv(const QString& path, QString* error = nullptr) const;

 private:
  void rebuild();
  void exportDialog();

  struct Line {
    QString run;
    QList<PassPoint> points;  // one balance
  };
  QList<Line> lines_;
  QChartView* view_;
  QComboBox* metric_;
  SizesChart* sizes_ = nullptr;
  SyzygySizeChart* syzygy_ = nullptr;
  TimeChart* time_ = nullptr;
  ProbeTimesChart* probeTimes_ = nullptr;
  QTabWidget* tabs_ = nullptr;
};

}  // namespace egtmin::ui
