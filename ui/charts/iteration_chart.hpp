// SPDX-License-Identifier: GPL-3.0-or-later
// Cover size with and without iterating the passes, per balance, after the paper's Fig. 1b: the
// size ablation's "default" covers (canon, compact, one expand and one irredundant pass) beside its
// "espresso" covers (reduce, expand, irredundant repeated while they improve), as paired bars of
// cubes on a log axis. Fed with the rows of an ablation run (the Ablation tab's, or a test's).
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>
#include <vector>

#include "bench/ablation.hpp"

class QChart;
class QChartView;
class QLabel;

namespace egtmin::ui {

class IterationChart : public QWidget {
  Q_OBJECT
 public:
  // The ablation ideas compared: one pass of each, and the passes iterated.
  static constexpr const char* kOnePass = "default";
  static constexpr const char* kIterated = "espresso";

  explicit IterationChart(QWidget* parent = nullptr);

  QChart* chart() const;
  QChartView* view() const { return view_; }
  QLabel* summaryLabel() const { return summary_; }
  // Plots the balances both ideas minimized; says why when the rows lack one of them.
  void setRows(const std::vector<bench::AblationRow>& rows);
  // Why nothing is plotted, else empty.
  QString message() const { return message_; }
  // The plotted balances, in the ablation's order (balances with no cubes either way are left out).
  QStringList balances() const { return balances_; }

  bool exportPng(const QString& path) const;
  bool exportSvg(const QString& path) const;
  // balance,one_pass_cubes,iterated_cubes,one_pass_seconds,iterated_seconds
  bool exportCsv(const QString& path, QString* error = nullptr) const;

 private:
  void setMessage(const QString& message);

  struct Pair {
    QString balance;
    quint64 onePassCubes = 0, iteratedCubes = 0;
    double onePassSeconds = 0, iteratedSeconds = 0;
  };
  QChartView* view_;
  QLabel* summary_;
  QString message_;
  QStringList balances_;
  QList<Pair> pairs_;
};

}  // namespace egtmin::ui
