// SPDX-License-Identifier: GPL-3.0-or-later
#include "background_task.hpp"

#include <QMetaObject>

namespace egtmin::ui {

void BackgroundTaskBase::waitForFinished() {
  for (auto& [run, thread] : threads_) thread.join();
  threads_.clear();
  running_ = false;
}

void BackgroundTaskBase::launch(std::function<void()> work) {
  const int run = ++started_;
  running_ = true;
  threads_.emplace(run, std::thread([this, run, work = std::move(work)] {
                     work();
                     // By name, with the run's number copied by Qt: nothing of ours crosses in Qt's queue.
                     QMetaObject::invokeMethod(this, "threadEnded", Qt::QueuedConnection, Q_ARG(int, run));
                   }));
}

void BackgroundTaskBase::threadEnded(int run) {
  // The join orders everything the run wrote (its result) before what the GUI thread reads next.
  if (auto it = threads_.find(run); it != threads_.end()) {
    it->second.join();
    threads_.erase(it);
  }
  if (run != started_ || delivered_ == run) return;  // a replaced run, or already delivered
  running_ = false;
  delivered_ = run;
  Q_EMIT finished();
}

}  // namespace egtmin::ui
