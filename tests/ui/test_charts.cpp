// SPDX-License-Identifier: GPL-3.0-or-later
// The charts area fed with known numbers: the passes chart's short legend with the runs named once
// in its title, minimization time vs cover size (one point per run and
// balance, a balance's runs joined), our cover vs Syzygy WDL file sizes (scatter plus the y = x
// diagonal, the size report off the GUI thread, a plain message without Syzygy), the joint density
// of two probe methods' times, Fig. 1b and the ablation chart from given ablation rows, the tabs
// made from the chart list, and SVG export beside PNG.
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "app_context.hpp"
#include "charts/ablation_chart.hpp"
#include "charts/chart_list.hpp"
#include "charts/charts_panel.hpp"
#include "charts/iteration_chart.hpp"
#include "charts/probe_time_density.hpp"
#include "charts/probe_times_chart.hpp"
#include "charts/scatter_charts.hpp"
#include "charts/sizes_chart.hpp"
#include "ui_test_support.hpp"

using namespace egtmin;
using namespace egtmin::ui;
using egtmin::ui::test::ms;

namespace {

PassPoint pt(const char* balance, const char* pass, int step, quint64 cubes, double seconds) {
  PassPoint p;
  p.balance = QString::fromLatin1(balance);
  p.pass = QString::fromLatin1(pass);
  p.step = step;
  p.cubes = cubes;
  p.literals = cubes * 3;
  p.seconds = seconds;
  p.mib = 10;
  return p;
}

template <class S>
S* seriesNamed(QChart* chart, const QString& name) {
  for (QAbstractSeries* s : chart->series())
    if (s->name() == name) return qobject_cast<S*>(s);
  return nullptr;
}

template <class S>
QList<S*> seriesOf(QChart* chart) {
  QList<S*> out;
  for (QAbstractSeries* s : chart->series())
    if (auto* t = qobject_cast<S*>(s)) out << t;
  return out;
}

QList<qreal> barValues(const QBarSet* set) {
  QList<qreal> v;
  for (int i = 0; i < set->count(); ++i) v << set->at(i);
  return v;
}

bench::AblationBalance ab(const char* balance, uint64_t bytes, uint64_t cubes, double seconds) {
  return {*Balance::parse(balance), bytes, cubes, seconds};
}

bench::AblationRow row(const char* idea, std::vector<bench::AblationBalance> balances, double probeNs = 0,
                       double fathomNs = 0) {
  bench::AblationRow r;
  r.idea = idea;
  r.description = std::string("about ") + idea;
  r.balances = std::move(balances);
  for (const bench::AblationBalance& b : r.balances) {
    r.bytes += b.bytes;
    r.cubes += b.cubes;
    r.minimize_seconds += b.minimize_seconds;
  }
  r.probe_ns = probeNs;
  r.fathom_ns = fathomNs;
  r.probe_positions = probeNs > 0 ? 1000 : 0;
  return r;
}

// default and espresso over KvK (no cubes either way), KRvK and KQvK, and one more idea.
std::vector<bench::AblationRow> knownRows() {
  return {row("default", {ab("KvK", 100, 0, 0.01), ab("KRvK", 1000, 40, 0.5), ab("KQvK", 900, 30, 0.25)}, 50, 100),
          row("espresso", {ab("KvK", 100, 0, 0.01), ab("KRvK", 800, 35, 2.0), ab("KQvK", 700, 20, 1.0)}, 40, 100),
          row("split-stm", {ab("KvK", 100, 0, 0.01), ab("KRvK", 1500, 60, 0.5), ab("KQvK", 900, 30, 0.25)})};
}

bool isSvg(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return false;
  const QByteArray bytes = f.readAll();
  return !bytes.isEmpty() && bytes.contains("<svg");
}

}  // namespace

class TestCharts : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

 private Q_SLOTS:
  // One line per balance and run, named by its balance (and its run's number beside other runs);
  // each run's title, its balance list and passes, is said once, in the chart's title.
  void passLegendsNameTheBalanceAndTheTitleTheRuns() {
    ChartsPanel panel;
    auto names = [&] {
      QStringList out;
      for (QAbstractSeries* s : panel.chart()->series()) out << s->name();
      return out;
    };
    const QString runA = QStringLiteral("KQvK, KRvK: canon,compact,expand,irredundant");
    const QString runB = QStringLiteral("KRvK: canon,compact,espresso");
    const QList<PassPoint> pointsA = {pt("KQvK", "start", 0, 100, 0.5), pt("KQvK", "expand", 1, 40, 1.5),
                                      pt("KRvK", "start", 0, 50, 0.25), pt("KRvK", "expand", 1, 10, 0.75)};
    panel.addPoints(runA, pointsA);
    QCOMPARE(names(), (QStringList{"KQvK", "KRvK"}));
    QCOMPARE(panel.chart()->title().count(runA), 1);
    panel.addPoints(runB, {pt("KRvK", "start", 0, 50, 0.25), pt("KRvK", "espresso", 1, 8, 2.0)});
    QCOMPARE(names(), (QStringList{"KQvK, run 1", "KRvK, run 1", "KRvK, run 2"}));
    const QString title = panel.chart()->title();
    QCOMPARE(title.count(runA), 1);
    QCOMPARE(title.count(runB), 1);
    QVERIFY2(title.contains("run 1: " + runA) && title.contains("run 2: " + runB), qPrintable(title));
    for (int m = 0; m < 4; ++m) {  // every metric: the same names, the runs still in the title
      panel.setMetric(m);
      QCOMPARE(names().size(), 3);
      QVERIFY(panel.chart()->title().contains("run 2: " + runB));
    }
    // The numbers start again after Clear.
    panel.clear();
    panel.addPoints(runB, {pt("KRvK", "start", 0, 50, 0.25), pt("KRvK", "espresso", 1, 8, 2.0)});
    QCOMPARE(names(), QStringList{"KRvK"});
    QVERIFY(!panel.chart()->title().contains("run 1"));
    QVERIFY(panel.exportPng(dir_.filePath("passes.png")));
  }

  void timeVsCubesOnePointPerBalance() {
    ChartsPanel panel;
    panel.addPoints(QStringLiteral("run A"), {pt("KRvK", "start", 0, 100, 0.5), pt("KRvK", "expand", 1, 40, 1.5),
                                              pt("KQvK", "start", 0, 50, 0.25), pt("KQvK", "expand", 1, 10, 0.75)});
    QCOMPARE(panel.seriesCount(), 2);  // passes: one line per balance
    TimeChart* time = panel.chartTab<TimeChart>();
    QVERIFY(time);
    QCOMPARE(time->pointCount(), 2);
    auto* s = qobject_cast<QScatterSeries*>(time->chart()->series().value(0));
    QVERIFY(s);
    const QList<QPointF> pts = s->points();
    QCOMPARE(pts.size(), 2);
    QCOMPARE(pts[0], QPointF(40, 2.0));  // final cubes, summed seconds
    QCOMPARE(pts[1], QPointF(10, 1.0));
    panel.addPoints(QStringLiteral("run B"), {pt("KRvK", "start", 0, 30, 3.0)});
    QCOMPARE(time->pointCount(), 3);
    // KRvK now has two runs: one dashed line joins its points, by cubes; KQvK stays a lone point.
    QCOMPARE(time->joinedBalances(), QStringList{QStringLiteral("KRvK")});
    auto* all = qobject_cast<QScatterSeries*>(time->chart()->series().value(0));
    QVERIFY(all);
    QCOMPARE(all->count(), 3);
    auto* joined = seriesNamed<QLineSeries>(time->chart(), QStringLiteral("KRvK"));
    QVERIFY(joined);
    QCOMPARE(joined->points(), (QList<QPointF>{{30, 3.0}, {40, 2.0}}));
    QVERIFY(!seriesNamed<QLineSeries>(time->chart(), QStringLiteral("KQvK")));
    QCOMPARE(seriesOf<QLineSeries>(time->chart()).size(), 1);
    panel.clear();
    QCOMPARE(time->pointCount(), 0);
    QVERIFY(time->chart()->series().isEmpty());
  }

  void coverVsSyzygyFromKnownSizes() {
    QVERIFY(dir_.isValid());
    AppContext ctx(dir_.filePath("data"), QString());
    SyzygySizeChart chart(&ctx);
    // No Syzygy directory: the chart says so instead of plotting.
    QVERIFY2(chart.message().contains(QStringLiteral("Syzygy")), qPrintable(chart.message()));
    QVERIFY(chart.chart()->series().isEmpty());
    chart.setPoints({{QStringLiteral("KRvK"), 1000, 5000, 2000}, {QStringLiteral("KQvK"), 800, 4000, 1500}});
    QVERIFY(chart.message().isEmpty());
    auto* shipped = seriesNamed<QScatterSeries>(chart.chart(), QStringLiteral("Syzygy .rtbw"));
    auto* xz = seriesNamed<QScatterSeries>(chart.chart(), QStringLiteral("Syzygy .rtbw, xz -9e"));
    auto* diagonal = seriesNamed<QLineSeries>(chart.chart(), QStringLiteral("y = x"));
    QVERIFY(shipped && xz && diagonal);
    QCOMPARE(shipped->points(), (QList<QPointF>{{5000, 1000}, {4000, 800}}));
    QCOMPARE(xz->points(), (QList<QPointF>{{2000, 1000}, {1500, 800}}));
    QCOMPARE(diagonal->count(), 2);
    for (const QPointF& p : diagonal->points()) QCOMPARE(p.x(), p.y());
    QVERIFY(diagonal->at(0).x() <= 800 && diagonal->at(1).x() >= 5000);
  }

  void sizeReportRunsOffTheGuiThread() {
    // An existing (empty) Syzygy directory and no covers: the report runs and finds no pairs.
    QVERIFY(dir_.isValid());
    QDir().mkpath(dir_.filePath("data2"));
    QDir().mkpath(dir_.filePath("syzygy-empty"));
    AppContext ctx(dir_.filePath("data2"), dir_.filePath("syzygy-empty"));
    SyzygySizeChart chart(&ctx);
    QTRY_VERIFY_WITH_TIMEOUT(!chart.busy(), ms(30000));
    QTRY_VERIFY_WITH_TIMEOUT(chart.message().contains(QStringLiteral("No balance")), ms(5000));
  }

  void jointDensityBins() {
    // Pairs (x, y) on edges 10^k, 10 cells a decade: 100 and 110 share a cell, 1000 is a decade on.
    const std::vector<uint32_t> x{100, 100, 110, 1000, 50};
    const std::vector<uint32_t> y{1000, 1000, 1050, 100, 50, 7};  // the 7 has no partner
    const ProbeTimeDensity d = binJointProbeTimes(x, y, 10);
    QCOMPARE(d.positions, quint64(5));
    QCOMPARE(d.edges.front(), 10.0);  // the decade below 50
    QCOMPARE(d.edges.size(), 3 * 10 + 1);
    QVERIFY(qFuzzyCompare(d.edges.back(), 10000.0));
    QCOMPARE(d.above, quint64(3));  // y slower
    QCOMPARE(d.below, quint64(1));
    QCOMPARE(d.xMeanNs, (100.0 + 100 + 110 + 1000 + 50) / 5);
    QCOMPARE(d.yMeanNs, (1000.0 + 1000 + 1050 + 100 + 50) / 5);
    // 50 -> cell 6 (10^1.6 = 39.8 .. 10^1.7 = 50.1); 100 and 110 -> 10; 1000 and 1050 -> 20.
    const QList<ProbeTimeDensity::Cell> want{{6, 6, 1}, {10, 20, 3}, {20, 10, 1}};
    QCOMPARE(d.cells, want);
    QCOMPARE(d.maxCount(), quint64(3));
    QVERIFY(binJointProbeTimes({}, {1, 2}).empty());
  }

  void jointDensityDrawn() {
    QVERIFY(dir_.isValid());
    AppContext ctx(dir_.filePath("data-density"), QString());
    ProbeTimesChart chart(&ctx);
    chart.resize(900, 600);
    ProbeTimesResult r;
    r.positions = 5;
    r.pieces = 3;
    r.density = binJointProbeTimes({100, 100, 110, 1000, 50}, {1000, 1000, 1050, 100, 50});
    r.density.xMethod = probe::ProbeMethodId::Indexed;
    r.density.yMethod = probe::ProbeMethodId::Fathom;
    chart.setResult(r);
    QCOMPARE(chart.currentView(), ProbeTimesChart::Histograms);
    chart.setView(ProbeTimesChart::JointDensity);
    QCOMPARE(chart.viewBox()->currentIndex(), int(ProbeTimesChart::JointDensity));
    // One square per non-empty cell, spread over the shades; the diagonal and the mean beside them.
    auto* mean = seriesNamed<QScatterSeries>(chart.chart(), QStringLiteral("mean"));
    auto* diagonal = seriesNamed<QLineSeries>(chart.chart(), QStringLiteral("y = x"));
    QVERIFY(mean && diagonal);
    QCOMPARE(mean->points(), (QList<QPointF>{{r.density.xMeanNs, r.density.yMeanNs}}));
    QList<QPointF> squares;
    int shades = 0;
    for (QScatterSeries* s : seriesOf<QScatterSeries>(chart.chart()))
      if (s != mean) {
        squares += s->points();
        ++shades;
        QCOMPARE(s->markerShape(), QScatterSeries::MarkerShapeRectangle);
      }
    QCOMPARE(squares.size(), 3);
    QCOMPARE(shades, 2);  // counts 1 and 3
    QVERIFY(seriesNamed<QScatterSeries>(chart.chart(), QStringLiteral("1 position per cell")));
    QVERIFY(seriesNamed<QScatterSeries>(chart.chart(), QStringLiteral("3 positions per cell")));
    // The cell of 100..110 ns (x) and 1000..1050 ns (y), at its geometric centre.
    const QPointF centre(std::sqrt(100.0 * std::pow(10.0, 2.1)), std::sqrt(1000.0 * std::pow(10.0, 3.1)));
    QVERIFY(std::any_of(squares.begin(), squares.end(), [&](const QPointF& p) {
      return qFuzzyCompare(p.x(), centre.x()) && qFuzzyCompare(p.y(), centre.y());
    }));
    QVERIFY2(chart.summaryLabel()->text().contains(QStringLiteral("60.0%")), qPrintable(chart.summaryLabel()->text()));
    // The CSV follows the view: the density's cells.
    QString err;
    QVERIFY2(chart.exportCsv(dir_.filePath("density.csv"), &err), qPrintable(err));
    QFile csv(dir_.filePath("density.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly | QIODevice::Text));
    const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
    QCOMPARE(lines.front(), QByteArray("indexed_from_ns,indexed_to_ns,fathom_from_ns,fathom_to_ns,positions"));
    QCOMPARE(lines.size(), 1 + 3);
    // A result without times of both methods says so in the density view, and exports nothing.
    chart.setResult(ProbeTimesResult{});
    QVERIFY(chart.chart()->series().isEmpty());
    QVERIFY(chart.chart()->title().contains(QStringLiteral("No joint density")));
    QVERIFY(!chart.exportCsv(dir_.filePath("none.csv"), &err));
    chart.setView(ProbeTimesChart::Histograms);
    QVERIFY(chart.chart()->title().contains(QStringLiteral("histogram")));
  }

  void iterationFromAblationRows() {
    IterationChart chart;
    QVERIFY(!chart.message().isEmpty());  // before any ablation: what to do
    QVERIFY(chart.chart()->series().isEmpty());
    chart.setRows(knownRows());
    QVERIFY2(chart.message().isEmpty(), qPrintable(chart.message()));
    // KvK stores no cubes either way: left out, and said so.
    QCOMPARE(chart.balances(), (QStringList{QStringLiteral("KRvK"), QStringLiteral("KQvK")}));
    auto bars = seriesOf<QBarSeries>(chart.chart());
    QCOMPARE(bars.size(), 1);
    QCOMPARE(bars[0]->count(), 2);
    QCOMPARE(barValues(bars[0]->barSets()[0]), (QList<qreal>{40, 30}));  // default
    QCOMPARE(barValues(bars[0]->barSets()[1]), (QList<qreal>{35, 20}));  // espresso
    QVERIFY(bars[0]->barSets()[1]->label().contains(QStringLiteral("espresso")));
    auto* x = qobject_cast<QBarCategoryAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
    QVERIFY(x);
    QCOMPARE(x->categories(), chart.balances());
    // Bars from 1 on a log scale up to the power of ten above the largest (40 cubes).
    auto* y = qobject_cast<QLogValueAxis*>(chart.chart()->axes(Qt::Vertical).value(0));
    QVERIFY(y);
    QCOMPARE(y->min(), 1.0);
    QCOMPARE(y->max(), 100.0);
    QVERIFY2(chart.summaryLabel()->text().contains(QStringLiteral("KvK")), qPrintable(chart.summaryLabel()->text()));
    QString err;
    QVERIFY2(chart.exportCsv(dir_.filePath("iteration.csv"), &err), qPrintable(err));
    QFile csv(dir_.filePath("iteration.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly | QIODevice::Text));
    QCOMPARE(csv.readAll(), QByteArray("balance,one_pass_cubes,iterated_cubes,one_pass_seconds,iterated_seconds\n"
                                       "KRvK,40,35,0.5,2\nKQvK,30,20,0.25,1\n"));
    // Without the iterated idea, or with nothing at all: a message, no bars, no crash.
    std::vector<bench::AblationRow> noEspresso = knownRows();
    noEspresso.erase(noEspresso.begin() + 1);
    chart.setRows(noEspresso);
    QVERIFY2(chart.message().contains(QStringLiteral("espresso")), qPrintable(chart.message()));
    QVERIFY(chart.chart()->series().isEmpty());
    QVERIFY(!chart.exportCsv(dir_.filePath("none.csv"), &err));
    chart.setRows({});
    QVERIFY(!chart.message().isEmpty());
    QVERIFY(chart.chart()->series().isEmpty());
  }

  void ablationFromRows() {
    QVERIFY(dir_.isValid());
    AppContext ctx(dir_.filePath("data-ablation"), QString());
    ChartsPanel panel(&ctx);
    AblationChart* chart = panel.chartTab<AblationChart>();
    QVERIFY(chart && panel.chartTab<IterationChart>());
    QVERIFY(!chart->hasResult());
    QVERIFY(!chart->message().isEmpty());
    QVERIFY(chart->runButton()->isEnabled());  // Syzygy is optional: sizes only without it
    const bench::AblationRequest req = chart->request();
    QVERIFY(!req.syzygy);
    QCOMPARE(req.probe_pieces, 3);
    QVERIFY(req.work_dir == std::filesystem::path(dir_.filePath("data-ablation").toStdString()) / "ablation");
    QCOMPARE(req.balances.size(), Balance::all_up_to(3).size());

    QSignalSpy changed(chart, &AblationChart::resultChanged);
    chart->setRows(knownRows());
    QCOMPARE(changed.count(), 1);
    QVERIFY2(chart->message().isEmpty(), qPrintable(chart->message()));
    auto bars = seriesOf<QBarSeries>(chart->chart());
    QCOMPARE(bars.size(), 1);
    QCOMPARE(bars[0]->count(), 2);
    // Bytes relative to the default's 2000; the probe against Fathom where timed (0: not timed).
    QCOMPARE(barValues(bars[0]->barSets()[0]), (QList<qreal>{1.0, 0.8, 1.25}));
    QCOMPARE(barValues(bars[0]->barSets()[1]), (QList<qreal>{0.5, 0.4, 0.0}));
    auto* x = qobject_cast<QBarCategoryAxis*>(chart->chart()->axes(Qt::Horizontal).value(0));
    QVERIFY(x);
    QCOMPARE(x->categories(), (QStringList{"default", "espresso", "split-stm"}));
    auto lines = seriesOf<QLineSeries>(chart->chart());
    QCOMPARE(lines.size(), 1);
    for (const QPointF& p : lines[0]->points()) QCOMPARE(p.y(), 1.0);
    QVERIFY(chart->summaryLabel()->text().contains(QStringLiteral("split-stm")));
    // The same rows drew Fig. 1b.
    QCOMPARE(panel.chartTab<IterationChart>()->balances(),
             (QStringList{QStringLiteral("KRvK"), QStringLiteral("KQvK")}));

    QString err;
    QVERIFY2(chart->exportCsv(dir_.filePath("ablation.csv"), &err), qPrintable(err));
    QFile csv(dir_.filePath("ablation.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly | QIODevice::Text));
    const QList<QByteArray> lines2 = csv.readAll().trimmed().split('\n');
    QCOMPARE(lines2.front(), QByteArray("idea,balance,bytes,cubes,minimize_seconds,bytes_vs_default,indexed_batch_ns,"
                                        "fathom_batch_ns,probe_positions,probe_mismatches"));
    QCOMPARE(lines2.size(), 1 + 3 * (3 + 1));
    QVERIFY(lines2.contains("espresso,KRvK,800,35,2,0.8,,,,"));
    QVERIFY(lines2.contains("espresso,all,1600,55,3.01,0.8,40,100,1000,0"));
    QVERIFY(lines2.contains("split-stm,all,2500,90,0.76,1.25,,,,"));

    // Without any timed probe the probe bars go; without the default nothing is compared; an
    // empty result says so. None of it crashes, and the chart says why.
    std::vector<bench::AblationRow> untimed = knownRows();
    for (bench::AblationRow& r : untimed) r.probe_ns = r.fathom_ns = 0;
    chart->setRows(untimed);
    bars = seriesOf<QBarSeries>(chart->chart());
    QCOMPARE(bars.size(), 1);
    QCOMPARE(bars[0]->count(), 1);
    std::vector<bench::AblationRow> noDefault = knownRows();
    noDefault.erase(noDefault.begin());
    chart->setRows(noDefault);
    QVERIFY2(chart->message().contains(QStringLiteral("default")), qPrintable(chart->message()));
    QVERIFY(chart->chart()->series().isEmpty());
    QVERIFY(!panel.chartTab<IterationChart>()->message().isEmpty());
    chart->setRows({});
    QVERIFY(!chart->hasResult());
    QVERIFY(chart->message().contains(QStringLiteral("no ideas")));
    QVERIFY(!chart->exportCsv(dir_.filePath("none.csv"), &err));

    // The tabs are reachable by name.
    panel.showTab(QStringLiteral("ablation"));
    auto* tabs = panel.findChild<QTabWidget*>();
    QVERIFY(tabs);
    QCOMPARE(tabs->currentWidget(), chart);
    panel.showTab(QStringLiteral("iteration"));
    QCOMPARE(tabs->currentWidget(), panel.chartTab<IterationChart>());
  }

  // The tabs are the passes and then the chart list's rows, in its order, each with its title and
  // reachable by its name; without a context only the time chart exists, hidden, fed the runs.
  void tabsFollowTheChartList() {
    QVERIFY(dir_.isValid());
    AppContext ctx(dir_.filePath("data-tabs"), QString());
    ChartsPanel panel(&ctx);
    auto* tabs = panel.findChild<QTabWidget*>();
    QVERIFY(tabs);
    const std::span<const ChartTab> list = chartTabs();
    QCOMPARE(tabs->count(), 1 + int(list.size()));
    QCOMPARE(tabs->widget(0)->objectName(), QStringLiteral("passes"));
    QCOMPARE(tabs->tabText(0), QStringLiteral("Passes"));
    QStringList names{QStringLiteral("passes")};
    for (int i = 1; i < tabs->count(); ++i) {
      const ChartTab& row = list[size_t(i - 1)];
      QCOMPARE(tabs->widget(i)->objectName(), QString::fromLatin1(row.name));
      QCOMPARE(tabs->tabText(i), QString::fromLatin1(row.title));
      QVERIFY2(!names.contains(QString::fromLatin1(row.name)), row.name);
      names << QString::fromLatin1(row.name);
    }
    for (int i = tabs->count() - 1; i >= 0; --i) {
      panel.showTab(names[i]);
      QCOMPARE(tabs->currentIndex(), i);
    }
    QCOMPARE(panel.chartTab<SizesChart>(), tabs->widget(int(names.indexOf(QStringLiteral("sizes")))));
    QCOMPARE(panel.chartTab<TimeChart>(), tabs->widget(int(names.indexOf(QStringLiteral("time")))));

    ChartsPanel bare;
    QVERIFY(!bare.findChild<QTabWidget*>());
    QVERIFY(!bare.chartTab<SizesChart>() && !bare.chartTab<AblationChart>());
    TimeChart* time = bare.chartTab<TimeChart>();
    QVERIFY(time && time->isHidden());
    bare.addPoints(QStringLiteral("run A"), {pt("KRvK", "start", 0, 100, 0.5)});
    QCOMPARE(time->pointCount(), 1);
    bare.clear();
    QCOMPARE(time->pointCount(), 0);
  }

  void svgExportBesidePng() {
    QVERIFY(dir_.isValid());
    AppContext ctx(dir_.filePath("data3"), QString());
    ChartsPanel panel(&ctx);
    panel.resize(800, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.addPoints(QStringLiteral("run A"), {pt("KRvK", "start", 0, 100, 0.5), pt("KRvK", "expand", 1, 40, 1.5)});
    const QString passes = dir_.filePath("passes.svg");
    QVERIFY(panel.exportSvg(passes));
    QVERIFY(isSvg(passes));
    QVERIFY(panel.exportPng(dir_.filePath("passes.png")));
    const QString time = dir_.filePath("time.svg");
    QVERIFY(panel.chartTab<TimeChart>()->exportSvg(time));
    QVERIFY(isSvg(time));
    QVERIFY(panel.chartTab<SyzygySizeChart>());
    panel.chartTab<SyzygySizeChart>()->setPoints({{QStringLiteral("KRvK"), 1000, 5000, 2000}});
    const QString syz = dir_.filePath("syzygy.svg");
    QVERIFY(panel.chartTab<SyzygySizeChart>()->exportSvg(syz));
    QVERIFY(isSvg(syz));
    const QString sizes = dir_.filePath("sizes.svg");
    QVERIFY(panel.chartTab<SizesChart>()->exportSvg(sizes));
    QVERIFY(isSvg(sizes));
    panel.chartTab<AblationChart>()->setRows(knownRows());
    const QString ablation = dir_.filePath("ablation.svg");
    QVERIFY(panel.chartTab<AblationChart>()->exportSvg(ablation));
    QVERIFY(isSvg(ablation));
    const QString iteration = dir_.filePath("iteration.svg");
    QVERIFY(panel.chartTab<IterationChart>()->exportSvg(iteration));
    QVERIFY(isSvg(iteration));
  }
};

QTEST_MAIN(TestCharts)
#include "test_charts.moc"
