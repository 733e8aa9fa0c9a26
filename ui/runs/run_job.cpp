// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/run_job.hpp"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QHash>
#include <QThread>

#include "chess/balance.hpp"
#include "enum_text.hpp"
#include "run/stages/all.hpp"
#include "util/defaults.hpp"

namespace egtmin::ui {

RunJob::RunJob(RunSpec spec, QObject* parent)
    : QObject(parent), spec_(std::move(spec)), progress_([this](const ProgressEvent& e) {
        // Worker threads: poll() shows the latest fraction at 10 Hz, and every stage the run
        // entered since the last poll in order, however briefly it lasted (a 3-piece table can be
        // made between two polls). run_minimize and run_proof report fractions of the whole run;
        // a batch, each stage's own, which batchProgress_ turns into the whole run's.
        std::lock_guard lock(mutex_);
        if (batchProgress_) {
          enterStage(batchLabel(e.stage));
          sharedFraction_ = batchProgress_->fraction(e.fraction);
          return;
        }
        enterStage(QString::fromStdString(progress_label(e)));
        sharedFraction_ = std::clamp(e.fraction, 0.0, 1.0);
      }) {
  poll_.setInterval(100);
  connect(&poll_, &QTimer::timeout, this, &RunJob::poll);
  connect(&task_, &BackgroundTaskBase::finished, this, [this] { done(task_.result()); });
}

RunJob::~RunJob() {
  progress_.cancel();
  task_.waitForFinished();
}

QString RunJob::effortText(logic::Effort e) { return enumText(e); }

QString RunJob::title() const {
  QString t = spec_.balances.join(QStringLiteral(", "));
  if (t.size() > 60) t = t.left(57) + QStringLiteral("…");
  if (spec_.kind == RunSpec::Kind::Verify)
    return spec_.syzygy ? tr("%1: verify (self-check, Syzygy)").arg(t) : tr("%1: verify (self-check)").arg(t);
  if (spec_.kind == RunSpec::Kind::Batch)
    return tr("%1: every stage, %2 covers (batch)").arg(t, enumText(spec_.covers));
  const bool resolved = spec_.coverKind == store::CoverKind::CaptureResolved;
  if (spec_.kind == RunSpec::Kind::Check)
    return resolved ? tr("%1: check capture-resolved covers (every position, indexed probe)").arg(t)
                    : tr("%1: check covers (every position, indexed probe)").arg(t);
  if (resolved && !spec_.passes.empty()) t += tr(" (capture-resolved)");
  if (spec_.passes.empty()) return tr("%1: tables").arg(t);
  const QString passes = QString::fromStdString(logic::passes_string(spec_.passes));
  if (spec_.effort != logic::Effort::Normal) return tr("%1: %2 (%3 effort)").arg(t, passes, effortText(spec_.effort));
  return tr("%1: %2").arg(t, passes);
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
  task_.start([this] { return work(); });
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
  {
    std::lock_guard lock(mutex_);
    postedLines_ << line;
  }
  QMetaObject::invokeMethod(this, "takePosted", Qt::QueuedConnection);
}

void RunJob::postPoint(const PassPoint& p) {
  {
    std::lock_guard lock(mutex_);
    postedPoints_ << p;
  }
  QMetaObject::invokeMethod(this, "takePosted", Qt::QueuedConnection);
}

void RunJob::takePosted() {
  QStringList lines;
  {
    std::lock_guard lock(mutex_);
    lines.swap(postedLines_);
    points_ << postedPoints_;
    postedPoints_.clear();
  }
  for (const QString& line : lines) {
    log_ << line;
    Q_EMIT logLine(line);
  }
}

void RunJob::enterStage(QString label) {
  if (label == sharedStage_) return;
  if (stagesSincePoll_.size() >= kMaxStagesPerPoll) stagesSincePoll_.removeFirst();
  stagesSincePoll_ << label;
  sharedStage_ = std::move(label);
}

QString RunJob::batchLabel(std::optional<Stage> step) const {
  const run::PlannedStage* p = batchProgress_->current();
  if (!p) return step ? enumText(*step) : QString();
  const QString at = tr("stage %1 of %2: %3 %4")
                         .arg(batchProgress_->stageNumber())
                         .arg(batchProgress_->stageCount())
                         .arg(QString::fromStdString(p->balance.name()), enumText(p->stage));
  return step ? tr("%1 — %2").arg(at, enumText(*step)) : at;
}

void RunJob::poll() {
  QStringList stages;
  {
    std::lock_guard lock(mutex_);
    stages.swap(stagesSincePoll_);
    fraction_ = sharedFraction_;
    if (batchProgress_) {
      const run::PlannedStage* p = batchProgress_->current();
      batchStage_ = p ? std::optional(*p) : std::nullopt;
      batchFinished_ = batchProgress_->finished();
    }
  }
  if (state_ != State::Running || progress_.cancelled() || stages.isEmpty()) {
    Q_EMIT progressed();
    return;
  }
  for (const QString& s : stages) {
    stage_ = s;
    Q_EMIT progressed();
  }
}

void RunJob::done(const Outcome& o) {
  takePosted();  // the run's last lines before its end
  poll();        // and the stages it entered since the last poll (a fast run's last tables)
  poll_.stop();
  finalMs_ = clock_.isValid() ? clock_.elapsed() : 0;
  if (o.cancelled) {
    state_ = State::Cancelled;
    stage_ = spec_.kind == RunSpec::Kind::Batch
                 ? tr("cancelled: %n finished stage(s) stay recorded, and a new batch goes on from there", nullptr,
                      batchFinished_)
                 : tr("cancelled");
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

Result<run::MinimizeRequest> RunJob::request(const RunSpec& spec) {
  run::MinimizeRequest r;
  for (const QString& name : spec.balances) {
    auto b = Balance::parse(name.toStdString());
    if (!b) return b.error();
    r.balances.push_back(*b);
  }
  r.passes = spec.passes;
  r.effort = spec.effort;
  r.threads = spec.threads;
  r.covers = spec.saveCovers ? run::CoverOutput::Save : run::CoverOutput::Discard;
  r.data_dir = spec.dataDir.toStdString();
  if (spec.memoryLimit) r.memory_limit = spec.memoryLimit;
  r.kind = spec.coverKind;
  return r;
}

Result<run::BatchRequest> RunJob::batchRequest(const RunSpec& spec) {
  run::BatchRequest r;
  for (const QString& name : spec.balances) {
    auto b = Balance::parse(name.toStdString());
    if (!b) return b.error();
    if (auto s = check_supported(*b); !s) return s.error();
    r.balances.push_back(b->canonical());
  }
  if (spec.passes.empty()) return Error{"a batch makes covers: choose the passes"};
  r.data_dir = spec.dataDir.toStdString();
  r.passes = spec.passes;
  r.effort = spec.effort;
  r.threads = spec.threads;
  if (spec.memoryLimit) r.memory_limit = spec.memoryLimit;
  r.syzygy_dir = spec.syzygyDir.toStdString();
  r.covers = spec.covers;
  r.successors = spec.successors;
  return r;
}

RunJob::Outcome RunJob::batch() {
  auto req = batchRequest(spec_);
  if (!req) return {false, false, QString::fromStdString(req.error().message)};
  // Planned here, off the GUI thread and just before the run, from the files run_batch finds.
  run::BatchPlan plan = run::plan_batch(*req);
  int toDo = 0;
  for (const run::PlannedStage& p : plan.stages) toDo += !p.done;
  const int doneBefore = int(plan.stages.size()) - toDo;
  {
    std::lock_guard lock(mutex_);
    batchProgress_.emplace(std::move(plan));
    enterStage(batchLabel(std::nullopt));
    sharedFraction_ = batchProgress_->fraction(0);
  }
  post(tr("batch of %1 covers: passes %2, %3 effort, %4 thread(s); %5 stage(s) to do, %6 done before")
           .arg(enumText(req->covers), QString::fromStdString(logic::passes_string(req->passes)),
                effortText(req->effort))
           .arg(resolve_threads(req->threads))
           .arg(toDo)
           .arg(doneBefore));
  auto name = [](const Balance& b) { return QString::fromStdString(b.name()); };
  run::BatchEvents events;
  events.stage_done = [&](const run::BatchRecord& r, run::BatchStage s, bool skipped) {
    const bool failed = !r.error.empty();
    {
      std::lock_guard lock(mutex_);
      batchProgress_->stageDone(r.balance, s, skipped, failed);
      enterStage(batchLabel(std::nullopt));  // the next stage, until it reports
      sharedFraction_ = batchProgress_->fraction(0);
    }
    QString what;
    if (failed)
      what = tr("failed: %1").arg(QString::fromStdString(r.error));
    else if (skipped)
      what = tr("done before");
    else
      what = QString::fromStdString(
          run::with_stage(s, [&]<run::BatchStage S>() { return run::Stage<S>::summary(r.stage(S), r.results<S>()); }));
    post(tr("%1 %2: %3").arg(name(r.balance), enumText(s), what));
  };
  auto result = run::run_batch(*req, events, progress_);
  if (progress_.cancelled()) return {false, true, {}};
  if (!result) return {false, false, QString::fromStdString(result.error().message)};
  QStringList failures;
  for (const run::BatchRecord& r : *result)
    if (!r.error.empty()) failures << tr("%1: %2").arg(name(r.balance), QString::fromStdString(r.error));
  if (!failures.isEmpty()) return {false, false, failures.join(QStringLiteral("; "))};
  return {};
}

RunJob::Outcome RunJob::prove() {
  auto req = request(spec_);
  if (!req) return {false, false, QString::fromStdString(req.error().message)};
  run::ProofRequest p;
  p.balances = req->balances;
  p.data_dir = req->data_dir;
  p.threads = req->threads;
  p.memory_limit = req->memory_limit;
  if (spec_.kind == RunSpec::Kind::Verify) {
    p.self_check = true;
    p.syzygy = spec_.syzygy;
  } else {
    p.self_check = false;
    p.check_cover = true;
    p.check_probe = true;
    p.kind = spec_.coverKind;
  }
  auto counts = [](const Table::Counts& c) { return QString::fromStdString(value_counts_text(c)); };
  run::ProofEvents events;
  events.balance_done = [&](const run::BalanceProof& r) {
    const QString b = QString::fromStdString(r.balance.name());
    if (r.self_check)
      post(tr("%1 self-check: %2 positions (%3), %4 failures")
               .arg(b)
               .arg(r.self_check->positions)
               .arg(counts(r.self_check->counts))
               .arg(r.self_check->failures));
    if (r.syzygy)
      post(tr("%1 against Syzygy: %2 positions (%3), %4 mismatches")
               .arg(b)
               .arg(r.syzygy->positions)
               .arg(counts(r.syzygy->counts))
               .arg(r.syzygy->mismatches));
    else if (spec_.kind == RunSpec::Kind::Verify && spec_.syzygy)
      post(tr("%1: no Syzygy file to compare with").arg(b));
    if (r.cover)
      post(tr("%1 cover: %2 positions, %3 mismatches").arg(b).arg(r.cover->positions).arg(r.cover->mismatches));
    if (r.probe)
      post(tr("%1 indexed probe: %2 positions, %3 mismatches").arg(b).arg(r.probe->positions).arg(r.probe->mismatches));
    if (!r.error.empty()) post(tr("%1: %2").arg(b, QString::fromStdString(r.error)));
  };
  auto result = run::run_proof(p, events, progress_);
  if (progress_.cancelled()) return {false, true, {}};
  if (!result) return {false, false, QString::fromStdString(result.error().message)};
  uint64_t failures = 0;
  for (const run::BalanceProof& r : *result) {
    if (!r.error.empty()) return {false, false, QString::fromStdString(r.balance.name() + ": " + r.error)};
    failures += r.failures();
  }
  if (failures) return {false, false, tr("%1 positions failed").arg(failures)};
  return {};
}

RunJob::Outcome RunJob::work() {
  // Runs on a pool thread; the run service's events come from its workers one at a time and
  // reach the GUI through post() and postPoint().
  if (spec_.kind == RunSpec::Kind::Batch) return batch();
  if (spec_.kind != RunSpec::Kind::Minimize) return prove();
  auto req = request(spec_);
  if (!req) return {false, false, QString::fromStdString(req.error().message)};
  if (!req->passes.empty())
    post(tr("passes %1, %2 effort, %3 thread(s)")
             .arg(QString::fromStdString(logic::passes_string(req->passes)), effortText(req->effort))
             .arg(resolve_threads(req->threads)));
  auto name = [](const Balance& b) { return QString::fromStdString(b.name()); };
  run::MinimizeEvents events;
  events.table_generated = [&](const Balance& b, const TableStore::Generated& g) {
    post(g.self_check ? tr("table %1: generated in %2 s, self-check passed in %3 s")
                            .arg(name(b))
                            .arg(g.seconds, 0, 'f', 2)
                            .arg(g.self_check_seconds, 0, 'f', 2)
                      : tr("table %1: generated in %2 s").arg(name(b)).arg(g.seconds, 0, 'f', 2));
  };
  events.balance_started = [&](const Balance& b, uint64_t minterms, uint64_t care, int inputs) {
    post(tr("%1 start: %2 minterms over %3 care positions").arg(name(b)).arg(minterms).arg(care));
    postPoint(PassPoint{name(b), QStringLiteral("start"), 0, minterms, minterms * quint64(inputs), 0, 0});
  };
  QHash<QString, int> steps;  // passes done per balance (events come one at a time)
  events.pass_done = [&](const Balance& b, const logic::PassReport& r) {
    const double mib = double(r.peak_bytes) / (1024.0 * 1024.0);
    postPoint(
        PassPoint{name(b), QString::fromStdString(r.pass), ++steps[name(b)], r.cubes, r.literals, r.seconds, mib});
    post(tr("%1 %2: %3 cubes, %4 literals, %5 s (cpu %6 s), %7 MiB")
             .arg(name(b), QString::fromStdString(r.pass))
             .arg(r.cubes)
             .arg(r.literals)
             .arg(r.seconds, 0, 'f', 3)
             .arg(r.cpu_seconds, 0, 'f', 3)
             .arg(mib, 0, 'f', 1));
  };
  events.balance_done = [&](const run::BalanceResult& r) {
    if (r.ok() && r.reused_standalone)
      post(tr("%1: no capture or promotion reaches a value, nothing is left to captures: its standalone cover "
              "serves as the capture-resolved one")
               .arg(name(r.balance)));
    if (r.ok() && !r.cover_path.empty())
      post(tr("%1: cover saved to %2").arg(name(r.balance), QString::fromStdString(r.cover_path.string())));
  };
  auto result = run::run_minimize(*req, events, progress_);
  if (progress_.cancelled()) return {false, true, {}};
  if (!result) return {false, false, QString::fromStdString(result.error().message)};
  if (req->passes.empty())
    for (const Balance& b : req->balances) post(tr("table %1: ready").arg(name(b.canonical())));
  for (const run::BalanceResult& r : result->balances)
    if (!r.ok()) return {false, false, QString::fromStdString(r.error)};
  return {};
}

}  // namespace egtmin::ui
