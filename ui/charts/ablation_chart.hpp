// SPDX-License-Identifier: GPL-3.0-or-later
// The size ablation as a chart: core's bench::run_ablation (each idea that might shrink the covers
// minimized into its own directory beside the default covers, then its indexed probe timed against
// Fathom on the same positions) launched in the background on the 3- or 4-piece balances, and
// drawn per idea as the cover bytes relative to the "default" idea's and the indexed probe's batch
// mean relative to Fathom's, both as bars against the line at 1. The rows it finishes with also
// feed Fig. 1b (IterationChart), through resultChanged().
#pragma once

#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "bench/ablation.hpp"

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace egtmin::ui {

class AppContext;
class ChartRun;

class AblationChart : public QWidget {
  Q_OBJECT
 public:
  explicit AblationChart(AppContext* ctx, QWidget* parent = nullptr);
  ~AblationChart() override;  // cancels and waits: the worker uses this widget's shared state

  QChart* chart() const;
  QChartView* view() const { return view_; }
  QComboBox* piecesBox() const { return pieces_; }
  QSpinBox* positionsBox() const { return positions_; }  // timed positions per idea
  QPushButton* runButton() const { return run_; }
  QPushButton* cancelButton() const { return cancel_; }
  QProgressBar* progressBar() const { return bar_; }
  QLabel* stageLabel() const { return stage_; }
  QLabel* summaryLabel() const { return summary_; }

  bool busy() const;
  // Why nothing is plotted (no data directory, an empty result, failed, cancelled), else empty.
  QString message() const { return message_; }
  bool hasResult() const { return !rows_.empty(); }
  const std::vector<bench::AblationRow>& rows() const { return rows_; }
  // Plots rows (used by a finished run, and by tests with known numbers); emits resultChanged().
  void setRows(const std::vector<bench::AblationRow>& rows);

  // The request the Run button makes: every balance up to the chosen pieces, the default ideas,
  // DATA/ablation, the settings' Syzygy directory when it opens.
  bench::AblationRequest request() const;

  bool exportPng(const QString& path) const;
  bool exportSvg(const QString& path) const;
  // One line per idea and balance and one per idea ("all", with the probe times).
  bool exportCsv(const QString& path, QString* error = nullptr) const;

  // Blocks (processing events) until no ablation runs; false on timeout.
  bool wait(int timeoutMs);

  // Runs this request in the background, idea by idea (tests give a small one); nothing when one
  // runs already.
  void run(const bench::AblationRequest& request);

 public Q_SLOTS:
  // Runs request() (nothing when one runs or there is no data directory).
  void start();
  void cancel();
  // Re-checks the prerequisites when idle.
  void refresh();

 Q_SIGNALS:
  void finished();
  void resultChanged();

 private:
  struct Shared;
  struct Outcome;
  QString missing() const;  // empty when an ablation can start
  void setMessage(const QString& message);
  void done(const Outcome& o);

  AppContext* ctx_;
  QChartView* view_;
  QComboBox* pieces_;
  QSpinBox* positions_;
  QPushButton *run_, *cancel_;
  QProgressBar* bar_;
  QLabel* stage_;
  QLabel* summary_;
  ChartRun* runner_;  // the ablation in the background: bar, label, cancel
  QString message_;
  QString outcomeMessage_;  // the last run's cancellation or error, shown until the next run
  QString syzygyNote_;      // why the last run timed no probes, if it did not
  std::vector<bench::AblationRow> rows_;
};

}  // namespace egtmin::ui
