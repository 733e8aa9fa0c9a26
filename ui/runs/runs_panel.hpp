// SPDX-License-Identifier: GPL-3.0-or-later
// Runs panel: pick balances, a pass sequence and the effort, start runs (several may run at once), watch each
// one's progress and log, cancel. Finished runs tell AppContext so the probe panel re-probes.
#pragma once

#include <QList>
#include <QWidget>

#include "runs/run_job.hpp"

class QComboBox;
class QPushButton;
class QSpinBox;
class QVBoxLayout;

namespace egtmin::ui {

class AppContext;
class BalancePicker;
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

  QList<RunJob*> jobs() const { return jobs_; }
  QList<RunWidget*> runWidgets() const;
  int activeCount() const;

  // Starts a run; returns it (owned by the panel).
  RunJob* startRun(const RunSpec& spec);
  // Cancels every active run and waits for them (bounded); true when all stopped.
  bool cancelAllAndWait(int timeoutMs = 30000);

 public Q_SLOTS:
  // The probe panel's offer: the table, or (minimize) the cover with the paper default passes.
  void generate(const QString& balanceName, bool minimize = false);
  void startFromSelection();
  void clearFinished();

 Q_SIGNALS:
  void runFinished(egtmin::ui::RunJob* job);

 private:
  void updateStart();

  AppContext* ctx_;
  BalancePicker* balances_;
  PassPicker* passes_;
  QSpinBox* threads_;
  QComboBox* effort_;
  QPushButton* start_;
  QVBoxLayout* runsLayout_;
  QList<RunJob*> jobs_;
};

}  // namespace egtmin::ui
