// SPDX-License-Identifier: GPL-3.0-or-later
// File sizes per balance in the data directory: the exact table (.egtt) beside its minimized,
// compressed cover (.egtc), on a log scale, so the compression each run achieved is visible.
#pragma once

#include <QWidget>

class QChartView;
class QChart;

namespace egtmin::ui {

class AppContext;

class SizesChart : public QWidget {
  Q_OBJECT
 public:
  explicit SizesChart(AppContext* ctx, QWidget* parent = nullptr);

  QChart* chart() const;
  int balanceCount() const { return balances_; }
  bool exportPng(const QString& path) const;
  bool exportSvg(const QString& path) const;

 public Q_SLOTS:
  void refresh();

 private:
  AppContext* ctx_;
  QChartView* view_;
  int balances_ = 0;
};

}  // namespace egtmin::ui
