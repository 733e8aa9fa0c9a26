// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/cluster_view.hpp"

#include <filesystem>

#include <QBrush>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPalette>
#include <QPushButton>
#include <QShowEvent>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "app_context.hpp"
#include "cluster/job_files.hpp"
#include "enum_text.hpp"

namespace egtmin::ui {

ClusterView::ClusterView(AppContext* ctx, QWidget* parent) : QGroupBox(tr("Cluster run"), parent), ctx_(ctx) {
  setObjectName("cluster-view");
  data_ = new QLineEdit(ctx_->dataDir(), this);
  data_->setObjectName("cluster-data");
  data_->setToolTip(
      tr("The data directory the cluster jobs work in (egtmin-cli cluster submit --data), on a filesystem this "
         "machine sees too. Read only: nothing is submitted or cancelled from here."));
  refresh_ = new QPushButton(tr("Refresh"), this);
  refresh_->setObjectName("cluster-refresh");
  tree_ = new QTreeWidget(this);
  tree_->setObjectName("cluster-stages");
  tree_->setRootIsDecorated(false);
  tree_->setColumnCount(1 + int(run::kClusterStages.size()));
  QStringList headers = {tr("Balance")};
  for (run::BatchStage s : run::kClusterStages) headers << enumText(s);
  tree_->setHeaderLabels(headers);
  tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  tree_->setMinimumHeight(120);
  summary_ = new QLabel(tr("Refresh reads the cluster jobs under the data directory."), this);
  summary_->setObjectName("cluster-summary");
  summary_->setWordWrap(true);
  summary_->setTextFormat(Qt::PlainText);

  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("Data:"), this));
  row->addWidget(data_, 1);
  row->addWidget(refresh_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(row);
  layout->addWidget(tree_, 1);
  layout->addWidget(summary_);

  connect(refresh_, &QPushButton::clicked, this, &ClusterView::refresh);
  connect(data_, &QLineEdit::returnPressed, this, &ClusterView::refresh);
  connect(&watcher_, &BackgroundTaskBase::finished, this, [this] {
    showStatus(watcher_.result());
    if (again_) {
      again_ = false;
      refresh();
      return;
    }
    Q_EMIT refreshed();
  });
}

ClusterView::~ClusterView() { watcher_.waitForFinished(); }

void ClusterView::showEvent(QShowEvent* event) {
  QGroupBox::showEvent(event);
  if (shown_) return;
  shown_ = true;
  std::error_code ec;
  if (std::filesystem::is_directory(cluster::jobs_dir(data_->text().trimmed().toStdString()), ec)) refresh();
}

void ClusterView::refresh() {
  if (watcher_.isRunning()) {
    again_ = true;
    return;
  }
  cluster::StatusRequest request;
  request.data_dir = data_->text().trimmed().toStdString();
  summary_->setText(tr("Reading %1 ...").arg(data_->text()));
  watcher_.start([request, runner = runner_]() -> Result<cluster::ClusterStatus> {
    if (request.data_dir.empty()) return Error{"no data directory given"};
    cluster::Slurm slurm(runner);
    return cluster::cluster_status(request, slurm);
  });
}

void ClusterView::showStatus(const Result<cluster::ClusterStatus>& status) {
  tree_->clear();
  if (!status) {
    summary_->setText(QString::fromStdString(status.error().message));
    return;
  }
  if (status->balances.empty()) {
    summary_->setText(tr("No cluster jobs under %1 (egtmin-cli cluster submit makes them).").arg(data_->text()));
    return;
  }
  for (const cluster::BalanceStatus& b : status->balances) {
    auto* item = new QTreeWidgetItem(tree_);
    item->setText(0, QString::fromStdString(b.balance.name()));
    for (run::BatchStage s : run::kClusterStages) {
      const cluster::StageStatus& st = b.stage(s);
      const int column = 1 + int(s);
      if (st.state == cluster::StageState::NotSubmitted) {
        item->setText(column, QStringLiteral("-"));
        continue;
      }
      QString text = enumText(st.state);
      if (st.state != cluster::StageState::Done && !st.job_id.empty())
        text += tr(" (job %1)").arg(QString::fromStdString(st.job_id));
      item->setText(column, text);
      QStringList tip;
      if (!st.detail.empty()) tip << QString::fromStdString(st.detail);
      for (const std::string& line : st.log_tail) tip << QString::fromStdString(line);
      item->setToolTip(column, tip.join('\n'));
      if (st.state == cluster::StageState::Failed) item->setForeground(column, QBrush(Qt::red));
    }
  }
  QString text = tr("%1 done, %2 running, %3 queued, %4 failed")
                     .arg(status->count(cluster::StageState::Done))
                     .arg(status->count(cluster::StageState::Running))
                     .arg(status->count(cluster::StageState::Queued))
                     .arg(status->count(cluster::StageState::Failed));
  if (!status->queue_error.empty())
    text += tr("; the queue could not be read (%1), so states come from the records alone")
                .arg(QString::fromStdString(status->queue_error));
  summary_->setText(text);
}

}  // namespace egtmin::ui
