// SPDX-License-Identifier: GPL-3.0-or-later
// Work off the GUI thread, handed over so that ThreadSanitizer sees every edge between the threads:
// the work runs on a std::thread of its own, its result is read on the GUI thread only after that
// thread is joined, and the GUI thread learns that it ended through a queued call by name, which
// carries no data. Qt's libraries are not instrumented: a QFuture's result, a QThreadPool task or a
// queued lambda would cross between the threads through locks TSan cannot see, and every such
// hand-over would be reported as a race (scripts/tsan-gui.sh).
//
// The interface follows QFutureWatcher's: start() the work, finished() on the GUI thread when it is
// over, then result(). Starting again while a run is going leaves that run to end on its own thread
// (its result is dropped, and finished() comes for the newest run only), as QFutureWatcher does when
// given another future.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

#include <QObject>

namespace egtmin::ui {

class BackgroundTaskBase : public QObject {
  Q_OBJECT
 public:
  explicit BackgroundTaskBase(QObject* parent = nullptr) : QObject(parent) {}

  bool isRunning() const { return running_; }
  // Blocks until every run is over; finished() still follows from the event loop.
  void waitForFinished();

 Q_SIGNALS:
  void finished();

 protected:
  // Runs work() on a new thread, as the newest run.
  void launch(std::function<void()> work);

 private Q_SLOTS:
  void threadEnded(int run);

 private:
  std::map<int, std::thread> threads_;  // runs whose thread is not joined yet, by number
  bool running_ = false;
  int started_ = 0;    // runs started; the newest is the one finished() is for
  int delivered_ = 0;  // the newest run whose finished() went out
};

template <class T>
class BackgroundTask : public BackgroundTaskBase {
 public:
  using BackgroundTaskBase::BackgroundTaskBase;
  // Waits for every run (they may read what the owner holds), here while this is still the whole
  // object: a run's thread calls into it to say it ended.
  ~BackgroundTask() override { waitForFinished(); }
  void start(std::function<T()> work) {
    // Each run writes its own slot: a replaced run still going cannot touch the newest one's.
    auto slot = std::make_shared<std::optional<T>>();
    newest_ = slot;
    launch([slot, work = std::move(work)] { *slot = work(); });
  }
  // The newest run's value, once finished() was emitted for it (or after waitForFinished()).
  const T& result() const { return **newest_; }

 private:
  std::shared_ptr<std::optional<T>> newest_;
};

}  // namespace egtmin::ui
