// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/batch_plan_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

#include "enum_text.hpp"
#include "run/run_plan.hpp"
#include "util/memory.hpp"

namespace egtmin::ui {

namespace {

QString duration(std::chrono::seconds t) {
  const qint64 s = t.count();
  if (s < 60) return BatchPlanView::tr("%1 s").arg(s);
  const qint64 minutes = (s + 59) / 60;
  if (minutes < 60) return BatchPlanView::tr("%1 min").arg(minutes);
  return BatchPlanView::tr("%1 h %2 min").arg(minutes / 60).arg(minutes % 60);
}

QString bytes(uint64_t b) { return QString::fromStdString(run::format_bytes(b)); }

}  // namespace

QString batchPlanSummary(const run::BatchPlan& plan, quint64 availableBytes) {
  int toDo = 0;
  const run::PlannedStage* peak = nullptr;
  for (const run::PlannedStage& p : plan.stages) {
    if (p.done) continue;
    ++toDo;
    if (!peak || p.expected_peak_bytes > peak->expected_peak_bytes) peak = &p;
  }
  const int doneBefore = int(plan.stages.size()) - toDo;
  if (!peak) return BatchPlanView::tr("Every stage is done (%n recorded): nothing to run.", nullptr, doneBefore);
  QString text = BatchPlanView::tr("%n stage(s) to do", nullptr, toDo);
  if (doneBefore) text += BatchPlanView::tr(" (%n done before)", nullptr, doneBefore);
  text += BatchPlanView::tr(
              ": about %1 one after another; largest expected peak %2 (%3 %4), this machine has %5 "
              "available.")
              .arg(duration(plan.seconds_to_do()), bytes(plan.peak_bytes_to_do()),
                   QString::fromStdString(peak->balance.name()), enumText(peak->stage), bytes(availableBytes));
  if (plan.peak_bytes_to_do() > availableBytes)
    text += BatchPlanView::tr(
        " A stage expected to need more is refused when its turn comes, with the reason in its record, and the "
        "run goes on with the others.");
  return text;
}

BatchPlanView::BatchPlanView(QWidget* parent) : QGroupBox(parent) {
  setObjectName("batch-plan");
  covers_ = new QComboBox(this);
  covers_->setObjectName("batch-covers");
  for (const EnumName<run::CoverSet>& c : run::kCoverSetNames) covers_->addItem(enumText(c.value), int(c.value));
  covers_->setToolTip(
      tr("The covers the batch makes and proves. Capture-resolved covers leave what a capture or promotion reaches "
         "to the probe's capture search, so the batch first makes the capture-resolved covers of the balances that "
         "search probes and that have none yet."));
  successors_ = new QComboBox(this);
  successors_->setObjectName("batch-successors");
  for (const EnumName<run::SuccessorValues>& v : run::kSuccessorValuesNames)
    successors_->addItem(enumText(v.value), int(v.value));
  successors_->setToolTip(
      tr("Where a capture-resolved cover's proof takes the values its capture search reaches: the covers of those "
         "balances, made first, or their tables, each of whose covers its own proof found equal to its table. With "
         "tables the batch makes only the tables those balances need, not their covers."));
  stages_ = new QTreeWidget(this);
  stages_->setObjectName("batch-plan-stages");
  stages_->setRootIsDecorated(false);
  stages_->setUniformRowHeights(true);
  stages_->setHeaderLabels(
      {tr("Balance"), tr("Stage"), tr("Status"), tr("Expected time"), tr("Expected peak"), tr("Why")});
  stages_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  summary_ = new QLabel(this);
  summary_->setObjectName("batch-plan-summary");
  summary_->setWordWrap(true);
  summary_->setTextFormat(Qt::PlainText);
  start_ = new QPushButton(tr("Start batch"), this);
  start_->setObjectName("batch-start");
  dismiss_ = new QPushButton(tr("Cancel"), this);
  dismiss_->setObjectName("batch-dismiss");

  auto* top = new QHBoxLayout;
  auto* coversLabel = new QLabel(tr("Covers:"), this);
  coversLabel->setBuddy(covers_);
  top->addWidget(coversLabel);
  top->addWidget(covers_);
  auto* successorsLabel = new QLabel(tr("Successors:"), this);
  successorsLabel->setBuddy(successors_);
  top->addWidget(successorsLabel);
  top->addWidget(successors_);
  top->addStretch(1);
  auto* buttons = new QHBoxLayout;
  buttons->addStretch(1);
  buttons->addWidget(dismiss_);
  buttons->addWidget(start_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(stages_, 1);
  layout->addWidget(summary_);
  layout->addLayout(buttons);

  connect(covers_, &QComboBox::currentIndexChanged, this, [this] {
    spec_.covers = run::CoverSet(covers_->currentData().toInt());
    replan();
  });
  connect(successors_, &QComboBox::currentIndexChanged, this, [this] {
    spec_.successors = run::SuccessorValues(successors_->currentData().toInt());
    replan();
  });
  connect(start_, &QPushButton::clicked, this, [this] {
    hide();
    Q_EMIT startRequested();
  });
  connect(dismiss_, &QPushButton::clicked, this, &QWidget::hide);
  hide();
}

void BatchPlanView::propose(const RunSpec& spec) {
  spec_ = spec;
  spec_.kind = RunSpec::Kind::Batch;
  {
    const QSignalBlocker block(covers_);
    covers_->setCurrentIndex(covers_->findData(int(spec_.covers)));
  }
  {
    const QSignalBlocker block(successors_);
    successors_->setCurrentIndex(successors_->findData(int(spec_.successors)));
  }
  replan();
  show();
}

void BatchPlanView::replan() {
  setTitle(tr("Batch plan: %1 (every stage, resumable)").arg(spec_.balances.join(QStringLiteral(", "))));
  stages_->clear();
  auto request = RunJob::batchRequest(spec_);
  if (!request) {
    planned_ = false;
    plan_ = {};
    base_ = tr("Cannot plan this batch: %1.").arg(QString::fromStdString(request.error().message));
    updateStart();
    return;
  }
  // Cheap: it reads the records and looks for files.
  plan_ = run::plan_batch(*request);
  planned_ = true;
  const std::set<Balance> asked(request->balances.begin(), request->balances.end());
  const QColor doneColor = palette().color(QPalette::Disabled, QPalette::Text);
  QList<QTreeWidgetItem*> rows;
  for (const run::PlannedStage& p : plan_.stages) {
    auto* row = new QTreeWidgetItem;
    row->setText(BalanceColumn, QString::fromStdString(p.balance.name()));
    row->setText(StageColumn, enumText(p.stage));
    row->setData(StageColumn, Qt::UserRole, int(p.stage));
    row->setText(StatusColumn, p.done ? tr("done") : tr("to do"));
    row->setText(TimeColumn, p.done ? QString() : duration(p.expected_seconds));
    row->setText(PeakColumn, p.done ? QString() : bytes(p.expected_peak_bytes));
    const bool needed = !asked.count(p.balance.canonical());
    row->setText(WhyColumn, needed ? tr("needed: a capture search probes its cover") : tr("asked for"));
    row->setData(WhyColumn, Qt::UserRole, needed);
    if (p.done)
      for (int c = 0; c <= WhyColumn; ++c) row->setForeground(c, doneColor);
    rows << row;
  }
  stages_->addTopLevelItems(rows);
  base_ = batchPlanSummary(plan_, spec_.memoryLimit ? spec_.memoryLimit : available_memory_bytes());
  updateStart();
}

void BatchPlanView::setStartBlocked(const QString& why) {
  blocked_ = why;
  updateStart();
}

void BatchPlanView::updateStart() {
  const bool toDo = std::any_of(plan_.stages.begin(), plan_.stages.end(), [](const auto& p) { return !p.done; });
  start_->setEnabled(planned_ && toDo && blocked_.isEmpty());
  summary_->setText(blocked_.isEmpty() ? base_ : base_ + QLatin1Char('\n') + blocked_);
}

}  // namespace egtmin::ui
