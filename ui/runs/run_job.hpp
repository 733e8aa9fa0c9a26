// SPDX-License-Identifier: GPL-3.0-or-later
// One background run: make sure the balances' tables exist (TableStore::ensure, dependencies
// first), then minimize each through the chosen passes and save its cover file; or prove tables
// or covers; or, as a batch, take the balances through every stage (run::run_batch). Runs on a
// worker thread; progress is sampled by a GUI-thread timer so a chatty worker cannot flood the
// event loop. Cancel goes through Progress::cancel and is honoured at core's next check.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>
#include <QTimer>
#include <mutex>
#include <optional>

#include "background_task.hpp"
#include "logic/pass_sequence.hpp"
#include "logic/passes.hpp"
#include "run/batch_run.hpp"
#include "run/minimize_run.hpp"
#include "run/proof_run.hpp"
#include "runs/batch_progress.hpp"
#include "util/progress.hpp"

namespace egtmin::ui {

struct RunSpec {
  // Minimize: make the tables, then the covers (no passes: the tables only). Verify: prove the
  // tables (self-check, and Syzygy where `syzygy` has the file). Check: the covers against the
  // tables over every legal position, and through the indexed probe. Batch: every stage of
  // run/batch_stage.hpp for `covers`, each recorded under DATA/batch as it finishes, so that a
  // cancelled run keeps its finished stages and a new one goes on from there.
  enum class Kind { Minimize, Verify, Check, Batch };
  Kind kind = Kind::Minimize;
  QStringList balances;        // names as Balance::parse accepts them
  logic::PassSequence passes;  // empty: tables only
  int threads = 0;             // 0: default_threads()
  QString dataDir;
  bool saveCovers = true;
  logic::Effort effort = logic::Effort::Normal;  // MinimizeOptions::effort (expand, irredundant)
  const Syzygy* syzygy = nullptr;                // Verify: compare with these files too
  quint64 memoryLimit = 0;                       // bytes; 0: the memory available at the start
  // Minimize makes, and Check checks, this kind of cover (capture-resolved: NAME.egtcr).
  store::CoverKind coverKind = store::CoverKind::Standalone;
  // Batch: the covers made and proven (capture-resolved: also those of the balances the capture
  // search needs, first).
  run::CoverSet covers = run::CoverSet::Standalone;
  // Batch: where the capture-resolved proofs take the values their searches reach (tables: the
  // batch makes the tables of those balances, not their covers).
  run::SuccessorValues successors = run::SuccessorValues::Covers;
  // Batch: Syzygy's directory, to compare each table with (the verify stage); empty: no comparison.
  QString syzygyDir;
};

// One point of a run's per-pass record: the cover after a pass ("start" = the initial minterms).
struct PassPoint {
  QString balance;
  QString pass;
  int step = 0;  // 0 = start, then 1.. per pass
  quint64 cubes = 0;
  quint64 literals = 0;
  double seconds = 0;
  double mib = 0;
};

class RunJob : public QObject {
  Q_OBJECT
 public:
  enum class State { Queued, Running, Done, Failed, Cancelled };

  RunJob(RunSpec spec, QObject* parent = nullptr);
  ~RunJob() override;  // cancels and waits: the worker uses this object's Progress

  const RunSpec& spec() const { return spec_; }
  State state() const { return state_; }
  bool active() const { return state_ == State::Queued || state_ == State::Running; }
  QString stage() const { return stage_; }
  double fraction() const { return fraction_; }  // of the whole run, 0..1
  qint64 elapsedMs() const;
  QString error() const { return error_; }
  QStringList log() const { return log_; }
  QList<PassPoint> points() const { return points_; }
  // "balances: passes", with "(high effort)" when the run minimizes at more than normal effort.
  QString title() const;
  // "normal" / "high", as egtmin-cli minimize --effort spells them.
  static QString effortText(logic::Effort e);
  // What the worker hands the run service (core's run/minimize_run.hpp); errors name a bad
  // balance or pass.
  static Result<run::MinimizeRequest> request(const RunSpec& spec);
  // The same for a batch; the plan view plans with it too, so it plans what the run will do.
  static Result<run::BatchRequest> batchRequest(const RunSpec& spec);
  // A batch's stage in progress or next, as of the last poll; none before the run has planned
  // and after its last stage (or for other kinds of run).
  std::optional<run::PlannedStage> batchStage() const { return batchStage_; }

  // Blocks (processing events) until the worker has stopped; false on timeout.
  bool wait(int timeoutMs);

 public Q_SLOTS:
  void start();
  void cancel();

 Q_SIGNALS:
  void progressed();
  void logLine(const QString& line);
  void finished();

 private:
  struct Outcome {
    bool ok = true;
    bool cancelled = false;
    QString error;
  };
  Outcome work();
  Outcome prove();  // Verify and Check
  Outcome batch();
  // Under mutex_: a stage the run entered, for the next poll; and a batch's as "stage 3 of 9:
  // KBNvK table — generate" (the step when core names one).
  void enterStage(QString label);
  QString batchLabel(std::optional<Stage> step) const;
  // From the worker: a log line or a pass's figures for the GUI thread, queued under mutex_ and
  // taken by takePosted(), which the worker asks for by name (nothing of ours crosses in Qt's queue).
  void post(const QString& line);
  void postPoint(const PassPoint& p);
  Q_INVOKABLE void takePosted();
  void poll();
  void done(const Outcome& o);

  RunSpec spec_;
  State state_ = State::Queued;
  QString stage_;
  double fraction_ = 0;
  QString error_;
  QStringList log_;
  QList<PassPoint> points_;
  QElapsedTimer clock_;
  qint64 finalMs_ = -1;
  QTimer poll_;
  BackgroundTask<Outcome> task_;
  Progress progress_;
  // Written by the worker, read by poll() and takePosted().
  std::mutex mutex_;
  QString sharedStage_;
  QStringList stagesSincePoll_;  // entered since the last poll, oldest first
  static constexpr qsizetype kMaxStagesPerPoll = 256;
  double sharedFraction_ = 0;
  QStringList postedLines_;
  QList<PassPoint> postedPoints_;
  // A batch's plan and where the run is in it (set by the worker before the run starts).
  std::optional<BatchProgress> batchProgress_;
  // GUI thread, from batchProgress_ at each poll.
  std::optional<run::PlannedStage> batchStage_;
  int batchFinished_ = 0;
};

}  // namespace egtmin::ui
