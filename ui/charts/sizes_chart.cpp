// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/sizes_chart.hpp"

#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QMap>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

#include "app_context.hpp"
#include "charts/scatter_charts.hpp"

namespace egtmin::ui {

SizesChart::SizesChart(AppContext* ctx, QWidget* parent) : QWidget(parent), ctx_(ctx) {
  view_ = new QChartView(new QChart, this);
  view_->setRenderHint(QPainter::Antialiasing);
  auto* again = new QPushButton(tr("Refresh"), this);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(view_, 1);
  auto* row = new QHBoxLayout;
  row->addStretch(1);
  addExportButtons(this, row, view_, QStringLiteral("sizes"));
  row->addWidget(again);
  layout->addLayout(row);
  connect(again, &QPushButton::clicked, this, &SizesChart::refresh);
  connect(ctx_, &AppContext::changed, this, &SizesChart::refresh);
  refresh();
}

QChart* SizesChart::chart() const { return view_->chart(); }

bool SizesChart::exportPng(const QString& path) const { return exportChartPng(view_, path); }

bool SizesChart::exportSvg(const QString& path) const { return exportChartSvg(view_, path); }

void SizesChart::refresh() {
  // Only balances that have a cover: their table beside it is the comparison that matters.
  const QDir dataDir(ctx_->dataDir());
  QMap<QString, std::pair<qint64, qint64>> sizes;  // name -> (table bytes, cover bytes)
  for (const QFileInfo& f :
       QDir(dataDir.filePath(QStringLiteral("covers"))).entryInfoList({QStringLiteral("*.egtc")}, QDir::Files)) {
    const QFileInfo table(dataDir.filePath(QStringLiteral("tables/%1.egtt").arg(f.completeBaseName())));
    sizes[f.completeBaseName()] = {table.exists() ? table.size() : 0, f.size()};
  }
  balances_ = int(sizes.size());
  auto* chart = new QChart;
  chart->setAnimationOptions(QChart::NoAnimation);
  if (sizes.isEmpty()) {
    chart->setTitle(tr("No cover files yet: sizes appear after runs with minimization passes"));
    view_->setChart(chart);
    return;
  }
  chart->setTitle(tr("Bytes on disk per balance"));
  auto* tables = new QBarSet(tr("table (.egtt)"));
  auto* covers = new QBarSet(tr("cover (.egtc)"));
  QStringList names;
  qint64 hi = 1;
  for (auto it = sizes.begin(); it != sizes.end(); ++it) {
    names << it.key();
    // Bars start at 1 on the log axis; an absent table shows as nothing.
    *tables << double(std::max<qint64>(1, it->first));
    *covers << double(std::max<qint64>(1, it->second));
    hi = std::max({hi, it->first, it->second});
  }
  auto* series = new QBarSeries;
  series->append(tables);
  series->append(covers);
  addLogBars(chart, series, names, double(hi), tr("bytes"));
  chart->legend()->setAlignment(Qt::AlignRight);
  view_->setChart(chart);
}

}  // namespace egtmin::ui
