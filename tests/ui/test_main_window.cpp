// SPDX-License-Identifier: GPL-3.0-or-later
// The assembled window: panels wired together (board -> probe, probe -> runs, covers -> board,
// runs -> charts), closing with runs going asks and cancels, settings dialog round trip.
#include <QCloseEvent>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include "app_context.hpp"
#include "board/board_editor_widget.hpp"
#include "board/board_widget.hpp"
#include "board/piece_palette.hpp"
#include "charts/charts_panel.hpp"
#include "charts/sizes_chart.hpp"
#include "main_window.hpp"
#include "probe/probe_memory.hpp"
#include "probe/probe_panel.hpp"
#include "runs/runs_panel.hpp"
#include "settings/settings_dialog.hpp"
#include "ui_test_support.hpp"

using namespace egtmin;
using namespace egtmin::ui;
using egtmin::ui::test::ms;

class TestMainWindow : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

 private Q_SLOTS:
  void generateFromProbeThenProbeAgain() {
    QVERIFY(dir_.isValid());
    AppContext ctx(dir_.path(), test::syzygyDir());
    MainWindow w(&ctx);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QString err;
    QVERIFY2(w.boardEditor()->editor()->setFen("8/8/8/4k3/8/8/8/4K2R w - - 0 1", &err), qPrintable(err));
    ProbePanel* probe = w.probePanel();
    QVERIFY(probe->waitIdle());
    QVERIFY(!probe->result().ours);  // empty data dir
    QVERIFY(!probe->generateButton()->isHidden());
    probe->generateButton()->click();
    QCOMPARE(w.runsPanel()->jobs().size(), 1);
    RunJob* job = w.runsPanel()->jobs().first();
    QVERIFY(job->wait(ms(60000)));
    QCOMPARE(job->state(), RunJob::State::Done);
    // The finished run makes the probe panel look again.
    QTRY_VERIFY_WITH_TIMEOUT(probe->result().ours.has_value(), ms(10000));
    QVERIFY(probe->waitIdle());
    QCOMPARE(*probe->result().ours, Wdl::Win);
    // Playing a move marks it on the board.
    probe->playRow(0);
    QVERIFY(probe->lastMove().has_value());
  }

  void chartsTakeFinishedRuns() {
    AppContext ctx(dir_.path(), QString());
    MainWindow w(&ctx);
    RunSpec spec;
    spec.balances = {"KQvK"};
    spec.passes = logic::default_passes();
    spec.dataDir = dir_.path();
    RunJob* job = w.runsPanel()->startRun(spec);
    QVERIFY(job->wait(ms(60000)));
    QCOMPARE(job->state(), RunJob::State::Done);
    QCOMPARE(job->points().size(), 5);  // start + 4 passes
    QTRY_COMPARE(w.chartsPanel()->seriesCount(), 1);
    // The finished run wrote a cover: the sizes chart lists its balance.
    QTRY_COMPARE(w.chartsPanel()->chartTab<SizesChart>()->balanceCount(), 1);
    QVERIFY(w.chartsPanel()->chartTab<SizesChart>()->exportPng(dir_.filePath("sizes.png")));
    for (int m = 0; m < 4; ++m) w.chartsPanel()->setMetric(m);
    QVERIFY(w.chartsPanel()->exportPng(dir_.filePath("chart.png")));
    QString err;
    QVERIFY2(w.chartsPanel()->exportCsv(dir_.filePath("chart.csv"), &err), qPrintable(err));
  }

  void closingWithRunsAsksAndCancels() {
    QTemporaryDir fresh;
    AppContext ctx(fresh.path(), QString());
    MainWindow w(&ctx);
    w.show();
    RunSpec spec;
    spec.balances = {"KQvKR"};
    spec.dataDir = fresh.path();
    spec.threads = 1;
    RunJob* job = w.runsPanel()->startRun(spec);
    int asked = 0;
    w.confirmQuit = [&](int active) {
      ++asked;
      Q_UNUSED(active);
      return false;
    };
    QVERIFY(!w.close());  // refused: the run goes on
    QCOMPARE(asked, 1);
    QVERIFY(job->active());
    w.confirmQuit = [&](int) {
      ++asked;
      return true;
    };
    QVERIFY(w.close());
    QCOMPARE(asked, 2);
    QVERIFY(!job->active());
    QCOMPARE(job->state(), RunJob::State::Cancelled);
  }

  void randomEditingNeverCrashes() {
    // Random clicks, drags, right-clicks, brushes and actions on the assembled window, with the
    // probe panel following every position (many are illegal or have too many pieces).
    AppContext ctx(test::dataDir(), test::syzygyDir());
    MainWindow w(&ctx);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    BoardEditorWidget* ed = w.boardEditor();
    BoardWidget* b = ed->board();
    QList<QAction*> actions = ed->editActions();
    QRandomGenerator rng(12345);
    auto randomPoint = [&] {
      return QPoint(int(rng.bounded(b->width() + 40)) - 20, int(rng.bounded(b->height() + 40)) - 20);
    };
    for (int i = 0; i < 600; ++i) {
      switch (rng.bounded(6)) {
        case 0:
          b->setBrush({BoardWidget::Brush::Place, Piece(rng.bounded(12))});
          QTest::mouseClick(b, Qt::LeftButton, Qt::NoModifier, randomPoint());
          break;
        case 1: {
          const QPoint from = randomPoint(), to = randomPoint();
          QTest::mousePress(b, Qt::LeftButton, Qt::NoModifier, from);
          QTest::mouseMove(b, (from + to) / 2);
          QTest::mouseMove(b, to);
          QTest::mouseRelease(b, Qt::LeftButton, Qt::NoModifier, to);
          break;
        }
        case 2: QTest::mouseClick(b, Qt::RightButton, Qt::NoModifier, randomPoint()); break;
        case 3: {
          QAction* a = actions[int(rng.bounded(int(actions.size())))];
          if (a != ed->pasteFenAction() && a != ed->copyFenAction()) a->trigger();
          break;
        }
        case 4: ed->undoAction()->trigger(); break;
        case 5: {
          const ProbeResult& r = w.probePanel()->result();
          if (!r.moves.empty()) w.probePanel()->playRow(int(rng.bounded(int(r.moves.size()))));
          break;
        }
      }
      if (i % 50 == 0) QVERIFY(w.probePanel()->waitIdle());
    }
    QVERIFY(w.probePanel()->waitIdle());
    QCOMPARE(w.probePanel()->result().position, ed->editor()->position());
  }

  void settingsDialogAppliesToContext() {
    QTemporaryDir other;
    AppContext ctx(dir_.path(), QString());
    SettingsDialog d(&ctx);
    d.dataEdit()->setText(other.path());
    d.threadsBox()->setValue(1);
    // The probe memory levels, all of them, by name; the current one selected.
    QCOMPARE(d.probeMemoryBox()->count(), int(probe::probe_memory_levels().size()));
    QCOMPARE(d.probeMemoryBox()->currentText(), QString("fast"));
    d.probeMemoryBox()->setCurrentIndex(d.probeMemoryBox()->findText("smallest"));
    d.accept();
    QCOMPARE(ctx.dataDir(), other.path());
    QCOMPARE(ctx.threads(), 1);
    QCOMPARE(ctx.probeMemory(), probe::ProbeMemory::Smallest);
    // A bad Syzygy directory is reported, not fatal.
    ctx.setSyzygyDir(other.filePath("nope"));
    QVERIFY(!ctx.syzygy());
    QVERIFY(!ctx.syzygyError().isEmpty());
  }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
