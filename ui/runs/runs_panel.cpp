// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/runs_panel.hpp"

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
#include "logic/pass_registry.hpp"
#include "runs/balance_picker.hpp"
#include "runs/pass_picker.hpp"
#include "runs/run_widget.hpp"
#include "util/defaults.hpp"

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
    auto e = logic::parse_effort(QSettings().value("runEffort", QStringLiteral("normal")).toString().toStdString());
    effort_->setCurrentIndex(e && *e == logic::Effort::High ? 1 : 0);
  }
  start_ = new QPushButton(tr("Start run"), this);
  start_->setObjectName("start-run");
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
  row->addStretch(1);
  row->addWidget(start_);
  form->addLayout(row);

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

  auto* split = new QSplitter(this);
  split->addWidget(setup);
  split->addWidget(runsBox);
  split->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(split);

  connect(start_, &QPushButton::clicked, this, &RunsPanel::startFromSelection);
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

void RunsPanel::updateStart() {
  const int n = int(balances_->checked().size());
  start_->setEnabled(n > 0 && passes_->valid());
  start_->setText(n ? tr("Start run (%n balance(s))", nullptr, n) : tr("Start run"));
}

logic::Effort RunsPanel::effort() const {
  return effort_->currentData().toInt() == int(logic::Effort::High) ? logic::Effort::High : logic::Effort::Normal;
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
  return job;
}

void RunsPanel::startFromSelection() {
  if (!passes_->valid()) return;
  RunSpec spec;
  spec.balances = balances_->checked();
  if (spec.balances.isEmpty()) return;
  spec.passes = passes_->passes();
  spec.threads = threads_->value();
  spec.effort = effort();
  spec.dataDir = ctx_->dataDir();
  startRun(spec);
}

void RunsPanel::generate(const QString& balanceName, bool minimize) {
  RunSpec spec;
  spec.balances = {balanceName};
  if (minimize) spec.passes = QString::fromUtf8(logic::kDefaultPasses.data(), qsizetype(logic::kDefaultPasses.size()));
  spec.threads = threads_->value();
  spec.effort = effort();
  spec.dataDir = ctx_->dataDir();
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
