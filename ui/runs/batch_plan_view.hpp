// SPDX-License-Identifier: GPL-3.0-or-later
// What a batch run will do, shown before it starts (run::plan_batch): each stage of each balance
// in the order the run takes them, the balances there only because an asked one needs them, the
// stages done before (recorded, so the run skips them), and each stage's expected time and peak
// memory with the totals. Start hands the run on; nothing is written until then. Inline in the
// Runs panel rather than a modal dialog, so that the window stays usable while the plan is read.
#pragma once

#include <QGroupBox>

#include "run/batch_run.hpp"
#include "runs/run_job.hpp"

class QComboBox;
class QLabel;
class QPushButton;
class QTreeWidget;

namespace egtmin::ui {

// "12 stage(s) to do (3 done before): about 1 min one after another; largest expected peak
// 1.02 GB (KBNvK minimize-cr), this machine has 20.1 GB available."
QString batchPlanSummary(const run::BatchPlan& plan, quint64 availableBytes);

class BatchPlanView : public QGroupBox {
  Q_OBJECT
 public:
  // The stage tree's columns.
  enum Column { BalanceColumn, StageColumn, StatusColumn, TimeColumn, PeakColumn, WhyColumn };

  explicit BatchPlanView(QWidget* parent = nullptr);

  // Plans `spec` (a batch) and shows the plan, in place of any shown before.
  void propose(const RunSpec& spec);
  // Plans the shown run again: the stages other runs finished since count as done.
  void replan();
  // Why Start is off though the plan is good (another batch writes the same data directory);
  // empty: nothing holds it.
  void setStartBlocked(const QString& why);

  const RunSpec& spec() const { return spec_; }
  const run::BatchPlan& plan() const { return plan_; }
  QTreeWidget* stages() const { return stages_; }
  QLabel* summary() const { return summary_; }
  QComboBox* coversBox() const { return covers_; }
  QComboBox* successorsBox() const { return successors_; }
  QPushButton* startButton() const { return start_; }
  QPushButton* dismissButton() const { return dismiss_; }

 Q_SIGNALS:
  // Start was pressed: spec() is the run to start. The view hides itself.
  void startRequested();

 private:
  void updateStart();

  RunSpec spec_;
  run::BatchPlan plan_;
  bool planned_ = false;
  QString base_;  // the summary, before what blocks Start
  QString blocked_;
  QComboBox* covers_;
  QComboBox* successors_;
  QTreeWidget* stages_;
  QLabel* summary_;
  QPushButton* start_;
  QPushButton* dismiss_;
};

}  // namespace egtmin::ui
