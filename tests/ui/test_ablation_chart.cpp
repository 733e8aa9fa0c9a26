// SPDX-License-Identifier: GPL-3.0-or-later
// The ablation tab's background path on a real, tiny ablation: KRvK and KQvK minimized by the
// "default" and "espresso" ideas into a temporary data directory (tables made on the way), the
// event loop turning meanwhile, the progress bar only rising, the bars drawn from the result and
// Fig. 1b fed from it; without Syzygy the sizes alone with a note, with Syzygy the probe bars too;
// a cancelled run and a failing one leave a message, and a destroyed tab stops its run.
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "app_context.hpp"
#include "charts/ablation_chart.hpp"
#include "charts/charts_panel.hpp"
#include "charts/iteration_chart.hpp"
#include "chess/balance.hpp"
#include "ui_test_support.hpp"

using namespace egtmin;
using namespace egtmin::ui;
using egtmin::ui::test::ms;

namespace {

bench::AblationRequest tinyRequest(const QString& dataDir, const QString& syzygy) {
  bench::AblationRequest r;
  r.balances = {*Balance::parse("KRvK"), *Balance::parse("KQvK")};
  r.data_dir = std::filesystem::path(dataDir.toStdString());
  r.work_dir = r.data_dir / "ablation";
  r.ideas = {"default", "espresso"};
  if (!syzygy.isEmpty()) r.syzygy = std::filesystem::path(syzygy.toStdString());
  r.probe_pieces = 3;
  r.probe_positions = 2000;
  return r;
}

QBarSeries* bars(QChart* chart) {
  for (QAbstractSeries* s : chart->series())
    if (auto* b = qobject_cast<QBarSeries*>(s)) return b;
  return nullptr;
}

}  // namespace

class TestAblationChart : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  // Runs the request through the tab's background path and checks what every run must show.
  void runAndCheck(ChartsPanel& panel, const bench::AblationRequest& req) {
    AblationChart* chart = panel.chartTab<AblationChart>();
    QSignalSpy finished(chart, &AblationChart::finished);
    // The event loop keeps turning, and the bar never goes back.
    int ticks = 0, lastBar = 0;
    bool monotone = true;
    QTimer tick;
    connect(&tick, &QTimer::timeout, [&] {
      ++ticks;
      monotone = monotone && chart->progressBar()->value() >= lastBar;
      lastBar = chart->progressBar()->value();
    });
    tick.start(5);
    chart->run(req);
    QVERIFY(chart->busy());
    QVERIFY(chart->cancelButton()->isEnabled());
    QVERIFY(!chart->runButton()->isEnabled());
    QVERIFY(!chart->piecesBox()->isEnabled());
    QVERIFY(chart->wait(ms(60000)));
    tick.stop();
    QCOMPARE(finished.count(), 1);
    QVERIFY2(chart->hasResult(), qPrintable(chart->message()));
    QVERIFY(ticks > 0);
    QVERIFY(monotone);
    QCOMPARE(chart->progressBar()->value(), chart->progressBar()->maximum());
    QVERIFY(chart->runButton()->isEnabled());
    QVERIFY(!chart->cancelButton()->isEnabled());

    const std::vector<bench::AblationRow>& rows = chart->rows();
    QCOMPARE(rows.size(), size_t(2));
    QCOMPARE(rows[0].idea, std::string("default"));
    QCOMPARE(rows[1].idea, std::string("espresso"));
    for (const bench::AblationRow& r : rows) {
      QCOMPARE(r.balances.size(), size_t(2));
      QVERIFY(r.bytes > 0 && r.cubes > 0);
      // Each idea's covers in its own directory.
      for (const char* name : {"KRvK", "KQvK"})
        QVERIFY(std::filesystem::exists(req.work_dir / r.idea / "covers" / (std::string(name) + ".egtc")));
    }
    // The bars: every idea's bytes against the default's.
    QBarSeries* b = bars(chart->chart());
    QVERIFY2(b, qPrintable(chart->chart()->title()));
    QBarSet* bytes = b->barSets().value(0);
    QVERIFY(bytes);
    QCOMPARE(bytes->count(), 2);
    QCOMPARE(bytes->at(0), 1.0);
    QCOMPARE(bytes->at(1), double(rows[1].bytes) / double(rows[0].bytes));
    auto* x = qobject_cast<QBarCategoryAxis*>(chart->chart()->axes(Qt::Horizontal).value(0));
    QVERIFY(x);
    QCOMPARE(x->categories(), (QStringList{"default", "espresso"}));
    // Fig. 1b from the same rows: both balances, the cubes of each idea.
    IterationChart* iteration = panel.chartTab<IterationChart>();
    QVERIFY2(iteration->message().isEmpty(), qPrintable(iteration->message()));
    QCOMPARE(iteration->balances().size(), 2);
    QVERIFY(iteration->balances().contains("KRvK") && iteration->balances().contains("KQvK"));
    QBarSeries* pairs = bars(iteration->chart());
    QVERIFY(pairs);
    QCOMPARE(pairs->count(), 2);
    double onePass = 0, iterated = 0;
    for (int i = 0; i < 2; ++i) {
      onePass += pairs->barSets()[0]->at(i);
      iterated += pairs->barSets()[1]->at(i);
    }
    QCOMPARE(onePass, double(rows[0].cubes));
    QCOMPARE(iterated, double(rows[1].cubes));
  }

 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void sizesOnlyWithoutSyzygy() {
    const QString data = dir_.filePath("data");
    AppContext ctx(data, QString());
    ChartsPanel panel(&ctx);
    panel.resize(1000, 700);
    panel.showTab(QStringLiteral("ablation"));
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QElapsedTimer t;
    t.start();
    runAndCheck(panel, tinyRequest(data, QString()));
    qInfo("ablation without Syzygy: %lld ms", qint64(t.elapsed()));
    AblationChart* chart = panel.chartTab<AblationChart>();
    QCOMPARE(bars(chart->chart())->count(), 1);  // no probe bars
    QVERIFY2(chart->summaryLabel()->text().contains(QStringLiteral("No Syzygy")),
             qPrintable(chart->summaryLabel()->text()));
    for (const bench::AblationRow& r : chart->rows()) QCOMPARE(r.probe_ns, 0.0);
  }

  void probeBarsWithSyzygy() {
    const QString syz = test::syzygyDir();
    if (syz.isEmpty()) QSKIP(test::syzygyMissing());
    const QString data = dir_.filePath("data");  // the tables from the test before
    AppContext ctx(data, syz);
    ChartsPanel panel(&ctx);
    panel.resize(1000, 700);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY(panel.chartTab<AblationChart>()->request().syzygy.has_value());
    QElapsedTimer t;
    t.start();
    runAndCheck(panel, tinyRequest(data, syz));
    qInfo("ablation with Syzygy: %lld ms", qint64(t.elapsed()));
    AblationChart* chart = panel.chartTab<AblationChart>();
    QBarSeries* b = bars(chart->chart());
    QCOMPARE(b->count(), 2);
    for (int i = 0; i < 2; ++i) {
      const bench::AblationRow& r = chart->rows()[size_t(i)];
      QVERIFY(r.probe_ns > 0 && r.fathom_ns > 0);
      QCOMPARE(r.probe_mismatches, uint64_t(0));
      QCOMPARE(b->barSets()[1]->at(i), r.probe_ns / r.fathom_ns);
    }
    QString err;
    QVERIFY2(chart->exportCsv(dir_.filePath("ablation.csv"), &err), qPrintable(err));
  }

  void cancelStopsIt() {
    const QString data = dir_.filePath("data-cancel");
    AppContext ctx(data, QString());
    AblationChart chart(&ctx);
    // Every balance up to 3 pieces and a fresh directory: tables to make first, then two ideas.
    bench::AblationRequest req = tinyRequest(data, QString());
    req.balances = Balance::all_up_to(3);
    chart.run(req);
    QVERIFY(chart.busy());
    QTRY_VERIFY_WITH_TIMEOUT(!chart.stageLabel()->text().startsWith(QStringLiteral("starting")) || !chart.busy(),
                             ms(20000));
    QVERIFY2(chart.busy(), "the ablation finished before it could be cancelled");
    QElapsedTimer t;
    t.start();
    QTest::mouseClick(chart.cancelButton(), Qt::LeftButton);
    QVERIFY(chart.wait(ms(30000)));
    qInfo("cancelled after %lld ms", qint64(t.elapsed()));
    QVERIFY(t.elapsed() < ms(20000));
    QVERIFY(!chart.hasResult());
    QVERIFY2(chart.message().contains(QStringLiteral("cancelled")), qPrintable(chart.message()));
    QVERIFY(chart.chart()->series().isEmpty());
    QCOMPARE(chart.stageLabel()->text(), QString("cancelled"));
    QVERIFY(chart.runButton()->isEnabled());
    QVERIFY(chart.piecesBox()->isEnabled());
  }

  void failureIsSaid() {
    // A Syzygy directory that does not exist: run_ablation refuses it, and the tab says why.
    const QString data = dir_.filePath("data");
    AppContext ctx(data, QString());
    AblationChart chart(&ctx);
    chart.run(tinyRequest(data, dir_.filePath("no-such-syzygy")));
    QVERIFY(chart.wait(ms(30000)));
    QVERIFY(!chart.hasResult());
    QVERIFY2(chart.message().contains(QStringLiteral("Ablation failed")) &&
                 chart.message().contains(QStringLiteral("no-such-syzygy")),
             qPrintable(chart.message()));
    QCOMPARE(chart.stageLabel()->text(), QString("failed"));
    QVERIFY(chart.runButton()->isEnabled());
  }

  void closingWhileRunningCancels() {
    const QString data = dir_.filePath("data-close");
    AppContext ctx(data, QString());
    QElapsedTimer t;
    {
      AblationChart chart(&ctx);
      bench::AblationRequest req = tinyRequest(data, QString());
      req.balances = Balance::all_up_to(3);
      chart.run(req);
      QVERIFY(chart.busy());
      QTest::qWait(200);
      t.start();
    }  // the destructor cancels and waits
    QVERIFY(t.elapsed() < ms(20000));
  }
};

QTEST_MAIN(TestAblationChart)
#include "test_ablation_chart.moc"
