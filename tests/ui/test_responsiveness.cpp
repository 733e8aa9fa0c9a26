// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench stays responsive while background runs go on. A user starts runs in the Runs
// panel of the assembled main window (a quick 3-piece run that finishes during the measurement,
// so the finish path is covered too, and a paper-default minimization of three 4-piece balances
// whose tables the run generates itself), types into the balance filter and scrolls the balance
// tree while they run, then cancels what is still going. Throughout, a 10 ms timer records the
// gaps between its ticks, and input events posted from another thread record how long they waited.
//
// The bound asserted is deliberately loose (1 s) so a loaded CI machine does not make the test
// flaky while real blocking of the GUI thread (work done on it, a flood of queued signals) still
// fails it; the figures are logged with qInfo (see docs/benchmarks.md, GUI responsiveness).
//
// EGTMIN_RESPONSIVENESS_MS sets how long the runs go on before the cancel (default 15000). The
// cancel itself is only bounded loosely (60 s): a run cancelled inside core's expand pass finishes
// that pass's containment sweep first, which takes many seconds on a 4-piece balance.
#include <QElapsedTimer>
#include <QEventLoop>
#include <QLineEdit>
#include <QMutex>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>
#include <QWheelEvent>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <deque>
#include <functional>
#include <thread>
#include <vector>

#include "app_context.hpp"
#include "main_window.hpp"
#include "runs/balance_picker.hpp"
#include "runs/pass_picker.hpp"
#include "runs/run_widget.hpp"
#include "runs/runs_panel.hpp"
#include "ui_test_support.hpp"

using namespace egtmin;
using namespace egtmin::ui;

namespace {

double percentile(std::vector<qint64> v, double p) {  // of microsecond samples, in ms
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5));
  return double(v[i]) / 1000.0;
}

// Measures the GUI thread's event loop: a 10 ms timer's tick gaps, and the latency of synthetic
// input: a separate thread (like the window system, it does not wait for the GUI) posts a key
// press to keyTarget and a wheel event to wheelTarget every 50 ms; the time from posting to
// delivery is what a user would feel.
class LoopProbe : public QObject {
 public:
  LoopProbe(QWidget* keyTarget, QWidget* wheelTarget) : keyTarget_(keyTarget), wheelTarget_(wheelTarget) {
    tick_.setTimerType(Qt::PreciseTimer);
    tick_.setInterval(10);
    QObject::connect(&tick_, &QTimer::timeout, this, [this] { onTick(); });
    keyTarget_->installEventFilter(this);
    wheelTarget_->installEventFilter(this);
  }
  ~LoopProbe() override { stopInput(); }

  void start() {
    wheelAt_ = QPointF(wheelTarget_->width() / 2, wheelTarget_->height() / 2);
    wheelGlobal_ = wheelTarget_->mapToGlobal(wheelAt_);
    clock_.start();
    last_ = 0;
    lastCpu_ = threadCpuUs();
    tick_.start();
    stopping_ = false;
    input_ = std::thread([this] { inputLoop(); });
  }
  void stop() {
    tick_.stop();
    stopInput();
    windowMs_ = clock_.elapsed();
    // Deliver what is still queued so every posted event is accounted for.
    QCoreApplication::sendPostedEvents();
    keyTarget_->removeEventFilter(this);
    wheelTarget_->removeEventFilter(this);
  }

  qint64 windowMs() const { return windowMs_; }
  int ticks() const { return int(gaps_.size()); }
  double maxGapMs() const { return percentile(gaps_, 1.0); }
  double medianGapMs() const { return percentile(gaps_, 0.5); }
  double p99GapMs() const { return percentile(gaps_, 0.99); }
  int gapsOver(double ms) const {
    return int(std::count_if(gaps_.begin(), gaps_.end(), [ms](qint64 g) { return double(g) / 1000.0 > ms; }));
  }
  double cpuInMaxGapMs() const { return double(cpuInMaxGap_) / 1000.0; }
  double maxGapCpuMs() const { return double(maxGapCpu_) / 1000.0; }
  int keysPosted() const { return keysPosted_; }
  int keysDelivered() const { return int(keyLatency_.size()); }
  double maxKeyLatencyMs() const { return percentile(keyLatency_, 1.0); }
  double medianKeyLatencyMs() const { return percentile(keyLatency_, 0.5); }
  int wheelsPosted() const { return wheelsPosted_; }
  int wheelsDelivered() const { return int(wheelLatency_.size()); }
  double maxWheelLatencyMs() const { return percentile(wheelLatency_, 1.0); }

 protected:
  bool eventFilter(QObject* o, QEvent* e) override {
    const qint64 now = clock_.nsecsElapsed() / 1000;
    QMutexLocker lock(&mutex_);
    if (o == keyTarget_ && e->type() == QEvent::KeyPress && !keyPostedAt_.empty()) {
      keyLatency_.push_back(now - keyPostedAt_.front());
      keyPostedAt_.pop_front();
    } else if (o == wheelTarget_ && e->type() == QEvent::Wheel && !wheelPostedAt_.empty()) {
      wheelLatency_.push_back(now - wheelPostedAt_.front());
      wheelPostedAt_.pop_front();
    }
    return false;
  }

 private:
  void onTick() {
    const qint64 now = clock_.nsecsElapsed() / 1000;
    const qint64 cpu = threadCpuUs();
    const qint64 gap = now - last_;  // the first gap is from start(): a stall right away counts too
    gaps_.push_back(gap);
    // How much of a gap the GUI thread spent computing: work done on it, as opposed to waiting for
    // a core while the run's workers have them.
    maxGapCpu_ = std::max(maxGapCpu_, cpu - lastCpu_);
    if (gap >= maxGap_) {
      maxGap_ = gap;
      cpuInMaxGap_ = cpu - lastCpu_;
    }
    last_ = now;
    lastCpu_ = cpu;
  }

  static qint64 threadCpuUs() {
#if defined(CLOCK_THREAD_CPUTIME_ID)
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
#else
    return 0;
#endif
  }

  void stopInput() {
    stopping_ = true;
    if (input_.joinable()) input_.join();
  }

  void inputLoop() {
    // Typing "KQ" then erasing it (the filter really refilters the balance tree each time), and
    // scrolling the balance tree down and up again.
    static const std::pair<Qt::Key, const char*> keys[] = {
        {Qt::Key_K, "K"}, {Qt::Key_Q, "Q"}, {Qt::Key_Backspace, "\b"}, {Qt::Key_Backspace, "\b"}};
    for (int n = 0; !stopping_; ++n) {
      const auto& [key, text] = keys[n % 4];
      const int delta = (n / 4) % 2 ? 120 : -120;
      {
        QMutexLocker lock(&mutex_);
        const qint64 now = clock_.nsecsElapsed() / 1000;
        keyPostedAt_.push_back(now);
        wheelPostedAt_.push_back(now);
        ++keysPosted_;
        ++wheelsPosted_;
      }
      QCoreApplication::postEvent(keyTarget_,
                                  new QKeyEvent(QEvent::KeyPress, key, Qt::NoModifier, QString::fromLatin1(text)));
      QCoreApplication::postEvent(keyTarget_,
                                  new QKeyEvent(QEvent::KeyRelease, key, Qt::NoModifier, QString::fromLatin1(text)));
      QCoreApplication::postEvent(wheelTarget_,
                                  new QWheelEvent(wheelAt_, wheelGlobal_, QPoint(), QPoint(0, delta), Qt::NoButton,
                                                  Qt::NoModifier, Qt::NoScrollPhase, false));
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

  QWidget* keyTarget_;
  QWidget* wheelTarget_;
  QPointF wheelAt_, wheelGlobal_;
  QTimer tick_;
  QElapsedTimer clock_;
  qint64 last_ = 0, lastCpu_ = 0;
  qint64 maxGap_ = 0, cpuInMaxGap_ = 0, maxGapCpu_ = 0;  // microseconds
  qint64 windowMs_ = 0;
  std::vector<qint64> gaps_;  // microseconds
  std::thread input_;
  std::atomic<bool> stopping_{false};
  QMutex mutex_;  // guards the rest: the input thread posts, the GUI thread receives
  std::deque<qint64> keyPostedAt_, wheelPostedAt_;
  std::vector<qint64> keyLatency_, wheelLatency_;
  int keysPosted_ = 0, wheelsPosted_ = 0;
};

// Runs the event loop (a real one, as the application's) until pred() or the timeout.
bool spinUntil(const std::function<bool()>& pred, int timeoutMs) {
  QEventLoop loop;
  QTimer check;
  check.setInterval(20);
  QObject::connect(&check, &QTimer::timeout, &loop, [&] {
    if (pred()) loop.quit();
  });
  QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
  check.start();
  if (!pred()) loop.exec();
  return pred();
}

RunWidget* widgetOf(RunsPanel* panel, RunJob* job) {
  for (RunWidget* w : panel->runWidgets())
    if (w->job() == job) return w;
  return nullptr;
}

}  // namespace

class TestResponsiveness : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

 private Q_SLOTS:
  void responsiveness() {
    QVERIFY(dir_.isValid());
    const int budgetMs = qEnvironmentVariableIsSet("EGTMIN_RESPONSIVENESS_MS")
                             ? qEnvironmentVariableIntValue("EGTMIN_RESPONSIVENESS_MS")
                             : 15000;
    AppContext ctx(dir_.path(), test::syzygyDir());  // empty data dir: the runs generate the tables
    MainWindow w(&ctx);
    w.confirmQuit = [](int) { return true; };
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.showArea(QStringLiteral("runs"));
    RunsPanel* panel = w.runsPanel();
    BalancePicker* picker = panel->balances();

    LoopProbe probe(picker->filterEdit(), picker->view()->viewport());
    probe.start();

    // As a user: pick balances, the paper default passes, all threads, click Start; twice.
    panel->passes()->applyPreset(0);
    QCOMPARE(panel->passes()->passes(), QString("canon,compact,expand,irredundant"));
    panel->threads()->setValue(0);
    picker->setChecked("KQvK", true);
    picker->setChecked("KRvK", true);
    QTest::mouseClick(panel->startButton(), Qt::LeftButton);
    picker->clearChecks();
    for (const char* b : {"KQvKR", "KRvKN", "KBNvK"}) picker->setChecked(b, true);
    QCOMPARE(picker->checked().size(), 3);
    QTest::mouseClick(panel->startButton(), Qt::LeftButton);
    QCOMPARE(panel->jobs().size(), 2);
    RunJob* small = panel->jobs().at(0);
    RunJob* big = panel->jobs().at(1);

    // Let them work (the small run finishes meanwhile; the big one may too on a fast machine).
    const bool allDone = spinUntil([&] { return panel->activeCount() == 0; }, budgetMs);
    const double bigFraction = big->fraction();
    const QString bigStage = big->stage();
    QElapsedTimer cancelClock;
    cancelClock.start();
    qint64 cancelMs = 0;
    if (!allDone) {
      for (RunJob* j : panel->jobs()) {
        if (!j->active()) continue;
        RunWidget* rw = widgetOf(panel, j);
        QVERIFY(rw);
        QTest::mouseClick(rw->cancelButton(), Qt::LeftButton);
      }
      QVERIFY2(spinUntil([&] { return panel->activeCount() == 0; }, 60000), "runs did not stop after Cancel");
      cancelMs = cancelClock.elapsed();
    }
    probe.stop();

    qInfo("runs: small %s in %.1f s; big %s at %.0f %% (\"%s\") after %.1f s%s",
          small->state() == RunJob::State::Done ? "done" : "NOT done", double(small->elapsedMs()) / 1000.0,
          allDone ? "done" : "cancelled", bigFraction * 100.0, qPrintable(bigStage), double(big->elapsedMs()) / 1000.0,
          allDone ? "" : qPrintable(QStringLiteral("; cancel took %1 ms").arg(cancelMs)));
    qInfo(
        "event loop: window %lld ms, %d ticks of 10 ms (%d nominal); gap max %.1f ms, median %.1f ms, "
        "p99 %.1f ms; gaps > 100 ms: %d, > 50 ms: %d; GUI-thread CPU in the longest gap %.1f ms, "
        "in any gap at most %.1f ms",
        probe.windowMs(), probe.ticks(), int(probe.windowMs() / 10), probe.maxGapMs(), probe.medianGapMs(),
        probe.p99GapMs(), probe.gapsOver(100), probe.gapsOver(50), probe.cpuInMaxGapMs(), probe.maxGapCpuMs());
    qInfo(
        "input: %d/%d key presses delivered, latency max %.1f ms, median %.1f ms; %d/%d wheel events, "
        "latency max %.1f ms",
        probe.keysDelivered(), probe.keysPosted(), probe.maxKeyLatencyMs(), probe.medianKeyLatencyMs(),
        probe.wheelsDelivered(), probe.wheelsPosted(), probe.maxWheelLatencyMs());

    // Real work went on: the small run completed, the big one got going.
    QVERIFY2(small->state() == RunJob::State::Done, qPrintable(small->error()));
    QVERIFY2(big->state() == RunJob::State::Done || big->state() == RunJob::State::Cancelled, qPrintable(big->error()));
    QVERIFY(bigFraction > 0 || !bigStage.isEmpty());
    // The loop kept ticking and input kept flowing (loose bounds; see the file comment).
    QVERIFY(probe.windowMs() > 1000);
    QVERIFY2(probe.ticks() >= probe.windowMs() / 100, "timer ticked under a tenth of its nominal rate");
    QVERIFY2(probe.maxGapMs() < 1000.0, qPrintable(QStringLiteral("event loop stalled %1 ms").arg(probe.maxGapMs())));
    QCOMPARE(probe.keysDelivered(), probe.keysPosted());
    QVERIFY(probe.keysPosted() > 0);
    QVERIFY2(probe.maxKeyLatencyMs() < 1000.0,
             qPrintable(QStringLiteral("key press waited %1 ms").arg(probe.maxKeyLatencyMs())));
    QCOMPARE(probe.wheelsDelivered(), probe.wheelsPosted());
    QVERIFY2(probe.maxWheelLatencyMs() < 1000.0,
             qPrintable(QStringLiteral("wheel event waited %1 ms").arg(probe.maxWheelLatencyMs())));
    QVERIFY(panel->cancelAllAndWait());
  }
};

QTEST_MAIN(TestResponsiveness)
#include "test_responsiveness.moc"
