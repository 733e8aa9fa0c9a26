// SPDX-License-Identifier: GPL-3.0-or-later
// Charts of finished runs: cubes, literals, seconds or memory after each pass, one line per
// balance and run, on a log scale for the counts (they fall by orders of magnitude). Exports the
// chart as PNG or SVG and the numbers as CSV. Further tabs: minimization time vs cover size,
// table vs cover file sizes, our cover vs Syzygy WDL file sizes, probe-time distributions and
// their joint density from a probe benchmark run in the background, the size ablation run in the
// background, and from its result cover sizes with and without iterating the passes.
#pragma once

#include <QList>
#include <QWidget>

#include "runs/run_job.hpp"

class QChart;
class QChartView;
class QComboBox;
class QTabWidget;

namespace egtmin::ui {

class AblationChart;
class AppContext;
class IterationChart;
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
  // The size ablation, and Fig. 1b drawn from its result (with a context only).
  AblationChart* ablationChart() const { return ablation_; }
  IterationChart* iterationChart() const { return iteration_; }
  // Brings a tab to the front (with a context): "passes", "time", "iteration", "sizes", "syzygy",
  // "probe-times", "ablation".
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
    QString run;              // the run's title (its balances and passes)
    int runNumber = 0;        // 1, 2, ... in the order the runs came since the last clear
    QList<PassPoint> points;  // one balance
  };
  QList<Line> lines_;
  int runs_ = 0;  // runs with lines since the last clear
  QChartView* view_;
  QComboBox* metric_;
  SizesChart* sizes_ = nullptr;
  SyzygySizeChart* syzygy_ = nullptr;
  TimeChart* time_ = nullptr;
  ProbeTimesChart* probeTimes_ = nullptr;
  IterationChart* iteration_ = nullptr;
  AblationChart* ablation_ = nullptr;
  QTabWidget* tabs_ = nullptr;
};

}  // namespace egtmin::ui
