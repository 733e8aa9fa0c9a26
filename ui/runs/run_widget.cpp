// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/run_widget.hpp"

#include <QGridLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>

#include "runs/run_job.hpp"

namespace egtmin::ui {

namespace {
QString formatElapsed(qint64 ms) {
  const qint64 s = ms / 1000;
  if (s < 60) return QStringLiteral("%1.%2 s").arg(s).arg((ms % 1000) / 100);
  return QStringLiteral("%1:%2:%3")
      .arg(s / 3600)
      .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
      .arg(s % 60, 2, 10, QLatin1Char('0'));
}
}  // namespace

RunWidget::RunWidget(RunJob* job, QWidget* parent) : QFrame(parent), job_(job) {
  setFrameShape(QFrame::StyledPanel);
  title_ = new QLabel(job->title(), this);
  QFont f = title_->font();
  f.setBold(true);
  title_->setFont(f);
  title_->setToolTip(job->spec().balances.join(QStringLiteral(", ")));
  stage_ = new QLabel(this);
  stage_->setObjectName("stage");
  elapsed_ = new QLabel(this);
  elapsed_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  bar_ = new QProgressBar(this);
  bar_->setRange(0, 1000);
  bar_->setTextVisible(true);
  cancel_ = new QPushButton(tr("Cancel"), this);
  log_ = new QPlainTextEdit(this);
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(2000);
  log_->setFixedHeight(80);
  log_->setLineWrapMode(QPlainTextEdit::NoWrap);
  QFont mono(QStringLiteral("DejaVu Sans Mono"));
  mono.setStyleHint(QFont::Monospace);
  mono.setPointSizeF(f.pointSizeF() * 0.9);
  log_->setFont(mono);

  auto* grid = new QGridLayout(this);
  grid->addWidget(title_, 0, 0, 1, 2);
  grid->addWidget(elapsed_, 0, 2);
  grid->addWidget(bar_, 1, 0, 1, 2);
  grid->addWidget(cancel_, 1, 2);
  grid->addWidget(stage_, 2, 0, 1, 3);
  grid->addWidget(log_, 3, 0, 1, 3);
  grid->setColumnStretch(0, 1);

  connect(cancel_, &QPushButton::clicked, job_, &RunJob::cancel);
  connect(job_, &RunJob::progressed, this, &RunWidget::refresh);
  connect(job_, &RunJob::logLine, log_, &QPlainTextEdit::appendPlainText);
  for (const QString& l : job_->log()) log_->appendPlainText(l);
  refresh();
}

void RunWidget::refresh() {
  bar_->setValue(int(job_->fraction() * 1000));
  stage_->setText(job_->stage());
  elapsed_->setText(formatElapsed(job_->elapsedMs()));
  cancel_->setEnabled(job_->active());
  switch (job_->state()) {
    case RunJob::State::Failed: stage_->setStyleSheet("color: #b01010;"); break;
    case RunJob::State::Done: stage_->setStyleSheet("color: #106010;"); break;
    default: stage_->setStyleSheet(""); break;
  }
}

}  // namespace egtmin::ui
