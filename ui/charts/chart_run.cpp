// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/chart_run.hpp"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QThread>

namespace egtmin::ui {

namespace {
constexpr int kPollMs = 100;     // the bar's refresh: smooth enough, and nothing for the GUI thread
constexpr int kBarSteps = 1000;  // the bars' range (fractions to a tenth of a percent)
}  // namespace

ChartRun::ChartRun(QProgressBar* bar, QLabel* stage, QPushButton* cancel, QObject* parent)
    : QObject(parent), bar_(bar), stage_(stage), cancel_(cancel) {
  bar_->setRange(0, kBarSteps);
  cancel_->setEnabled(false);
  poll_.setInterval(kPollMs);
  connect(&poll_, &QTimer::timeout, this, &ChartRun::poll);
  connect(cancel_, &QPushButton::clicked, this, &ChartRun::cancel);
  connect(&task_, &BackgroundTaskBase::finished, this, [this] { finished(task_.result()); });
}

ChartRun::~ChartRun() {
  if (state_) state_->progress.cancel();
  task_.waitForFinished();
}

void ChartRun::start(std::shared_ptr<State> state, std::function<Finish(State&)> work) {
  if (busy_) return;
  state_ = std::move(state);
  busy_ = true;
  bar_->setValue(0);
  stage_->setText(tr("starting…"));
  cancel_->setEnabled(true);
  poll_.start();
  task_.start([state = state_, work = std::move(work)] { return work(*state); });
}

void ChartRun::cancel() {
  if (!busy_ || !state_) return;
  state_->progress.cancel();
  stage_->setText(tr("cancelling…"));
  cancel_->setEnabled(false);
}

bool ChartRun::wait(int timeoutMs) {
  QDeadlineTimer deadline(timeoutMs);
  while (busy_) {
    if (deadline.hasExpired()) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  return true;
}

void ChartRun::showEnd(bool ok, bool cancelled) {
  bar_->setValue(ok ? kBarSteps : 0);
  stage_->setText(ok ? tr("done") : cancelled ? tr("cancelled") : tr("failed"));
}

void ChartRun::poll() {
  if (!state_) return;
  std::lock_guard lock(state_->mutex);
  bar_->setValue(int(state_->fraction * kBarSteps));
  if (!state_->progress.cancelled() && !state_->stage.isEmpty()) stage_->setText(state_->stage + QStringLiteral("…"));
}

void ChartRun::finished(const Finish& finish) {
  poll_.stop();
  busy_ = false;
  cancel_->setEnabled(false);
  if (finish) finish();
}

}  // namespace egtmin::ui
