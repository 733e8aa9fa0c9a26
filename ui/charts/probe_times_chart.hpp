// SPDX-License-Identifier: GPL-3.0-or-later
// Probe-time distributions after the paper's Fig. 2b: core's probe benchmark (bench::run_probe_bench,
// random legal positions checked against Fathom, then each method timed per probe) launched from
// the GUI in the background, and the per-probe times of our two cover methods (indexed, linear) and
// Fathom drawn as histograms on a log time axis, with each method's median and mean and the number
// of positions where a method disagreed with Fathom; or, from the same run, the joint density of the
// indexed method's time against Fathom's on each position.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <cstdint>
#include <memory>
#include <vector>

#include "charts/probe_time_density.hpp"

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace egtmin {
class Progress;
}

namespace egtmin::ui {

class AppContext;

// One method's per-probe times, binned on log-spaced edges shared by every method of a run.
struct ProbeTimeHistogram {
  probe::ProbeMethodId method = probe::ProbeMethodId::Indexed;
  QList<double> edges;    // bins + 1 edges in ns; bin i is [edges[i], edges[i+1])
  QList<quint64> counts;  // one per bin; sums to the positions probed
  double meanNs = 0, medianNs = 0, p99Ns = 0;
  double batchMeanNs = 0;  // one clock pair around whole passes, divided by the positions
  quint64 memoryBytes = 0;
};

struct ProbeTimesResult {
  quint64 positions = 0;
  quint64 candidates = 0;
  quint64 mismatches = 0;
  QStringList mismatchExamples;
  double timerOverheadNs = 0;
  int pieces = 0;
  QList<ProbeTimeHistogram> methods;  // indexed, linear, fathom
  ProbeTimeDensity density;           // indexed (x) against fathom (y), position by position
};

// Bins times (ns) on edges 10^k with `perDecade` bins per decade, from the decade below the
// smallest time to the decade above the largest, so no time falls outside. Exposed for tests.
ProbeTimeHistogram binProbeTimes(const std::vector<uint32_t>& times, uint32_t lo, uint32_t hi, int perDecade = 10);

class ChartRun;

class ProbeTimesChart : public QWidget {
  Q_OBJECT
 public:
  // What the chart draws from a result: one histogram per method, indexed against Fathom, or each
  // method as a point of (its bytes, its batch mean), both over Fathom's, Syzygy at (1, 1).
  enum View { Histograms = 0, JointDensity = 1, BytesAndTime = 2 };

  explicit ProbeTimesChart(AppContext* ctx, QWidget* parent = nullptr);
  ~ProbeTimesChart() override;  // cancels and waits: the worker uses this widget's shared state

  QChart* chart() const;
  QChartView* view() const { return view_; }
  QSpinBox* positionsBox() const { return positions_; }
  QComboBox* piecesBox() const { return pieces_; }
  QComboBox* viewBox() const { return shown_; }  // items in View's order
  View currentView() const;
  void setView(View v);
  QPushButton* runButton() const { return run_; }
  QPushButton* cancelButton() const { return cancel_; }
  QProgressBar* progressBar() const { return bar_; }
  QLabel* summaryLabel() const { return summary_; }
  QLabel* stageLabel() const { return stage_; }  // the benchmark's current stage

  bool busy() const;
  // Why nothing is plotted (no Syzygy directory, no covers, failed, cancelled), else empty.
  QString message() const { return message_; }
  bool hasResult() const { return hasResult_; }
  const ProbeTimesResult& result() const { return result_; }
  // Plots a result (used by a finished benchmark, and by tests with known numbers).
  void setResult(const ProbeTimesResult& r);

  bool exportPng(const QString& path) const;
  bool exportSvg(const QString& path) const;
  // The shown view's numbers: the histograms' bins, the density's non-empty cells, or each
  // method's bytes and batch mean with their ratios to Fathom's.
  bool exportCsv(const QString& path, QString* error = nullptr) const;

  // Blocks (processing events) until no benchmark runs; false on timeout.
  bool wait(int timeoutMs);

 public Q_SLOTS:
  // Starts a benchmark with the box values (nothing when one runs or prerequisites are missing).
  void start();
  void cancel();
  // Re-checks the prerequisites (Syzygy directory, covers of the chosen size) when idle.
  void refresh();

 Q_SIGNALS:
  void finished();

 private:
  struct Shared;
  struct Outcome;
  QString missing() const;  // empty when a benchmark can start
  void setMessage(const QString& message);
  void done(const Outcome& o);
  void draw();  // the result in the current view
  void drawHistograms();
  void drawBytesAndTime();
  QString summaryText() const;

  AppContext* ctx_;
  QChartView* view_;
  QSpinBox* positions_;
  QComboBox* pieces_;
  QComboBox* shown_;
  QPushButton *run_, *cancel_;
  QProgressBar* bar_;
  QLabel* stage_;
  QLabel* summary_;
  ChartRun* runner_;  // the benchmark in the background: bar, label, cancel
  bool hasResult_ = false;
  QString message_;
  QString outcomeMessage_;  // the last run's cancellation or error, shown until the next run
  ProbeTimesResult result_;
};

}  // namespace egtmin::ui
