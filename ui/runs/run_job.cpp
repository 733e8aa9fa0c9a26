// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/run_job.hpp"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <chrono>
#include <set>
#include <thread>

#include "chess/balance.hpp"
#include "logic/pipeline.hpp"
#include "store/cover_file.hpp"
#include "table/generator.hpp"
#include "table/table_store.hpp"

namespace egtmin::ui {

QThreadPool* RunJob::pool() {
  // Runs get their own pool: long runs on the global pool would starve the probe panel's workers.
  static QThreadPool* p = [] {
    auto* tp = new QThreadPool;
    tp->setMaxThreadCount(16);
    return tp;
  }();
  return p;
}

RunJob::RunJob(RunSpec spec, QObject* parent)
    : QObject(parent), spec_(std::move(spec)), progress_([this](std::string_view stage, double f) {
        // Worker threads: keep only the latest value; poll() shows it at 10 Hz.
        QMutexLocker lock(&mutex_);
        sharedStage_ = prefix_ + QString::fromUtf8(stage.data(), qsizetype(stage.size()));
        sharedFraction_ = std::min(1.0, (unitsDone_ + std::clamp(f, 0.0, 1.0)) / std::max(1, units_));
      }) {
  poll_.setInterval(100);
  connect(&poll_, &QTimer::timeout, this, &RunJob::poll);
}

RunJob::~RunJob() {
  progress_.cancel();
  future_.waitForFinished();
}

QString RunJob::effortText(logic::Effort e) {
  const std::string_view n = logic::effort_name(e);
  return QString::fromUtf8(n.data(), qsizetype(n.size()));
}

logic::MinimizeOptions RunJob::minimizeOptions(const RunSpec& spec, int threads) {
  logic::MinimizeOptions opts;
  opts.threads = threads;
  opts.effort = spec.effort;
  return opts;
}

QString RunJob::title() const {
  QString t = spec_.balances.join(QStringLiteral(", "));
  if (t.size() > 60) t = t.left(57) + QStringLiteral("…");
  if (spec_.passes.isEmpty()) return tr("%1: tables").arg(t);
  if (spec_.effort != logic::Effort::Normal)
    return tr("%1: %2 (%3 effort)").arg(t, spec_.passes, effortText(spec_.effort));
  return tr("%1: %2").arg(t, spec_.passes);
}

qint64 RunJob::elapsedMs() const {
  if (finalMs_ >= 0) return finalMs_;
  return clock_.isValid() ? clock_.elapsed() : 0;
}

void RunJob::start() {
  if (state_ != State::Queued) return;
  state_ = State::Running;
  clock_.start();
  poll_.start();
  future_ = QtConcurrent::run(pool(), [this] {
    Outcome o = work();
    QMetaObject::invokeMethod(this, [this, o] { done(o); }, Qt::QueuedConnection);
  });
  Q_EMIT progressed();
}

void RunJob::cancel() {
  if (!active()) return;
  progress_.cancel();
  if (state_ == State::Queued) {
    done(Outcome{false, true, {}});
    return;
  }
  stage_ = tr("cancelling…");
  Q_EMIT progressed();
}

bool RunJob::wait(int timeoutMs) {
  QDeadlineTimer deadline(timeoutMs);
  while (active()) {
    if (deadline.hasExpired()) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  return true;
}

void RunJob::post(const QString& line) {
  QMetaObject::invokeMethod(this, [this, line] {
    log_ << line;
    Q_EMIT logLine(line);
  }, Qt::QueuedConnection);
}

void RunJob::postPoint(const PassPoint& p) {
  QMetaObject::invokeMethod(this, [this, p] { points_ << p; }, Qt::QueuedConnection);
}

void RunJob::poll() {
  {
    QMutexLocker lock(&mutex_);
    if (state_ == State::Running && !progress_.cancelled()) stage_ = sharedStage_;
    fraction_ = sharedFraction_;
  }
  Q_EMIT progressed();
}

void RunJob::done(const Outcome& o) {
  poll_.stop();
  finalMs_ = clock_.isValid() ? clock_.elapsed() : 0;
  if (o.cancelled) {
    state_ = State::Cancelled;
    stage_ = tr("cancelled");
  } else if (!o.ok) {
    state_ = State::Failed;
    error_ = o.error;
    stage_ = tr("failed: %1").arg(o.error);
  } else {
    state_ = State::Done;
    fraction_ = 1;
    stage_ = tr("done");
  }
  log_ << stage_;
  Q_EMIT logLine(stage_);
  Q_EMIT progressed();
  Q_EMIT finished();
}

RunJob::Outcome RunJob::work() {
  // Everything here runs on a pool thread and touches only spec_ (read-only), progress_ and the
  // mutex-guarded fields; results reach the GUI through post().
  std::vector<Balance> balances;
  for (const QString& name : spec_.balances) {
    auto b = Balance::parse(name.toStdString());
    if (!b) return {false, false, QString::fromStdString(b.error().message)};
    // Checked before any work: ensure() would otherwise first generate every smaller dependency.
    if (b->pieces() > 5)
      return {false, false, tr("%1 has %2 pieces; egtmin generates tables up to 5").arg(name).arg(b->pieces())};
    balances.push_back(*b);
  }
  std::vector<logic::Pass> passes;
  if (!spec_.passes.trimmed().isEmpty()) {
    auto p = logic::parse_passes(spec_.passes.trimmed().toStdString());
    if (!p) return {false, false, QString::fromStdString(p.error().message)};
    passes = *p;
  }
  TableStore store(spec_.dataDir.toStdString());
  const int hw = int(std::max(1u, std::thread::hardware_concurrency()));
  const int threads = spec_.threads > 0 ? spec_.threads : hw;
  {
    // Count the tables ensure() will have to generate (the balances and their missing
    // dependencies, via core's successor_balances) so the bar measures the whole run.
    std::set<Balance> missing;
    std::vector<Balance> todo;
    for (const Balance& b : balances) todo.push_back(b.canonical());
    while (!todo.empty()) {
      Balance b = todo.back();
      todo.pop_back();
      if (store.on_disk(b) || !missing.insert(b).second) continue;
      for (const Balance& d : successor_balances(b)) todo.push_back(d);
    }
    QMutexLocker lock(&mutex_);
    units_ = int(missing.size()) + (passes.empty() ? 0 : int(balances.size()));
  }
  const logic::MinimizeOptions opts = minimizeOptions(spec_, threads);
  if (!passes.empty())
    post(tr("passes %1, %2 effort, %3 thread(s)")
             .arg(QString::fromStdString(logic::passes_string(passes)), effortText(opts.effort))
             .arg(opts.threads));
  auto unitDone = [this] {
    QMutexLocker lock(&mutex_);
    ++unitsDone_;
    sharedFraction_ = std::min(1.0, double(unitsDone_) / std::max(1, units_));
  };
  for (size_t i = 0; i < balances.size(); ++i) {
    const Balance b = balances[i].canonical();
    const QString name = QString::fromStdString(b.name());
    if (progress_.cancelled()) return {false, true, {}};
    {
      QMutexLocker lock(&mutex_);
      prefix_.clear();
    }
    auto t = store.ensure(b, GenerateOptions{threads}, progress_, [this, &unitDone](const Balance& g, double secs) {
      unitDone();
      post(tr("table %1: generated in %2 s").arg(QString::fromStdString(g.name())).arg(secs, 0, 'f', 2));
    });
    if (progress_.cancelled()) return {false, true, {}};
    if (!t) return {false, false, QString::fromStdString(t.error().message)};
    if (passes.empty()) {
      post(tr("table %1: ready").arg(name));
      continue;
    }
    {
      QMutexLocker lock(&mutex_);
      prefix_ = name + QStringLiteral(": ");
    }
    auto m = logic::minimize_table(**t, passes, opts, progress_);
    if (progress_.cancelled()) return {false, true, {}};
    if (!m) return {false, false, name + QStringLiteral(": ") + QString::fromStdString(m.error().message)};
    post(tr("%1 start: %2 minterms over %3 care positions")
             .arg(name).arg(m->initial_cubes).arg(m->care_positions));
    postPoint(PassPoint{name, QStringLiteral("start"), 0, m->initial_cubes, m->initial_cubes * quint64((**t).encoding().bits()), 0, 0});
    int step = 0;
    for (const logic::PassReport& r : m->reports) {
      postPoint(PassPoint{name, QString::fromStdString(r.pass), ++step, r.cubes, r.literals, r.seconds,
                          double(r.peak_bytes) / (1024.0 * 1024.0)});
      post(tr("%1 %2: %3 cubes, %4 literals, %5 s (cpu %6 s), %7 MiB")
               .arg(name, QString::fromStdString(r.pass))
               .arg(r.cubes)
               .arg(r.literals)
               .arg(r.seconds, 0, 'f', 3)
               .arg(r.cpu_seconds, 0, 'f', 3)
               .arg(double(r.peak_bytes) / (1024.0 * 1024.0), 0, 'f', 1));
    }
    if (spec_.saveCovers) {
      store::CoverFile cf;
      cf.balance = b;
      cf.inputs = (**t).encoding().bits();
      cf.canon = m->scheme;
      cf.passes = logic::passes_string(passes);
      cf.cubes = std::move(m->cover);
      const auto path = store::cover_path(store.data_dir(), b);
      if (auto s = store::save_cover(path, cf); !s) return {false, false, QString::fromStdString(s.error().message)};
      post(tr("%1: cover saved to %2").arg(name, QString::fromStdString(path.string())));
    }
    unitDone();
    // Tables of finished balances are not needed any more (5-piece memory).
    store.unload_all();
  }
  return {};
}

}  // namespace egtmin::ui
