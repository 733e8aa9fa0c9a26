// SPDX-License-Identifier: GPL-3.0-or-later
// The charts area fed with known numbers: minimization time vs cover size (one point per run and
// balance), our cover vs Syzygy WDL file sizes (scatter plus the y = x diagonal, the size report
// off the GUI thread, a plain message without Syzygy), and SVG export beside PNG.
#include <QChart>
#include <QFile>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QTest>

#include "app_context.hpp"
#include "charts/charts_panel.hpp"
#include "charts/scatter_charts.hpp"
#include "charts/sizes_chart.hpp"

using namespace egtmin;
using namespace egtmin::ui;

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
  void timeVsCubesOnePointPerBalance() {
    ChartsPanel panel;
    panel.addPoints(QStringLiteral("run A"), {pt("KRvK", "start", 0, 100, 0.5), pt("KRvK", "expand", 1, 40, 1.5),
                                              pt("KQvK", "start", 0, 50, 0.25), pt("KQvK", "expand", 1, 10, 0.75)});
    QCOMPARE(panel.seriesCount(), 2);  // passes: one line per balance
    TimeChart* time = panel.timeChart();
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
    QTRY_VERIFY_WITH_TIMEOUT(!chart.busy(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(chart.message().contains(QStringLiteral("No balance")), 5000);
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
    QVERIFY(panel.timeChart()->exportSvg(time));
    QVERIFY(isSvg(time));
    QVERIFY(panel.syzygyChart());
    panel.syzygyChart()->setPoints({{QStringLiteral("KRvK"), 1000, 5000, 2000}});
    const QString syz = dir_.filePath("syzygy.svg");
    QVERIFY(panel.syzygyChart()->exportSvg(syz));
    QVERIFY(isSvg(syz));
    const QString sizes = dir_.filePath("sizes.svg");
    QVERIFY(panel.sizesChart()->exportSvg(sizes));
    QVERIFY(isSvg(sizes));
  }
};

QTEST_MAIN(TestCharts)
#include "test_charts.moc"
