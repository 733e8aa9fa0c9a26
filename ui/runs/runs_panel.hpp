// SPDX-License-Identifier: GPL-3.0-or-later
// Runs panel: pick balances, a pass sequence and the effort, start runs (several may run at once), watch each
// one's progress and log, cancel; a batch (every stage, resumable) starts from its plan, shown first; and,
// read-only, a cluster run's stages for a data directory. Finished runs tell AppContext so the probe panel
// re-probes.
#pragma once

#include <QList>
#include <QWidget>

#include "runs/run_job.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QVBoxLayout;

namespace egtmin::ui {

class AppContext;
class BalancePicker;
class BatchPlanView;
class ClusterView;
class PassPicker;
class RunWidget;

class RunsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit RunsPanel(AppContext* ctx, QWidget* parent = nullptr);
  ~RunsPanel() override;

  BalancePicker* balances() const { return balances_; }
  PassPicker* passes() const { return passes_; }
  QSpinBox* threads() const { return threads_; }
  // Normal / High (item data: logic::Effort as int); remembered in QSettings ("runEffort").
  QComboBox* effortBox() const { return effort_; }
  logic::Effort effort() const;
  QPushButton* startButton() const { return start_; }
  QPushButton* verifyButton() const { return verify_; }
  QPushButton* checkButton() const { return check_; }
  // Plans a batch of the checked balances (every stage, resumable) and shows the plan to start it.
  QPushButton* batchButton() const { return batch_; }
  // The plan of the batch proposed last, with its Start and Cancel; hidden when none is pending.
  BatchPlanView* batchPlanView() const { return batchPlan_; }
  // Runs make (and Check checks) capture-resolved covers when ticked.
  QCheckBox* captureResolvedBox() const { return captureResolved_; }
  store::CoverKind coverKind() const;
  // What the selected run will do before it starts: the tables to make first, the expected peak
  // memory against what the machine has; the reason when it is refused.
  QLabel* planLabel() const { return plan_; }
  // Bytes a run may use at its peak; 0 (the default): the memory available when it is planned.
  void setMemoryLimit(quint64 bytes);

  // A cluster run's stages for a data directory, read-only (egtmin-cli cluster status).
  ClusterView* clusterView() const { return cluster_; }

  QList<RunJob*> jobs() const { return jobs_; }
  QList<RunWidget*> runWidgets() const;
  int activeCount() const;

  // Starts a run; returns it (owned by the panel).
  RunJob* startRun(const RunSpec& spec);
  // Cancels every active run and waits for them (bounded); true when all stopped.
  bool cancelAllAndWait(int timeoutMs = 30000);

 public Q_SLOTS:
  // The probe panel's offer: the table, or (minimize) the cover with the paper default passes. A
  // cover of kMaxSupportedPieces pieces is proposed as a batch (its plan shown first): its stages
  // take long, and a batch keeps each finished one across a cancel.
  void generate(const QString& balanceName, bool minimize = false);
  // Shows the plan of `spec` (a batch); its Start starts the run.
  void proposeBatch(const RunSpec& spec);
  void batchSelection();
  void startFromSelection();
  // The checked balances' tables proven (self-check, and Syzygy where the user has the files),
  // or their covers checked against the tables over every legal position and the indexed probe.
  void verifySelection();
  void checkSelection();
  void clearFinished();

 Q_SIGNALS:
  void runFinished(egtmin::ui::RunJob* job);

 private:
  void updateStart();
  RunSpec selectionSpec(RunSpec::Kind kind) const;
  // A batch of `balances` making the cover kind chosen here (Capture-resolved).
  RunSpec batchSpec(const QStringList& balances, logic::PassSequence passes) const;
  // Start stays off while a batch writes the plan's data directory.
  void updateBatchPlan();

  AppContext* ctx_;
  BalancePicker* balances_;
  PassPicker* passes_;
  QSpinBox* threads_;
  QComboBox* effort_;
  QPushButton* start_;
  QPushButton* verify_;
  QCheckBox* captureResolved_;
  QPushButton* check_;
  QPushButton* batch_;
  BatchPlanView* batchPlan_;
  QLabel* plan_;
  quint64 memoryLimit_ = 0;
  QVBoxLayout* runsLayout_;
  ClusterView* cluster_;
  QList<RunJob*> jobs_;
};

}  // namespace egtmin::ui
