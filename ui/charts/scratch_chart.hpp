// SPDX-License-Identifier: GPL-3.0-or-later
// Scratch chart proving the chart recipe: bars of given values.
#pragma once

#include <QList>
#include <QStringList>
#include <QWidget>

class QChart;
class QChartView;

namespace egtmin::ui {

class ScratchChart : public QWidget {
  Q_OBJECT
 public:
  explicit ScratchChart(QWidget* parent = nullptr);
  QChart* chart() const;
  void setValues(const QStringList& names, const QList<double>& values);

 private:
  QChartView* view_;
};

}  // namespace egtmin::ui
