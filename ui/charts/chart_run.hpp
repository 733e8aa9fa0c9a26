// SPDX-License-Identifier: GPL-3.0-or-later
// A chart's long run (the probe benchmark, the size ablation) off the GUI thread: a thread of its
// own (one run at a time), the progress the worker reports polled into the chart's bar and stage
// label, cancel, and a blocking wait for tests. One place for what every chart that runs work
// needs; the chart keeps what its run computes and how it is drawn.
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>
#include <memory>
#include <mutex>

#include "background_task.hpp"
#include "util/progress.hpp"

class QLabel;
class QProgressBar;
class QPushButton;

namespace egtmin::ui {

class ChartRun : public QObject {
  Q_OBJECT
 public:
  // What the worker and the GUI share: the bar's fraction (0..1) and label, under the mutex, and
  // the Progress the worker reports to. A chart maps its stages onto the bar in the callback it
  // gives (derived states add what the mapping needs). A fresh state per run: Progress's cancel
  // flag cannot be reset.
  struct State {
    std::mutex mutex;
    QString stage;
    double fraction = 0;
    Progress progress;
    explicit State(std::function<void(const ProgressEvent&)> on_event) : progress(std::move(on_event)) {}
    virtual ~State() = default;
  };
  // What the worker returns: called on the GUI thread once the run is over and busy() is false.
  using Finish = std::function<void()>;

  ChartRun(QProgressBar* bar, QLabel* stage, QPushButton* cancel, QObject* parent);
  ~ChartRun() override;  // cancels a run and waits for it: the worker reads the state

  bool busy() const { return busy_; }
  // Runs work(*state) on this run's thread (nothing when one runs already): the bar starts at 0,
  // the label says "starting…", Cancel is enabled until the run is over.
  void start(std::shared_ptr<State> state, std::function<Finish(State&)> work);
  void cancel();
  // Blocks (processing events) until no run is busy; false on timeout.
  bool wait(int timeoutMs);
  // How the run ended, on the bar and its label: full and "done", else empty and "cancelled" or
  // "failed". The chart calls it from its Finish, beside what it shows of the outcome.
  void showEnd(bool ok, bool cancelled);

 private:
  void poll();
  void finished(const Finish& finish);

  QProgressBar* bar_;
  QLabel* stage_;
  QPushButton* cancel_;
  QTimer poll_;
  BackgroundTask<Finish> task_;
  std::shared_ptr<State> state_;
  bool busy_ = false;
};

}  // namespace egtmin::ui
