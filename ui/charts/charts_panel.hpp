// SPDX-License-Identifier: GPL-3.0-or-later
// Charts of finished runs: cubes, literals, seconds or memory after each pass, one line per
// balance and run, on a log scale for the counts (they fall by orders of magnitude). Exports the
// chart as PNG or SVG and the numbers as CSV. Further tabs, one per row of chart_list.cpp:
// minimization time vs cover size, table vs cover file sizes, our cover vs Syzygy WDL file sizes,
// probe-time distributions and their joint density from a probe benchmark run in the background,
// the size ablation run in the background, and from its result cover sizes with and without
// iterating the passes.
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

class ChartsPanel : public QWidget {
  Q_OBJECT
 public:
  enum Metric { Cubes = 0, Literals, Seconds, Memory };

  // With a context, the charts of chart_list.cpp follow the passes in tabs of their own.
  explicit ChartsPanel(AppContext* ctx = nullptr, QWidget* parent = nullptr);
  // The chart of type T from the chart list, or null: those charts exist with a context only,
  // except the TimeChart, which addPoints feeds with or without one (hidden without).
  template <class T>
  T* chartTab() const {
    for (QWidget* w : charts_)
      if (T* t = qobject_cast<T*>(w)) return t;
    return nullptr;
  }
  // Brings a tab to the front (with a context): "passes" or a chart's name in the chart list.
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
  QList<QWidget*> charts_;  // the charts made from the chart list, in its order
  QTabWidget* tabs_ = nullptr;
};

}  // namespace egtmin::ui
