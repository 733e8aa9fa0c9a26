// SPDX-License-Identifier: GPL-3.0-or-later
// The probe-time chart (the paper's Fig. 2b): core's probe benchmark launched from the charts
// area in the background on real covers and Syzygy files, the histograms it plots (one series per
// method, counts summing to the positions probed), the joint density of indexed and Fathom times
// from the same run, mean/median and mismatches shown, plain messages without Syzygy or covers,
// cancellation, and PNG/SVG/CSV export.
#include <QChart>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineSeries>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <algorithm>

#include "app_context.hpp"
#include "charts/charts_panel.hpp"
#include "charts/probe_times_chart.hpp"
#include "chess/balance.hpp"
#include "runs/run_job.hpp"
#include "ui_test_support.hpp"

using namespace egtmin;
using namespace egtmin::ui;
using egtmin::ui::test::ms;

namespace {

// Tables and paper-default covers of every balance with at most 3 pieces, made by a run.
bool makeThreePieceCovers(const QString& dataDir) {
  RunSpec spec;
  for (const Balance& b : Balance::all_up_to(3)) spec.balances << QString::fromStdString(b.name());
  spec.passes = logic::default_passes();
  spec.dataDir = dataDir;
  RunJob job(spec);
  job.start();
  return job.wait(ms(60000)) && job.state() == RunJob::State::Done;
}

double seriesSum(QAbstractSeries* s) {
  auto* line = qobject_cast<QLineSeries*>(s);
  if (!line) return -1;
  double sum = 0;
  for (const QPointF& p : line->points()) sum += p.y();
  return sum;
}

}  // namespace

class TestProbeTimes : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  QString data_;

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    data_ = dir_.filePath("data");
    QVERIFY(makeThreePieceCovers(data_));
  }

  void binningKeepsEveryTime() {
    const std::vector<uint32_t> t{0, 1, 9, 10, 11, 99, 100, 250, 999, 1000, 123456};
    ProbeTimeHistogram h = binProbeTimes(t, 0, 123456, 10);
    QCOMPARE(h.edges.size(), h.counts.size() + 1);
    QCOMPARE(h.edges.front(), 1.0);
    QVERIFY(h.edges.back() > 123456);
    QCOMPARE(h.counts.size(), 6 * 10);  // 10^0 .. 10^6
    quint64 sum = 0;
    for (quint64 c : h.counts) sum += c;
    QCOMPARE(sum, quint64(t.size()));
    // 10 ns starts the second decade's first bin; 11 ns is in the same bin, 9 ns is not.
    QCOMPARE(h.counts[10], quint64(2));
    QCOMPARE(h.counts[9], quint64(1));
    QCOMPARE(h.counts[0], quint64(2));  // 0 and 1 ns
  }

  void bytesAndTimeFromKnownNumbers() {
    ProbeTimesChart chart(nullptr);
    ProbeTimesResult r;
    r.positions = 1000;
    r.pieces = 5;
    auto method = [](probe::ProbeMethodId id, quint64 bytes, double batchMean) {
      ProbeTimeHistogram h;
      h.method = id;
      h.memoryBytes = bytes;
      h.batchMeanNs = batchMean;
      return h;
    };
    r.methods << method(probe::ProbeMethodId::Indexed, 3'000'000, 200)
              << method(probe::ProbeMethodId::Linear, 500'000, 4e5)
              << method(probe::ProbeMethodId::Fathom, 2'000'000, 1000);
    chart.setView(ProbeTimesChart::BytesAndTime);
    chart.setResult(r);
    QList<QPointF> points;
    int edges = 0;
    for (QAbstractSeries* s : chart.chart()->series()) {
      if (auto* sc = qobject_cast<QScatterSeries*>(s))
        points << sc->at(0);
      else if (qobject_cast<QLineSeries*>(s))
        ++edges;  // the goal's two edges at 0.5
    }
    QCOMPARE(points, (QList<QPointF>{{1.5, 0.2}, {0.25, 400}, {1, 1}}));
    QCOMPARE(edges, 2);
    // Without Fathom there is nothing to read against: said, and no CSV.
    r.methods.removeLast();
    chart.setResult(r);
    QVERIFY(chart.chart()->title().contains(QStringLiteral("no Fathom")));
    QString err;
    QVERIFY(!chart.exportCsv(dir_.filePath("none.csv"), &err));
    QVERIFY(err.contains(QStringLiteral("Fathom")));
  }

  void saysSoWithoutSyzygy() {
    AppContext ctx(data_, QString());
    ProbeTimesChart chart(&ctx);
    QVERIFY2(chart.message().contains(QStringLiteral("Syzygy")), qPrintable(chart.message()));
    QVERIFY(!chart.runButton()->isEnabled());
    chart.start();  // refused, nothing runs
    QVERIFY(!chart.busy());
    QVERIFY(chart.chart()->series().isEmpty());
    QCOMPARE(chart.chart()->title(), chart.message());
  }

  void saysSoWithoutCovers() {
    const QString syz = test::syzygyDir();
    if (syz.isEmpty()) QSKIP(test::syzygyMissing());
    QTemporaryDir empty;
    AppContext ctx(empty.path(), syz);
    ProbeTimesChart chart(&ctx);
    QVERIFY2(chart.message().contains(QStringLiteral("No 3-piece cover files")), qPrintable(chart.message()));
    QVERIFY(!chart.runButton()->isEnabled());
    // 4 pieces: the same message for that size; with covers present for 3 the button comes back.
    AppContext withCovers(data_, syz);
    ProbeTimesChart ready(&withCovers);
    ready.piecesBox()->setCurrentIndex(ready.piecesBox()->findData(4));
    QVERIFY2(ready.message().contains(QStringLiteral("No 4-piece cover files")), qPrintable(ready.message()));
    QVERIFY(!ready.runButton()->isEnabled());
    ready.piecesBox()->setCurrentIndex(ready.piecesBox()->findData(3));
    QVERIFY(ready.runButton()->isEnabled());
  }

  void benchmarkRunsInTheBackground() {
    const QString syz = test::syzygyDir();
    if (syz.isEmpty()) QSKIP(test::syzygyMissing());
    AppContext ctx(data_, syz);
    ChartsPanel panel(&ctx);
    ProbeTimesChart* chart = panel.chartTab<ProbeTimesChart>();
    QVERIFY(chart);
    panel.resize(1000, 600);
    panel.showTab(QStringLiteral("probe-times"));
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    chart->piecesBox()->setCurrentIndex(chart->piecesBox()->findData(3));
    constexpr int kPositions = 3000;
    chart->positionsBox()->setValue(kPositions);
    QVERIFY(chart->runButton()->isEnabled());
    QSignalSpy finished(chart, &ProbeTimesChart::finished);
    // The event loop keeps turning while the benchmark runs.
    int ticks = 0;
    QTimer tick;
    connect(&tick, &QTimer::timeout, [&] { ++ticks; });
    tick.start(5);
    QTest::mouseClick(chart->runButton(), Qt::LeftButton);
    QVERIFY(chart->busy());
    QVERIFY(chart->cancelButton()->isEnabled());
    QVERIFY(!chart->runButton()->isEnabled());
    QVERIFY(chart->wait(ms(30000)));
    QCOMPARE(finished.count(), 1);
    QVERIFY2(chart->hasResult(), qPrintable(chart->message()));
    QVERIFY(ticks > 0);
    QCOMPARE(chart->progressBar()->value(), chart->progressBar()->maximum());

    const ProbeTimesResult& r = chart->result();
    QCOMPARE(r.positions, quint64(kPositions));
    QCOMPARE(r.mismatches, quint64(0));
    QCOMPARE(r.pieces, 3);
    QCOMPARE(r.methods.size(), 3);
    QCOMPARE(r.methods[0].method, probe::ProbeMethodId::Indexed);
    QCOMPARE(r.methods[1].method, probe::ProbeMethodId::Linear);
    QCOMPARE(r.methods[2].method, probe::ProbeMethodId::Fathom);
    for (const ProbeTimeHistogram& h : r.methods) {
      quint64 sum = 0;
      for (quint64 c : h.counts) sum += c;
      QCOMPARE(sum, quint64(kPositions));
      QVERIFY(h.medianNs > 0 && h.meanNs > 0);
      QCOMPARE(h.edges, r.methods[0].edges);  // shared bins
    }
    // One series per method, each a histogram of all the positions, named with median and mean.
    const QList<QAbstractSeries*> series = chart->chart()->series();
    QCOMPARE(series.size(), 3);
    for (int i = 0; i < 3; ++i) {
      QCOMPARE(seriesSum(series[i]), double(kPositions));
      QVERIFY2(
          series[i]->name().contains(QStringLiteral("median")) && series[i]->name().contains(QStringLiteral("mean")),
          qPrintable(series[i]->name()));
    }
    QVERIFY(series[0]->name().contains(QStringLiteral("indexed")));
    QVERIFY(series[1]->name().contains(QStringLiteral("linear")));
    QVERIFY(series[2]->name().contains(QStringLiteral("Fathom")));
    QVERIFY2(chart->summaryLabel()->text().contains(QStringLiteral("0 mismatches")),
             qPrintable(chart->summaryLabel()->text()));
    QVERIFY(chart->runButton()->isEnabled());
    QVERIFY(!chart->cancelButton()->isEnabled());

    // The joint density of the same run: every position once, indexed across and Fathom up.
    const ProbeTimeDensity& d = r.density;
    QCOMPARE(d.positions, quint64(kPositions));
    QCOMPARE(d.xMethod, probe::ProbeMethodId::Indexed);
    QCOMPARE(d.yMethod, probe::ProbeMethodId::Fathom);
    quint64 cellSum = 0;
    for (const ProbeTimeDensity::Cell& c : d.cells) cellSum += c.count;
    QCOMPARE(cellSum, quint64(kPositions));
    QVERIFY(d.above + d.below <= quint64(kPositions));
    chart->setView(ProbeTimesChart::JointDensity);
    int squares = 0;
    bool mean = false;
    for (QAbstractSeries* s : chart->chart()->series())
      if (auto* sc = qobject_cast<QScatterSeries*>(s)) {
        if (sc->name() == QStringLiteral("mean"))
          mean = true;
        else
          squares += int(sc->count());
      }
    QVERIFY(mean);
    QCOMPARE(squares, int(d.cells.size()));
    QVERIFY(chart->exportSvg(dir_.filePath("probe-density.svg")));
    // Bytes and time: each method a point over Fathom's, Fathom itself at (1, 1).
    chart->setView(ProbeTimesChart::BytesAndTime);
    QList<QPointF> methodPoints;
    for (QAbstractSeries* s : chart->chart()->series())
      if (auto* sc = qobject_cast<QScatterSeries*>(s)) methodPoints << sc->at(0);
    QCOMPARE(methodPoints.size(), 3);
    QCOMPARE(methodPoints[2], QPointF(1, 1));
    for (int i = 0; i < 2; ++i) {
      QVERIFY(qFuzzyCompare(methodPoints[i].x(), double(r.methods[i].memoryBytes) / double(r.methods[2].memoryBytes)));
      QVERIFY(qFuzzyCompare(methodPoints[i].y(), r.methods[i].batchMeanNs / r.methods[2].batchMeanNs));
    }
    QString bytesErr;
    QVERIFY2(chart->exportCsv(dir_.filePath("probe-bytes.csv"), &bytesErr), qPrintable(bytesErr));
    QFile bytesCsv(dir_.filePath("probe-bytes.csv"));
    QVERIFY(bytesCsv.open(QIODevice::ReadOnly | QIODevice::Text));
    const QList<QByteArray> bytesLines = bytesCsv.readAll().trimmed().split('\n');
    QCOMPARE(bytesLines.size(), 4);
    QVERIFY(bytesLines[3].startsWith("fathom,"));
    QVERIFY(bytesLines[3].contains(",1,"));
    chart->setView(ProbeTimesChart::Histograms);
    QCOMPARE(chart->chart()->series().size(), 3);

    // Exports.
    QVERIFY(chart->exportPng(dir_.filePath("probe-times.png")));
    QVERIFY(chart->exportSvg(dir_.filePath("probe-times.svg")));
    QFile svg(dir_.filePath("probe-times.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));
    QString err;
    QVERIFY2(chart->exportCsv(dir_.filePath("probe-times.csv"), &err), qPrintable(err));
    QFile csv(dir_.filePath("probe-times.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly | QIODevice::Text));
    const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
    QCOMPARE(lines.front(), QByteArray("method,bin_from_ns,bin_to_ns,probes"));
    QCOMPARE(lines.size(), 1 + 3 * r.methods[0].counts.size());
    quint64 csvSum = 0;
    for (int i = 1; i < lines.size(); ++i) csvSum += lines[i].split(',').last().toULongLong();
    QCOMPARE(csvSum, quint64(3 * kPositions));
  }

  void cancelStopsIt() {
    const QString syz = test::syzygyDir();
    if (syz.isEmpty()) QSKIP(test::syzygyMissing());
    AppContext ctx(data_, syz);
    ProbeTimesChart chart(&ctx);
    chart.show();
    chart.piecesBox()->setCurrentIndex(chart.piecesBox()->findData(3));
    chart.positionsBox()->setValue(chart.positionsBox()->maximum());  // 10 million: many seconds
    chart.start();
    QVERIFY(chart.busy());
    // Progress comes through while it runs.
    QTRY_VERIFY_WITH_TIMEOUT(chart.progressBar()->value() > 0, ms(20000));
    QVERIFY(chart.busy());
    QElapsedTimer t;
    t.start();
    QTest::mouseClick(chart.cancelButton(), Qt::LeftButton);
    QVERIFY(chart.wait(ms(20000)));
    qInfo("cancelled after %lld ms", qint64(t.elapsed()));
    QVERIFY(t.elapsed() < ms(10000));
    QVERIFY(!chart.hasResult());
    QVERIFY2(chart.message().contains(QStringLiteral("cancelled")), qPrintable(chart.message()));
    QVERIFY(chart.chart()->series().isEmpty());
    QVERIFY(chart.runButton()->isEnabled());
    QVERIFY(chart.positionsBox()->isEnabled());
    // And it runs again afterwards.
    chart.positionsBox()->setValue(500);
    chart.start();
    QVERIFY(chart.wait(ms(30000)));
    QVERIFY2(chart.hasResult(), qPrintable(chart.message()));
    QCOMPARE(chart.result().positions, quint64(500));
  }

  void cancelAfterSampling() {
    // Past the sampling, in the check against Fathom or the timing passes, cancelling is as prompt.
    const QString syz = test::syzygyDir();
    if (syz.isEmpty()) QSKIP(test::syzygyMissing());
    AppContext ctx(data_, syz);
    ProbeTimesChart chart(&ctx);
    chart.piecesBox()->setCurrentIndex(chart.piecesBox()->findData(3));
    chart.positionsBox()->setValue(1'000'000);
    // The event loop meanwhile: gaps between the ticks of a 10 ms timer (see docs/benchmarks.md, GUI responsiveness).
    QElapsedTimer clock;
    qint64 last = -1, maxGap = 0;
    int ticks = 0;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    connect(&tick, &QTimer::timeout, this, [&] {
      const qint64 now = clock.elapsed();
      if (last >= 0) maxGap = std::max(maxGap, now - last);
      last = now;
      ++ticks;
    });
    clock.start();
    tick.start(10);
    chart.start();
    QTRY_VERIFY_WITH_TIMEOUT(chart.stageLabel()->text().startsWith(QStringLiteral("checking")) ||
                                 chart.stageLabel()->text().startsWith(QStringLiteral("timing")) || !chart.busy(),
                             ms(25000));
    QVERIFY2(chart.busy(), "the benchmark finished before it could be cancelled");
    qInfo("cancelling during: %s; %d ticks of 10 ms in %lld ms, longest gap %lld ms",
          qPrintable(chart.stageLabel()->text()), ticks, qint64(clock.elapsed()), maxGap);
    QVERIFY2(maxGap < 1000, "the event loop stalled while the benchmark ran");
    QElapsedTimer t;
    t.start();
    chart.cancel();
    QVERIFY(chart.wait(ms(20000)));
    QVERIFY(t.elapsed() < ms(5000));
    QVERIFY(!chart.hasResult());
    QCOMPARE(chart.stageLabel()->text(), QString("cancelled"));
  }

  void closingWhileRunningCancels() {
    const QString syz = test::syzygyDir();
    if (syz.isEmpty()) QSKIP(test::syzygyMissing());
    AppContext ctx(data_, syz);
    QElapsedTimer t;
    {
      ProbeTimesChart chart(&ctx);
      chart.piecesBox()->setCurrentIndex(chart.piecesBox()->findData(3));
      chart.positionsBox()->setValue(chart.positionsBox()->maximum());
      chart.start();
      QVERIFY(chart.busy());
      QTest::qWait(200);
      t.start();
    }  // the destructor cancels and waits
    QVERIFY(t.elapsed() < ms(10000));
  }
};

QTEST_MAIN(TestProbeTimes)
#include "test_probe_times.moc"
