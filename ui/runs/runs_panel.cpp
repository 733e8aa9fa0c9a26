// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/runs_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QThread>
#include <QVBoxLayout>

#include "app_context.hpp"
#include "chess/balance.hpp"
#include "logic/pass_sequence.hpp"
#include "run/run_plan.hpp"
#include "runs/balance_picker.hpp"
#include "runs/batch_plan_view.hpp"
#include "runs/cluster_view.hpp"
#include "runs/pass_picker.hpp"
#include "runs/run_widget.hpp"
#include "util/defaults.hpp"
#include "util/memory.hpp"

namespace egtmin::ui {

RunsPanel::RunsPanel(AppContext* ctx, QWidget* parent) : QWidget(parent), ctx_(ctx) {
  balances_ = new BalancePicker(this);
  passes_ = new PassPicker(this);
  threads_ = new QSpinBox(this);
  threads_->setRange(0, egtmin::default_threads() * 2);
  threads_->setSpecialValueText(tr("all (%1)").arg(egtmin::default_threads()));
  threads_->setValue(ctx_->threads());
  effort_ = new QComboBox(this);
  effort_->setObjectName("effort");
  effort_->addItem(tr("Normal"), int(logic::Effort::Normal));
  effort_->addItem(tr("High"), int(logic::Effort::High));
  effort_->setToolTip(
      tr("How hard expand and irredundant try (egtmin-cli minimize --effort). High spends "
         "more expand/irredundant effort for fewer cubes: KQvKR 10,382 cubes instead of "
         "10,779, at about 10x the CPU time."));
  {
    // Remembered like the other run settings; anything unknown reads as Normal.
    const auto e =
        parse_enum<logic::Effort>(QSettings().value("runEffort", QStringLiteral("normal")).toString().toStdString());
    effort_->setCurrentIndex(e && *e == logic::Effort::High ? 1 : 0);
  }
  start_ = new QPushButton(tr("Start run"), this);
  start_->setObjectName("start-run");
  verify_ = new QPushButton(tr("Verify tables"), this);
  verify_->setObjectName("verify-tables");
  verify_->setToolTip(
      tr("Prove the checked balances' tables: every position's value must follow from its successors' "
         "(the self-check), and all five values must agree with Syzygy's where the Syzygy folder has the file."));
  check_ = new QPushButton(tr("Check covers"), this);
  check_->setObjectName("check-covers");
  check_->setToolTip(
      tr("Check the checked balances' covers against their tables at every legal position, and probe every "
         "position through the indexed probe as engines do."));
  batch_ = new QPushButton(tr("Batch (every stage, resumable)…"), this);
  batch_->setObjectName("batch-run");
  batch_->setToolTip(
      tr("Take the checked balances through every stage, as egtmin-cli batch does: the table made and proven, "
         "compared with Syzygy where its folder is set, and the covers made and checked over every legal position. "
         "Each finished stage is recorded, so a cancelled batch keeps it and a new one goes on from there. The "
         "plan, with the expected time and peak memory, is shown before anything starts."));
  captureResolved_ = new QCheckBox(tr("Capture-resolved"), this);
  captureResolved_->setObjectName("capture-resolved");
  captureResolved_->setToolTip(
      tr("Make (and check) the smaller kind of cover, NAME.egtcr: what a capture or promotion already reaches "
         "(a win, or a draw or worse) is left to the probe, which also searches captures and promotions, as "
         "Syzygy's does (egtmin-cli minimize --capture-resolved)."));
  plan_ = new QLabel(this);
  plan_->setObjectName("run-plan");
  plan_->setWordWrap(true);
  plan_->setTextFormat(Qt::PlainText);
  auto* clear = new QPushButton(tr("Clear finished"), this);

  auto* setup = new QGroupBox(tr("New run"), this);
  auto* form = new QVBoxLayout(setup);
  form->addWidget(balances_, 1);
  form->addWidget(passes_);
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("Threads:"), setup));
  row->addWidget(threads_);
  auto* effortLabel = new QLabel(tr("Effort:"), setup);
  effortLabel->setBuddy(effort_);
  effortLabel->setToolTip(effort_->toolTip());
  row->addWidget(effortLabel);
  row->addWidget(effort_);
  row->addWidget(captureResolved_);
  row->addStretch(1);
  row->addWidget(verify_);
  row->addWidget(check_);
  row->addWidget(batch_);
  row->addWidget(start_);
  form->addLayout(row);
  form->addWidget(plan_);

  auto* list = new QWidget(this);
  runsLayout_ = new QVBoxLayout(list);
  runsLayout_->addStretch(1);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setWidget(list);
  auto* runsBox = new QGroupBox(tr("Runs"), this);
  auto* runsBoxLayout = new QVBoxLayout(runsBox);
  runsBoxLayout->addWidget(scroll, 1);
  runsBoxLayout->addWidget(clear, 0, Qt::AlignRight);

  batchPlan_ = new BatchPlanView(this);
  cluster_ = new ClusterView(ctx_, this);
  auto* right = new QSplitter(Qt::Vertical, this);
  right->addWidget(batchPlan_);
  right->addWidget(runsBox);
  right->addWidget(cluster_);
  right->setStretchFactor(0, 2);
  right->setStretchFactor(1, 3);
  right->setStretchFactor(2, 1);

  auto* split = new QSplitter(this);
  split->addWidget(setup);
  split->addWidget(right);
  split->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(split);

  connect(start_, &QPushButton::clicked, this, &RunsPanel::startFromSelection);
  connect(verify_, &QPushButton::clicked, this, &RunsPanel::verifySelection);
  connect(check_, &QPushButton::clicked, this, &RunsPanel::checkSelection);
  connect(batch_, &QPushButton::clicked, this, &RunsPanel::batchSelection);
  connect(batchPlan_, &BatchPlanView::startRequested, this, [this] { startRun(batchPlan_->spec()); });
  connect(captureResolved_, &QCheckBox::toggled, this, &RunsPanel::updateStart);
  connect(ctx_, &AppContext::changed, this, &RunsPanel::updateStart);
  connect(this, &RunsPanel::runFinished, this, &RunsPanel::updateStart);
  // A plan on show stays true: stages that finished since count as done.
  connect(this, &RunsPanel::runFinished, this, [this] {
    if (batchPlan_->isVisible()) batchPlan_->replan();
    updateBatchPlan();
  });
  connect(clear, &QPushButton::clicked, this, &RunsPanel::clearFinished);
  connect(balances_, &BalancePicker::selectionChanged, this, &RunsPanel::updateStart);
  connect(passes_, &PassPicker::changed, this, &RunsPanel::updateStart);
  connect(threads_, &QSpinBox::valueChanged, ctx_, &AppContext::setThreads);
  connect(effort_, &QComboBox::currentIndexChanged, this,
          [this] { QSettings().setValue("runEffort", RunJob::effortText(effort())); });
  updateStart();
}

RunsPanel::~RunsPanel() {
  // Jobs are children and cancel + wait in their destructors; cancel all first so they stop together.
  for (RunJob* j : jobs_) j->cancel();
}

void RunsPanel::setMemoryLimit(quint64 bytes) {
  memoryLimit_ = bytes;
  updateStart();
}

void RunsPanel::updateStart() {
  const QStringList names = balances_->checked();
  const int n = int(names.size());
  start_->setText(n ? tr("Start run (%n balance(s))", nullptr, n) : tr("Start run"));
  verify_->setEnabled(n > 0);
  check_->setEnabled(n > 0);
  batch_->setEnabled(n > 0 && passes_->valid() && !passes_->sequence().empty());
  std::vector<Balance> balances;
  for (const QString& name : names)
    if (auto b = Balance::parse(name.toStdString())) balances.push_back(*b);
  if (balances.empty()) {
    plan_->clear();
    start_->setEnabled(false);
    return;
  }
  // The plan is what run_minimize will do (run/run_plan.hpp): cheap, it only looks for files.
  // A list not valid yet (start stays disabled) is planned as a minimization, as it is meant to be.
  const bool minimizing = !passes_->valid() || !passes_->sequence().empty();
  // Without passes nothing is minimized: the split's pass threads are then not used.
  const run::RunPlan plan = run::plan_run(ctx_->dataDir().toStdString(), balances, minimizing,
                                          run::split_threads(balances, threads_->value()).pass_threads, coverKind());
  const quint64 limit = memoryLimit_ ? memoryLimit_ : available_memory_bytes();
  const Status fits = run::check_memory(plan, limit);
  QString text;
  const size_t tables = plan.tables();
  if (tables) {
    QStringList made;
    for (size_t i = 0; i < tables && i < 6; ++i) made << QString::fromStdString(plan.steps[i].balance.name());
    if (tables > 6) made << QStringLiteral("…");
    text = tr("Makes %n table(s) first (%1). ", nullptr, int(tables)).arg(made.join(QStringLiteral(", ")));
  }
  if (const run::PlanStep* peak = plan.peak_step()) {
    const QString what = QString::fromStdString(peak->balance.name());
    text += tr("Expected peak memory: %1 (%2 %3); this machine has %4 available.")
                .arg(QString::fromStdString(run::format_bytes(peak->peak_bytes)),
                     peak->kind == run::PlanStep::Kind::Table ? tr("making the table of") : tr("minimizing"), what,
                     QString::fromStdString(run::format_bytes(limit)));
  }
  if (!fits) text = tr("Refused: %1.").arg(QString::fromStdString(fits.error().message));
  plan_->setText(text);
  plan_->setStyleSheet(fits ? QString() : QStringLiteral("color: #b01010;"));
  start_->setEnabled(passes_->valid() && bool(fits));
  verify_->setEnabled(bool(fits));
  check_->setEnabled(bool(fits));
}

logic::Effort RunsPanel::effort() const {
  return effort_->currentData().toInt() == int(logic::Effort::High) ? logic::Effort::High : logic::Effort::Normal;
}

store::CoverKind RunsPanel::coverKind() const {
  return captureResolved_->isChecked() ? store::CoverKind::CaptureResolved : store::CoverKind::Standalone;
}

QList<RunWidget*> RunsPanel::runWidgets() const { return findChildren<RunWidget*>(); }

int RunsPanel::activeCount() const {
  int n = 0;
  for (RunJob* j : jobs_) n += j->active();
  return n;
}

RunJob* RunsPanel::startRun(const RunSpec& spec) {
  auto* job = new RunJob(spec, this);
  jobs_ << job;
  auto* w = new RunWidget(job);
  // Newest on top.
  runsLayout_->insertWidget(0, w);
  connect(job, &RunJob::finished, this, [this, job] {
    ctx_->notifyDataChanged();
    Q_EMIT runFinished(job);
  });
  job->start();
  updateBatchPlan();
  return job;
}

RunSpec RunsPanel::batchSpec(const QStringList& balances, logic::PassSequence passes) const {
  RunSpec spec;
  spec.kind = RunSpec::Kind::Batch;
  spec.balances = balances;
  spec.passes = std::move(passes);
  spec.threads = threads_->value();
  spec.effort = effort();
  spec.dataDir = ctx_->dataDir();
  spec.memoryLimit = memoryLimit_;
  spec.covers =
      coverKind() == store::CoverKind::CaptureResolved ? run::CoverSet::CaptureResolved : run::CoverSet::Standalone;
  // Only a directory Syzygy opened: a wrong one would fail every verify stage.
  if (ctx_->syzygy()) spec.syzygyDir = ctx_->syzygyDir();
  return spec;
}

void RunsPanel::proposeBatch(const RunSpec& spec) {
  batchPlan_->propose(spec);
  updateBatchPlan();
}

void RunsPanel::batchSelection() {
  if (!passes_->valid() || balances_->checked().isEmpty()) return;
  proposeBatch(batchSpec(balances_->checked(), passes_->sequence()));
}

void RunsPanel::updateBatchPlan() {
  // Two batches over one data directory would make the same stages side by side.
  const QString dir = batchPlan_->spec().dataDir;
  bool busy = false;
  for (const RunJob* j : jobs_)
    busy = busy || (j->active() && j->spec().kind == RunSpec::Kind::Batch && j->spec().dataDir == dir);
  batchPlan_->setStartBlocked(busy ? tr("A batch on this data directory is running: wait for it, or cancel it.")
                                   : QString());
}

RunSpec RunsPanel::selectionSpec(RunSpec::Kind kind) const {
  RunSpec spec;
  spec.kind = kind;
  spec.balances = balances_->checked();
  spec.passes = passes_->sequence();
  spec.threads = threads_->value();
  spec.effort = effort();
  spec.dataDir = ctx_->dataDir();
  spec.syzygy = ctx_->syzygy();
  spec.memoryLimit = memoryLimit_;
  spec.coverKind = coverKind();
  return spec;
}

void RunsPanel::startFromSelection() {
  if (!passes_->valid()) return;
  RunSpec spec = selectionSpec(RunSpec::Kind::Minimize);
  if (spec.balances.isEmpty()) return;
  startRun(spec);
}

void RunsPanel::verifySelection() {
  RunSpec spec = selectionSpec(RunSpec::Kind::Verify);
  if (!spec.balances.isEmpty()) startRun(spec);
}

void RunsPanel::checkSelection() {
  RunSpec spec = selectionSpec(RunSpec::Kind::Check);
  if (!spec.balances.isEmpty()) startRun(spec);
}

void RunsPanel::generate(const QString& balanceName, bool minimize) {
  const auto balance = Balance::parse(balanceName.toStdString());
  if (minimize && balance && balance->pieces() == kMaxSupportedPieces) {
    proposeBatch(batchSpec({balanceName}, logic::default_passes()));
    return;
  }
  RunSpec spec;
  spec.balances = {balanceName};
  if (minimize) spec.passes = logic::default_passes();
  spec.threads = threads_->value();
  spec.effort = effort();
  spec.dataDir = ctx_->dataDir();
  spec.memoryLimit = memoryLimit_;
  startRun(spec);
}

void RunsPanel::clearFinished() {
  for (RunWidget* w : runWidgets()) {
    if (w->job()->active()) continue;
    RunJob* j = w->job();
    jobs_.removeAll(j);
    delete w;
    j->deleteLater();
  }
}

bool RunsPanel::cancelAllAndWait(int timeoutMs) {
  for (RunJob* j : jobs_) j->cancel();
  bool ok = true;
  for (RunJob* j : jobs_) ok = j->wait(timeoutMs) && ok;
  return ok;
}

}  // namespace egtmin::ui
