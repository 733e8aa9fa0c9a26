// SPDX-License-Identifier: GPL-3.0-or-later
// Cover viewer: cube decoding, a real minimized cover loaded from disk, output filter, board
// overlay of the selected cube, CSV export, a 200k-cube cover staying fast, and the list of
// covers after a run in the window's Runs panel.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QRandomGenerator>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "app_context.hpp"
#include "covers/cover_model.hpp"
#include "covers/cover_viewer.hpp"
#include "covers/cube_decoder.hpp"
#include "logic/pass_sequence.hpp"
#include "logic/pipeline.hpp"
#include "main_window.hpp"
#include "runs/runs_panel.hpp"
#include "ui_test_support.hpp"

using namespace egtmin;
using namespace egtmin::ui;
using egtmin::ui::test::ms;
using logic::CubeWord;

namespace {
// Sets input i of c to 0 (-1), 1 (1) or don't care (2).
CubeWord setInput(CubeWord c, int i, int v) {
  c &= ~logic::pair_mask(i);
  const CubeWord pair = v == -1 ? 2 : v == 1 ? 1 : 3;
  return c | (pair << logic::pair_shift(i));
}
}  // namespace

class TestCovers : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  AppContext* ctx_ = nullptr;
  CoverViewer* viewer_ = nullptr;

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    ctx_ = new AppContext(dir_.path(), QString(), this);
    viewer_ = new CoverViewer(ctx_);
    new QAbstractItemModelTester(viewer_->model(), QAbstractItemModelTester::FailureReportingMode::QtTest, this);
    new QAbstractItemModelTester(viewer_->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest, this);
    viewer_->resize(900, 600);
    viewer_->show();
  }
  void cleanupTestCase() { delete viewer_; }

  void decodeHandMadeCube() {
    CubeDecoder d(*Balance::parse("KQvK"));
    QCOMPARE(d.pieceLabel(0), QString("wK"));
    QCOMPARE(d.pieceLabel(1), QString("wQ"));
    QCOMPARE(d.pieceLabel(2), QString("bK"));
    CubeWord c = logic::universe(logic::Output::Win);
    c = setInput(c, 0, -1);  // White to move
    // White king: row MSB 1 (rows 4-7 = ranks 4..1), file MSB 0 (files a-d).
    c = setInput(c, 1, 1);
    c = setInput(c, 4, -1);
    QCOMPARE(d.sideToMove(c), QChar('w'));
    QCOMPARE(d.describe(c, 0), QString("files a-d, ranks 1-4"));
    QCOMPARE(d.describe(c, 1), QString("anywhere"));
    QCOMPARE(popcount(d.squares(c, 0)), 16);
    QVERIFY(d.squares(c, 0) & bb(parse_square("a1")));
    QVERIFY(!(d.squares(c, 0) & bb(parse_square("e1"))));
    // The black king on exactly e4.
    const Square e4 = parse_square("e4");
    for (int b = 0; b < 6; ++b) c = setInput(c, 13 + b, ((e4 >> (5 - b)) & 1) ? 1 : -1);
    QCOMPARE(d.describe(c, 2), QString("e4"));
    QCOMPARE(d.squares(c, 2), bb(e4));
    // Odd files: the last file bit fixed to 1 gives b, d, f, h.
    CubeWord odd = setInput(logic::universe(logic::Output::Draw), 6, 1);
    QCOMPARE(d.describe(odd, 0), QString("files b,d,f,h"));
    QCOMPARE(d.sideToMove(odd), QChar('-'));
    QCOMPARE(logic::literals(c), 1 + 2 + 6);
  }

  void realCoverLoadsFilterAndOverlay() {
    QVERIFY(test::ensureTable("KQvK"));
    TableStore store(test::dataDir().toStdString());
    auto t = store.get(*Balance::parse("KQvK"));
    QVERIFY(t.ok());
    auto passes = logic::parse_passes("canon,compact,expand,irredundant");
    QVERIFY(passes.ok());
    auto m = logic::minimize_table(**t, *passes, {});
    QVERIFY(m.ok());
    store::CoverFile cf;
    cf.balance = *Balance::parse("KQvK");
    cf.inputs = (**t).encoding().bits();
    cf.canon = m->scheme;
    cf.passes = "canon,compact,expand,irredundant";
    cf.cubes = m->cover;
    QVERIFY(store::save_cover(store::cover_path(dir_.path().toStdString(), cf.balance), cf).ok());

    viewer_->rescan();
    QCOMPARE(viewer_->balanceBox()->findText("KQvK"), 0);
    QSignalSpy loaded(viewer_, &CoverViewer::loaded);
    viewer_->load("KQvK");
    QVERIFY(loaded.wait(ms(20000)));
    QCOMPARE(viewer_->model()->rowCount(), int(cf.cubes.size()));
    QCOMPARE(viewer_->model()->columnCount(), CoverModel::ColFirstPiece + 3);
    QVERIFY(viewer_->infoLabel()->text().contains("cubes"));

    int wins = 0;
    for (CubeWord c : cf.cubes) wins += logic::output_of(c) == logic::Output::Win;
    viewer_->setOutputFilter(int(logic::Output::Win));
    QCOMPARE(viewer_->proxy()->rowCount(), wins);
    for (int r = 0; r < std::min(50, wins); ++r)
      QCOMPARE(viewer_->proxy()->index(r, CoverModel::ColOutput).data().toString(), QString("White wins"));
    viewer_->setOutputFilter(0);
    QCOMPARE(viewer_->proxy()->rowCount(), int(cf.cubes.size()));

    QSignalSpy overlay(viewer_, &CoverViewer::overlayChanged);
    viewer_->view()->selectRow(0);
    viewer_->view()->setCurrentIndex(viewer_->proxy()->index(0, 0));
    QVERIFY(overlay.count() >= 1);
    const auto ov = overlay.last().at(0).value<std::vector<BoardWidget::Overlay>>();
    QCOMPARE(int(ov.size()), 3);
    QCOMPARE(ov[0].piece, make_piece(White, King));
    QVERIFY(ov[0].squares != 0);

    const QString csv = dir_.filePath("cubes.csv");
    QString err;
    QVERIFY2(viewer_->exportCsv(csv, &err), qPrintable(err));
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().split('\n');
    QCOMPARE(lines.size(), int(cf.cubes.size()) + 2);  // header + rows + trailing newline
    QVERIFY(lines[0].contains("wK"));

    // A capture-resolved cover of the same balance is listed beside it, by kind, and loads as such.
    cf.kind = store::CoverKind::CaptureResolved;
    cf.cubes.resize(cf.cubes.size() / 2);
    QVERIFY(store::save_cover(
                store::cover_path(dir_.path().toStdString(), cf.balance, store::CoverKind::CaptureResolved), cf)
                .ok());
    viewer_->rescan();
    const int resolved = viewer_->balanceBox()->findText("KQvK (capture-resolved)");
    QVERIFY(resolved >= 0);
    QVERIFY(viewer_->balanceBox()->findText("KQvK") >= 0);
    QSignalSpy again(viewer_, &CoverViewer::loaded);
    viewer_->balanceBox()->setCurrentIndex(resolved);
    Q_EMIT viewer_->balanceBox()->activated(resolved);
    QVERIFY(again.wait(ms(20000)));
    QCOMPARE(viewer_->model()->rowCount(), int(cf.cubes.size()));
    QVERIFY(viewer_->infoLabel()->text().contains("capture-resolved"));
  }

  void missingCoverFailsPlainly() {
    QSignalSpy failed(viewer_, &CoverViewer::failed);
    viewer_->load("KRvK");
    QVERIFY(failed.wait(ms(10000)));
    QVERIFY(!failed.at(0).at(0).toString().isEmpty());
  }

  void bigCoverIsFast() {
    std::vector<CubeWord> cubes(200000);
    auto* rng = QRandomGenerator::global();
    for (CubeWord& c : cubes) {
      CubeWord x = logic::universe(logic::Output(1 + rng->bounded(3)));
      for (int i = 0; i < 25; ++i) x = setInput(x, i, int(rng->bounded(3)) - 1 == 0 ? 2 : (rng->bounded(2) ? 1 : -1));
      c = x;
    }
    store::CoverFile cf;
    cf.balance = *Balance::parse("KRPvKR");
    cf.inputs = 25;
    cf.cubes = cubes;
    // A viewer of its own: the model testers on viewer_ walk every row on each reset, which is
    // their job but not what a user waits for.
    delete viewer_;
    viewer_ = new CoverViewer(ctx_);
    viewer_->resize(900, 600);
    viewer_->show();
    QVERIFY(QTest::qWaitForWindowExposed(viewer_));
    QElapsedTimer t;
    t.start();
    viewer_->setCover(cf);
    qInfo("setCover %lld ms", t.elapsed());
    viewer_->view()->scrollToBottom();
    qInfo("scroll %lld ms", t.elapsed());
    viewer_->view()->repaint();
    QVERIFY2(t.elapsed() < ms(500), qPrintable(QString::number(t.elapsed())));
    QCOMPARE(viewer_->model()->rowCount(), 200000);
    t.restart();
    viewer_->setOutputFilter(int(logic::Output::Draw));
    QVERIFY(viewer_->proxy()->rowCount() > 0);
    QVERIFY2(t.elapsed() < ms(1000), qPrintable(QString::number(t.elapsed())));
    viewer_->setOutputFilter(0);
  }

  // A run in the Runs panel makes a cover in an empty data directory: when it finishes, the Covers
  // tab lists it and says so before anything is picked, and Rescan finds a cover saved by hand.
  void listsTheCoversARunMade() {
    QTemporaryDir data;
    QVERIFY(data.isValid());
    AppContext ctx(data.path(), QString());
    MainWindow w(&ctx);
    CoverViewer* covers = w.coverViewer();
    QCOMPARE(covers->balanceBox()->count(), 0);
    QVERIFY2(covers->infoLabel()->text().startsWith("No cover files"), qPrintable(covers->infoLabel()->text()));
    RunSpec spec;
    spec.balances = {"KRvK"};
    spec.passes = logic::default_passes();
    spec.dataDir = data.path();
    RunJob* job = w.runsPanel()->startRun(spec);
    QVERIFY(job->wait(ms(120000)));
    QCOMPARE(job->state(), RunJob::State::Done);
    QTRY_COMPARE(covers->balanceBox()->count(), 1);
    QCOMPARE(covers->balanceBox()->itemText(0), QString("KRvK"));
    QCOMPARE(covers->model()->rowCount(), 0);  // nothing picked, nothing loaded
    QVERIFY2(covers->infoLabel()->text().startsWith("1 cover file in"), qPrintable(covers->infoLabel()->text()));
    covers->rescanButton()->click();
    QCOMPARE(covers->balanceBox()->count(), 1);
    QVERIFY2(covers->infoLabel()->text().startsWith("1 cover file in"), qPrintable(covers->infoLabel()->text()));

    // A cover saved outside the window is listed on Rescan.
    auto krvk = store::load_cover(store::cover_path(data.path().toStdString(), *Balance::parse("KRvK")));
    QVERIFY2(krvk.ok(), krvk.ok() ? "" : krvk.error().message.c_str());
    store::CoverFile other = *krvk;
    other.kind = store::CoverKind::CaptureResolved;
    QVERIFY(store::save_cover(
                store::cover_path(data.path().toStdString(), other.balance, store::CoverKind::CaptureResolved), other)
                .ok());
    QCOMPARE(covers->balanceBox()->count(), 1);
    covers->rescanButton()->click();
    QCOMPARE(covers->balanceBox()->count(), 2);
    QVERIFY(covers->balanceBox()->findText("KRvK (capture-resolved)") >= 0);
    QVERIFY2(covers->infoLabel()->text().startsWith("2 cover files in"), qPrintable(covers->infoLabel()->text()));
    // Once a cover is picked, the line is its summary, and a rescan keeps it.
    QSignalSpy loaded(covers, &CoverViewer::loaded);
    covers->load("KRvK");
    QVERIFY(loaded.wait(ms(20000)));
    QVERIFY(covers->model()->rowCount() > 0);
    const QString summary = covers->infoLabel()->text();
    QVERIFY2(summary.startsWith("KRvK: "), qPrintable(summary));
    covers->rescanButton()->click();
    QCOMPARE(covers->infoLabel()->text(), summary);
  }
};

QTEST_MAIN(TestCovers)
#include "test_covers.moc"
