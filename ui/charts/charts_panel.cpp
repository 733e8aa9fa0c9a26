// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/charts_panel.hpp"

#include <QBarCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMessageBox>
#include <QPushButton>
#include <QTabWidget>
#include <QTextStream>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>

#include "charts/ablation_chart.hpp"
#include "charts/chart_list.hpp"
#include "charts/iteration_chart.hpp"
#include "charts/scatter_charts.hpp"

namespace egtmin::ui {

namespace {
double value(const PassPoint& p, int metric) {
  switch (metric) {
    case ChartsPanel::Cubes: return double(p.cubes);
    case ChartsPanel::Literals: return double(p.literals);
    case ChartsPanel::Seconds: return p.seconds;
    default: return p.mib;
  }
}
}  // namespace

ChartsPanel::ChartsPanel(AppContext* ctx, QWidget* parent) : QWidget(parent) {
  metric_ = new QComboBox(this);
  metric_->addItems({tr("cubes"), tr("literals"), tr("seconds per pass"), tr("peak memory (MiB)")});
  auto* clearButton = new QPushButton(tr("Clear"), this);
  view_ = new QChartView(new QChart, this);
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setMinimumHeight(200);
  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Show:"), this));
  top->addWidget(metric_);
  top->addStretch(1);
  addExportButtons(this, top, view_, QStringLiteral("passes"),
                   [this](const QString& path, QString* error) { return exportCsv(path, error); });
  top->addWidget(clearButton);
  auto* passes = new QWidget(this);
  auto* passesLayout = new QVBoxLayout(passes);
  passesLayout->setContentsMargins(0, 0, 0, 0);
  passesLayout->addLayout(top);
  passesLayout->addWidget(view_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  if (ctx) {
    auto* tabs = new QTabWidget(this);
    tabs_ = tabs;
    tabs->setDocumentMode(true);
    tabs->addTab(passes, tr("Passes"));
    passes->setObjectName("passes");
    for (const ChartTab& tab : chartTabs()) {
      QWidget* chart = tab.make(ctx, this);
      chart->setObjectName(QString::fromLatin1(tab.name));
      tabs->addTab(chart, tr(tab.title));
      charts_ << chart;
    }
    // Fig. 1b is the ablation's "default" and "espresso" rows: one run feeds both tabs.
    AblationChart* ablation = chartTab<AblationChart>();
    IterationChart* iteration = chartTab<IterationChart>();
    if (ablation && iteration)
      connect(ablation, &AblationChart::resultChanged, iteration,
              [ablation, iteration] { iteration->setRows(ablation->rows()); });
    layout->addWidget(tabs);
  } else {
    layout->addWidget(passes);
    auto* time = new TimeChart(this);  // kept for its data (addPoints feeds it); not shown without tabs
    time->hide();
    charts_ << time;
  }
  connect(metric_, &QComboBox::currentIndexChanged, this, &ChartsPanel::rebuild);
  connect(clearButton, &QPushButton::clicked, this, &ChartsPanel::clear);
  rebuild();
}

void ChartsPanel::showTab(const QString& name) {
  if (!tabs_) return;
  for (int i = 0; i < tabs_->count(); ++i)
    if (tabs_->widget(i)->objectName() == name) tabs_->setCurrentIndex(i);
}

QChart* ChartsPanel::chart() const { return view_->chart(); }

int ChartsPanel::seriesCount() const { return int(view_->chart()->series().size()); }

void ChartsPanel::addRun(const RunJob* job) { addPoints(job->title(), job->points()); }

void ChartsPanel::addPoints(const QString& runTitle, const QList<PassPoint>& points) {
  // Split by balance: one line each.
  QList<Line> add;
  for (const PassPoint& p : points) {
    auto it =
        std::find_if(add.begin(), add.end(), [&](const Line& l) { return l.points.front().balance == p.balance; });
    if (it == add.end())
      add.push_back(Line{runTitle, runs_ + 1, {p}});
    else
      it->points.push_back(p);
  }
  // Time vs cubes plots the same finished runs: the passes feed it.
  if (TimeChart* time = chartTab<TimeChart>()) time->addPoints(runTitle, points);
  if (add.isEmpty()) return;
  ++runs_;
  lines_ += add;
  rebuild();
}

void ChartsPanel::clear() {
  lines_.clear();
  runs_ = 0;
  if (TimeChart* time = chartTab<TimeChart>()) time->clear();
  rebuild();
}

void ChartsPanel::setMetric(int m) { metric_->setCurrentIndex(m); }

void ChartsPanel::rebuild() {
  const int metric = metric_->currentIndex();
  auto* chart = new QChart;
  chart->setAnimationOptions(QChart::NoAnimation);
  if (lines_.isEmpty()) {
    chart->setTitle(tr("Finished runs with minimization passes appear here"));
    view_->setChart(chart);  // the view deletes the previous chart
    return;
  }
  // Each line's legend entry is short: its balance, and its run's number when the chart shows
  // several runs. The runs' titles (their balance lists and passes) are said once, in the title.
  const bool severalRuns = lines_.front().runNumber != lines_.back().runNumber;
  QString title = tr("%1 after each pass").arg(metric_->currentText());
  if (!severalRuns)
    title += tr(": %1").arg(lines_.front().run);
  else
    for (int i = 0; i < lines_.size(); ++i)
      if (i == 0 || lines_[i].runNumber != lines_[i - 1].runNumber)
        title += QStringLiteral("<br>") +
                 tr("run %1: %2").arg(QString::number(lines_[i].runNumber), lines_[i].run.toHtmlEscaped());
  chart->setTitle(title);
  // The x axis names the passes of the longest sequence; shorter ones use its first steps.
  // Pass names label the x axis when every line ran the same sequence; otherwise steps are
  // numbered (each run's sequence is in the title).
  auto sequence = [](const Line& l) {
    QStringList s;
    for (const PassPoint& p : l.points) s << p.pass;
    return s;
  };
  bool same = true;
  int longest = 0;
  for (const Line& l : lines_) {
    same = same && sequence(l) == sequence(lines_.front());
    longest = std::max(longest, int(l.points.size()));
  }
  QStringList categories;
  if (same)
    categories = sequence(lines_.front());
  else
    for (int i = 0; i < longest; ++i) categories << (i == 0 ? tr("start") : tr("pass %1").arg(i));
  auto* x = new QBarCategoryAxis;
  x->append(categories);
  chart->addAxis(x, Qt::AlignBottom);
  const bool log = metric == Cubes || metric == Literals;
  QAbstractAxis* y = nullptr;
  double lo = 1e300, hi = 0;
  for (const Line& l : lines_)
    for (const PassPoint& p : l.points) {
      lo = std::min(lo, value(p, metric));
      hi = std::max(hi, value(p, metric));
    }
  if (log) {
    auto* ly = new QLogValueAxis;
    ly->setBase(10);
    ly->setLabelFormat(QStringLiteral("%g"));
    ly->setRange(std::pow(10.0, std::floor(std::log10(std::max(1.0, lo)))),
                 std::pow(10.0, std::ceil(std::log10(std::max(10.0, hi)))));
    y = ly;
  } else {
    auto* vy = new QValueAxis;
    vy->setRange(0, hi > 0 ? hi * 1.1 : 1);
    vy->setLabelFormat(QStringLiteral("%.3g"));
    y = vy;
  }
  y->setTitleText(metric_->currentText());
  chart->addAxis(y, Qt::AlignLeft);
  for (const Line& l : lines_) {
    auto* s = new QLineSeries;
    s->setName(severalRuns ? tr("%1, run %2").arg(l.points.front().balance, QString::number(l.runNumber))
                           : l.points.front().balance);
    s->setPointsVisible(true);
    for (int i = 0; i < l.points.size(); ++i) {
      const double v = value(l.points[i], metric);
      if (log && v <= 0) continue;
      s->append(i, v);
    }
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
  }
  chart->legend()->setAlignment(Qt::AlignRight);
  view_->setChart(chart);
}

bool ChartsPanel::exportPng(const QString& path) const { return exportChartPng(view_, path); }

bool ChartsPanel::exportSvg(const QString& path) const { return exportChartSvg(view_, path); }

bool ChartsPanel::exportCsv(const QString& path, QString* error) const {
  return exportCsvFile(path, error, [&](QTextStream& out) {
    out << "run,balance,step,pass,cubes,literals,seconds,peak_mib\n";
    for (const Line& l : lines_)
      for (const PassPoint& p : l.points)
        out << '"' << QString(l.run).replace('"', QStringLiteral("\"\"")) << "\"," << p.balance << ',' << p.step << ','
            << p.pass << ',' << p.cubes << ',' << p.literals << ',' << p.seconds << ',' << p.mib << '\n';
  });
}

}  // namespace egtmin::ui
