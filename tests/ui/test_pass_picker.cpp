// SPDX-License-Identifier: GPL-3.0-or-later
// Ordering passes in the Runs panel: the pass row reorders by drag and drop (QListWidget's
// InternalMove), by the buttons beside it and by Ctrl+Left / Ctrl+Right / Delete; the text and the
// row stay in step, and the order shown is the order a run executes.
//
// The drag: under the offscreen platform (the suite's) a drag cannot be simulated, because
// QTest's press-move-release over the row starts a QDrag whose platform drag ends at once without a
// drop (tried: the order stays as it was). So dragReordersAndTheRunUsesIt makes the call a drop of
// an internal move makes, model()->moveRow(QModelIndex(), from, QModelIndex(), to), and checks that
// the view is set up to start and accept such moves. realMouseDrag does the drag with the mouse
// where a platform can (QT_QPA_PLATFORM=xcb xvfb-run -a tests/test_pass_picker): there the drop
// arrives as exactly one rowsMoved and no insertion, which is what the model-level test relies on.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QGuiApplication>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include "app_context.hpp"
#include "runs/balance_picker.hpp"
#include "runs/pass_picker.hpp"
#include "runs/runs_panel.hpp"
#include "ui_test_support.hpp"

using namespace egtmin;
using namespace egtmin::ui;
using egtmin::ui::test::ms;

class TestPassPicker : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

 private Q_SLOTS:
  void rowFollowsTheText() {
    PassPicker p;
    p.applyPreset(0);
    QCOMPARE(p.passList(), (QStringList{"canon", "compact", "expand", "irredundant"}));
    p.edit()->clear();
    QTest::keyClicks(p.edit(), "canon, compact,espresso");
    QCOMPARE(p.passList(), (QStringList{"canon", "compact", "espresso"}));
    QVERIFY(p.valid());
    // The append buttons add to both.
    QToolButton* reduce = nullptr;
    for (QToolButton* b : p.findChildren<QToolButton*>())
      if (b->text() == QLatin1String("reduce")) reduce = b;
    QVERIFY(reduce);
    reduce->click();
    QCOMPARE(p.passList(), (QStringList{"canon", "compact", "espresso", "reduce"}));
    QCOMPARE(p.passes(), QString("canon, compact,espresso,reduce"));
    p.setPasses(QString());
    QCOMPARE(p.list()->count(), 0);
  }

  void dragReordersAndTheRunUsesIt() {
    QVERIFY(dir_.isValid());
    AppContext ctx(dir_.path(), QString());
    RunsPanel panel(&ctx);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    PassPicker* p = panel.passes();
    p->applyPreset(0);
    QListWidget* list = p->list();
    // Set up for internal moves only: a drag in the row moves its item.
    QCOMPARE(list->dragDropMode(), QAbstractItemView::InternalMove);
    QCOMPARE(list->defaultDropAction(), Qt::MoveAction);
    QVERIFY(list->dragEnabled());
    QVERIFY(list->model()->supportedDropActions() & Qt::MoveAction);
    for (int i = 0; i < list->count(); ++i) {
      QVERIFY(list->item(i)->flags() & Qt::ItemIsDragEnabled);
      QVERIFY(!(list->item(i)->flags() & Qt::ItemIsDropEnabled));  // drops land between passes
    }
    QAbstractItemModelTester tester(list->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);

    // Drag "irredundant" (row 3) to before "expand" (row 2): what QListWidget::dropEvent does.
    QVERIFY(list->model()->moveRow(QModelIndex(), 3, QModelIndex(), 2));
    QCOMPARE(p->passList(), (QStringList{"canon", "compact", "irredundant", "expand"}));
    QCOMPARE(p->passes(), QString("canon,compact,irredundant,expand"));
    QCOMPARE(p->presetBox()->currentText(), QString("custom"));
    QVERIFY(p->valid());
    // And "canon" (row 0) to the end (before row 4 = past the last).
    QVERIFY(list->model()->moveRow(QModelIndex(), 0, QModelIndex(), 4));
    QCOMPARE(p->passes(), QString("compact,irredundant,expand,canon"));
    // Back to the paper's order by dragging: a preset name shows again when the order matches one.
    QVERIFY(list->model()->moveRow(QModelIndex(), 3, QModelIndex(), 0));
    QVERIFY(list->model()->moveRow(QModelIndex(), 3, QModelIndex(), 2));
    QCOMPARE(p->passes(), QString("canon,compact,expand,irredundant"));
    QCOMPARE(p->presetBox()->currentText(), QString("paper default"));
    QVERIFY(list->model()->moveRow(QModelIndex(), 3, QModelIndex(), 2));
    QCOMPARE(p->passes(), QString("canon,compact,irredundant,expand"));

    // The run started from the panel executes the passes in the dragged order.
    panel.balances()->setChecked("KRvK", true);
    QVERIFY(panel.startButton()->isEnabled());
    panel.startButton()->click();
    QCOMPARE(panel.jobs().size(), 1);
    RunJob* job = panel.jobs().last();
    QCOMPARE(logic::passes_string(job->spec().passes), std::string("canon,compact,irredundant,expand"));
    QVERIFY(job->wait(ms(60000)));
    QVERIFY2(job->state() == RunJob::State::Done, qPrintable(job->error()));
    QStringList ran;
    for (const PassPoint& pt : job->points())
      if (pt.step > 0) ran << pt.pass;
    QCOMPARE(ran, (QStringList{"canon", "compact", "irredundant", "expand"}));
  }

  void realMouseDrag() {
    if (QGuiApplication::platformName() == QLatin1String("offscreen"))
      QSKIP("the offscreen platform cannot drag; run under xvfb-run with QT_QPA_PLATFORM=xcb for the mouse drag");
    PassPicker p;
    p.show();
    QVERIFY(QTest::qWaitForWindowExposed(&p));
    p.setPasses("canon,compact,expand,irredundant");
    QListWidget* list = p.list();
    QWidget* vp = list->viewport();
    const QPoint from = list->visualItemRect(list->item(3)).center();
    const QPoint to = list->visualItemRect(list->item(1)).topLeft() + QPoint(3, 4);  // before "compact"
    int moved = 0, inserted = 0;
    connect(list->model(), &QAbstractItemModel::rowsMoved, this, [&] { ++moved; });
    connect(list->model(), &QAbstractItemModel::rowsInserted, this, [&] { ++inserted; });
    // QDrag::exec runs its own event loop once the press and the first moves start the drag; the
    // rest of the gesture comes from a timer inside that loop.
    QTimer::singleShot(300, this, [&] {
      for (int i = 1; i <= 10; ++i) {
        QTest::mouseMove(vp, from + (to - from) * i / 10);
        QTest::qWait(20);
      }
      QTest::mouseRelease(vp, Qt::LeftButton, Qt::NoModifier, to);
    });
    QTest::mousePress(vp, Qt::LeftButton, Qt::NoModifier, from);
    QTest::mouseMove(vp, from + QPoint(-20, 0));
    QTest::mouseMove(vp, from + QPoint(-40, 0));
    QTRY_COMPARE_WITH_TIMEOUT(p.passes(), QString("canon,irredundant,compact,expand"), ms(5000));
    QCOMPARE(moved, 1);
    QCOMPARE(inserted, 0);
  }

  void buttonsAndKeysReorderToo() {
    PassPicker p;
    p.show();
    QVERIFY(QTest::qWaitForWindowExposed(&p));
    p.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&p));  // shortcuts need an active window
    p.setPasses("canon,compact,expand");
    QListWidget* list = p.list();
    list->setFocus();
    list->setCurrentRow(0);
    QVERIFY(!p.earlierButton()->isEnabled());
    QVERIFY(p.laterButton()->isEnabled());
    p.laterButton()->click();
    QCOMPARE(p.passes(), QString("compact,canon,expand"));
    QCOMPARE(list->currentRow(), 1);  // the moved pass stays selected
    QTest::keyClick(list, Qt::Key_Right, Qt::ControlModifier);
    QCOMPARE(p.passes(), QString("compact,expand,canon"));
    QCOMPARE(list->currentRow(), 2);
    QVERIFY(!p.laterButton()->isEnabled());
    QTest::keyClick(list, Qt::Key_Left, Qt::ControlModifier);
    QCOMPARE(p.passes(), QString("compact,canon,expand"));
    p.earlierButton()->click();
    QCOMPARE(p.passes(), QString("canon,compact,expand"));
    QCOMPARE(list->currentRow(), 0);
    QTest::keyClick(list, Qt::Key_Delete);
    QCOMPARE(p.passes(), QString("compact,expand"));
    p.removeButton()->click();
    QCOMPARE(p.passes(), QString("expand"));
    QVERIFY(p.valid());
    // Out-of-range moves do nothing.
    QVERIFY(!p.movePass(0, 1));
    QVERIFY(!p.movePass(-1, 0));
    QCOMPARE(p.passes(), QString("expand"));
  }
};

QTEST_MAIN(TestPassPicker)
#include "test_pass_picker.moc"
