// SPDX-License-Identifier: GPL-3.0-or-later
// Log-log scatter charts after the paper's figures: our cover file size against the Syzygy WDL
// file size per balance (Fig. 2a, with the y = x diagonal), and minimization time against the
// final cover size per finished run and balance (Fig. 1a, a balance's runs joined by a dashed line).
// Also what every chart shares: SVG/PNG/CSV export of a chart view, and bars on a log scale.
#pragma once

#include <functional>

#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QWidget>

#include "background_task.hpp"
#include "runs/run_job.hpp"

class QTextStream;

class QAbstractAxis;
class QAbstractBarSeries;
class QBarCategoryAxis;
class QChart;
class QChartView;
class QLogValueAxis;
class QBoxLayout;
class QPushButton;
class QWidget;

namespace egtmin::ui {

class AppContext;

// Renders the view's chart into an SVG file; false when it cannot be written or came out empty.
bool exportChartSvg(QChartView* view, const QString& path);
bool exportChartPng(QChartView* view, const QString& path);
// Writes a CSV file atomically (QSaveFile) with `write`; false, with the reason in `error`, when
// it cannot be opened or committed.
bool exportCsvFile(const QString& path, QString* error, const std::function<void(QTextStream&)>& write);

// Adds `bars` to `chart`, one group per category along the bottom, against the axis `y` (which
// the chart takes) on the left; the category axis, for other series to attach to.
QBarCategoryAxis* addBars(QChart* chart, QAbstractBarSeries* bars, const QStringList& categories, QAbstractAxis* y);
// The same on a log axis of `yTitle` from 1 to the power of ten above `hi` (bars start at 1
// there: give absent values as 1).
void addLogBars(QChart* chart, QAbstractBarSeries* bars, const QStringList& categories, double hi,
                const QString& yTitle);

// A base-10 log axis titled `title`, from the power of ten at or below `lo` to the one above `hi`.
QLogValueAxis* logAxis(double lo, double hi, const QString& title);

// Replaces the view's chart with an empty one titled `message` (why nothing is plotted).
void showChartMessage(QChartView* view, const QString& message);

// Wires an export button: a save dialog titled `title`, proposing `file` with `filter`, then
// `write(path, &error)`; a failed write is reported in a message box (the error, or the path).
void connectExport(QWidget* owner, QPushButton* button, const QString& title, const QString& file,
                   const QString& filter, std::function<bool(const QString&, QString*)> write);
// A chart's export buttons, added to `row`: PNG and SVG of `view`, and CSV through `csv` when
// given, each proposing `stem` with its extension.
void addExportButtons(QWidget* owner, QBoxLayout* row, QChartView* view, const QString& stem,
                      std::function<bool(const QString&, QString*)> csv = {});

struct SyzygySizePoint {
  QString balance;
  double coverBytes = 0;     // our .egtc
  double syzygyBytes = 0;    // the .rtbw as shipped
  double syzygyXzBytes = 0;  // that file through xz -9e
};

class SyzygySizeChart : public QWidget {
  Q_OBJECT
 public:
  explicit SyzygySizeChart(AppContext* ctx, QWidget* parent = nullptr);

  QChart* chart() const;
  QChartView* view() const { return view_; }
  bool exportSvg(const QString& path) const { return exportChartSvg(view_, path); }
  // Shows these points (balances with both files); used by refresh() and by tests.
  void setPoints(const QList<SyzygySizePoint>& points);
  // Says why there is nothing to plot.
  void setMessage(const QString& message);
  QString message() const { return message_; }
  bool busy() const;

 public Q_SLOTS:
  void refresh();

 private:
  AppContext* ctx_;
  QChartView* view_;
  QString message_;
  BackgroundTask<QPair<QList<SyzygySizePoint>, QString>>* watcher_;
  bool again_ = false;
};

class TimeChart : public QWidget {
  Q_OBJECT
 public:
  explicit TimeChart(QWidget* parent = nullptr);

  QChart* chart() const;
  QChartView* view() const { return view_; }
  bool exportSvg(const QString& path) const { return exportChartSvg(view_, path); }
  // One point per balance in the run: total seconds over its passes against its final cubes.
  // The chart's first series holds every point; each balance with points from several runs adds
  // a line through them, named by the balance.
  void addPoints(const QString& runTitle, const QList<PassPoint>& points);
  void clear();
  int pointCount() const { return int(points_.size()); }
  // Balances with more than one point (one joining line each), in the order first seen.
  QStringList joinedBalances() const;

 private:
  void rebuild();
  struct Point {
    QString run, balance;
    double seconds = 0, cubes = 0;
  };
  static QPointF plotted(const Point& p);
  QList<Point> points_;
  QChartView* view_;
};

}  // namespace egtmin::ui
