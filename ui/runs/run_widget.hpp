// SPDX-License-Identifier: GPL-3.0-or-later
// One run in the runs list: title, progress bar, current stage, elapsed time, cancel, and the
// run's log (one line per generated table and per minimization pass).
#pragma once

#include <QFrame>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace egtmin::ui {

class RunJob;

class RunWidget : public QFrame {
  Q_OBJECT
 public:
  RunWidget(RunJob* job, QWidget* parent = nullptr);

  RunJob* job() const { return job_; }
  QPushButton* cancelButton() const { return cancel_; }
  QProgressBar* progressBar() const { return bar_; }
  QLabel* stageLabel() const { return stage_; }
  QPlainTextEdit* logView() const { return log_; }

 private:
  void refresh();

  RunJob* job_;
  QLabel *title_, *stage_, *elapsed_;
  QProgressBar* bar_;
  QPushButton* cancel_;
  QPlainTextEdit* log_;
};

}  // namespace egtmin::ui
