// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/scratch_chart.hpp"

#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QVBoxLayout>
#include <QValueAxis>

#include "charts/scatter_charts.hpp"

namespace egtmin::ui {

ScratchChart::ScratchChart(QWidget* parent) : QWidget(parent) {
  view_ = new QChartView(new QChart, this);
  auto* top = new QHBoxLayout;
  top->addStretch(1);
  addExportButtons(this, top, view_, QStringLiteral("scratch"));
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(view_, 1);
  showChartMessage(view_, tr("No values"));
}

QChart* ScratchChart::chart() const { return view_->chart(); }

void ScratchChart::setValues(const QStringList& names, const QList<double>& values) {
  auto* chart = new QChart;
  auto* set = new QBarSet(tr("value"));
  for (double v : values) set->append(v);
  auto* bars = new QBarSeries;
  bars->append(set);
  addBars(chart, bars, names, new QValueAxis);
  view_->setChart(chart);
}

}  // namespace egtmin::ui
