// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/iteration_chart.hpp"

#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTextStream>
#include <QVBoxLayout>
#include <algorithm>

#include "charts/scatter_charts.hpp"

namespace egtmin::ui {

namespace {

const bench::AblationRow* findIdea(const std::vector<bench::AblationRow>& rows, const char* idea) {
  auto it = std::find_if(rows.begin(), rows.end(), [&](const bench::AblationRow& r) { return r.idea == idea; });
  return it == rows.end() ? nullptr : &*it;
}

}  // namespace

IterationChart::IterationChart(QWidget* parent) : QWidget(parent) {
  view_ = new QChartView(new QChart, this);
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setMinimumHeight(200);
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* row = new QHBoxLayout;
  row->addWidget(summary_, 1);
  addExportButtons(this, row, view_, QStringLiteral("iteration"),
                   [this](const QString& path, QString* error) { return exportCsv(path, error); });
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(view_, 1);
  layout->addLayout(row);
  setMessage(tr("Run the ablation (Ablation tab) to compare the default covers with iterated passes (espresso)"));
}

QChart* IterationChart::chart() const { return view_->chart(); }

bool IterationChart::exportPng(const QString& path) const { return exportChartPng(view_, path); }

bool IterationChart::exportSvg(const QString& path) const { return exportChartSvg(view_, path); }

void IterationChart::setMessage(const QString& message) {
  message_ = message;
  balances_.clear();
  pairs_.clear();
  summary_->clear();
  showChartMessage(view_, message);
}

void IterationChart::setRows(const std::vector<bench::AblationRow>& rows) {
  const bench::AblationRow* onePass = findIdea(rows, kOnePass);
  const bench::AblationRow* iterated = findIdea(rows, kIterated);
  if (!onePass || !iterated) {
    setMessage(tr("This ablation has no \"%1\" idea: Fig. 1b compares \"%2\" (one pass each) with \"%3\" "
                  "(the passes iterated)")
                   .arg(QString::fromLatin1(!onePass ? kOnePass : kIterated), QString::fromLatin1(kOnePass),
                        QString::fromLatin1(kIterated)));
    return;
  }
  QList<Pair> pairs;
  QStringList empty;
  for (const bench::AblationBalance& a : onePass->balances) {
    auto b = std::find_if(iterated->balances.begin(), iterated->balances.end(),
                          [&](const bench::AblationBalance& x) { return x.balance == a.balance; });
    if (b == iterated->balances.end()) continue;
    const QString name = QString::fromStdString(a.balance.name());
    // A balance of one value keeps it implied and stores no cubes: nothing to draw on a log axis.
    if (a.cubes == 0 && b->cubes == 0) {
      empty << name;
      continue;
    }
    pairs << Pair{name, a.cubes, b->cubes, a.minimize_seconds, b->minimize_seconds};
  }
  if (pairs.isEmpty()) {
    setMessage(empty.isEmpty()
                   ? tr("The two ideas minimized no balance in common")
                   : tr("No balance stores cubes in either idea (%1)").arg(empty.join(QStringLiteral(", "))));
    return;
  }
  message_.clear();
  pairs_ = pairs;
  balances_.clear();
  auto* one = new QBarSet(tr("one pass each (%1)").arg(QString::fromLatin1(kOnePass)));
  auto* iter = new QBarSet(tr("passes iterated (%1)").arg(QString::fromLatin1(kIterated)));
  quint64 hi = 1, oneTotal = 0, iterTotal = 0;
  double oneSeconds = 0, iterSeconds = 0;
  for (const Pair& p : pairs) {
    balances_ << p.balance;
    // Bars rise from 1 on the log axis; a side with no cubes shows as no bar.
    *one << double(std::max<quint64>(1, p.onePassCubes));
    *iter << double(std::max<quint64>(1, p.iteratedCubes));
    hi = std::max({hi, p.onePassCubes, p.iteratedCubes});
    oneTotal += p.onePassCubes;
    iterTotal += p.iteratedCubes;
    oneSeconds += p.onePassSeconds;
    iterSeconds += p.iteratedSeconds;
  }
  auto* chart = new QChart;
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->setTitle(tr("Cover size with and without iterating the passes (cubes per balance, log scale)"));
  auto* series = new QBarSeries;
  series->append(one);
  series->append(iter);
  addLogBars(chart, series, balances_, double(hi), tr("cubes in the cover"));
  chart->legend()->setAlignment(Qt::AlignTop);
  view_->setChart(chart);

  const QLocale locale;
  QString text = tr("Total: %1 cubes in one pass each, %2 iterated (%3 of it), minimized in %4 s and %5 s.")
                     .arg(locale.toString(oneTotal), locale.toString(iterTotal))
                     .arg(oneTotal ? QStringLiteral("%1%").arg(100.0 * double(iterTotal) / double(oneTotal), 0, 'f', 1)
                                   : QStringLiteral("–"))
                     .arg(oneSeconds, 0, 'f', 2)
                     .arg(iterSeconds, 0, 'f', 2);
  if (!empty.isEmpty()) text += QLatin1Char(' ') + tr("No cubes either way: %1.").arg(empty.join(QStringLiteral(", ")));
  summary_->setText(text);
}

bool IterationChart::exportCsv(const QString& path, QString* error) const {
  if (pairs_.isEmpty()) {
    if (error) *error = message_.isEmpty() ? tr("Nothing to export") : message_;
    return false;
  }
  return exportCsvFile(path, error, [&](QTextStream& out) {
    out << "balance,one_pass_cubes,iterated_cubes,one_pass_seconds,iterated_seconds\n";
    for (const Pair& p : pairs_)
      out << p.balance << ',' << p.onePassCubes << ',' << p.iteratedCubes << ',' << p.onePassSeconds << ','
          << p.iteratedSeconds << '\n';
  });
}

}  // namespace egtmin::ui
