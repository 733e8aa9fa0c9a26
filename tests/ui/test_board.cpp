// SPDX-License-Identifier: GPL-3.0-or-later
// Board editor: FEN in and out, simulated drags and clicks, brush, undo/redo, the edit actions.
#include <QAction>
#include <QApplication>
#include <QDropEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QTest>
#include <QToolButton>

#include "board/board_editor_widget.hpp"
#include "board/board_widget.hpp"
#include "board/piece_palette.hpp"

using namespace egtmin;
using namespace egtmin::ui;

class TestBoard : public QObject {
  Q_OBJECT
 private:
  BoardEditorWidget* w_ = nullptr;
  Square sq(const char* name) { return parse_square(name); }
  void drag(Square from, QPoint to) {
    BoardWidget* b = w_->board();
    QTest::mousePress(b, Qt::LeftButton, Qt::NoModifier, b->squareCenter(from));
    QTest::mouseMove(b, (b->squareCenter(from) + to) / 2);
    QTest::mouseMove(b, to);
    QTest::mouseRelease(b, Qt::LeftButton, Qt::NoModifier, to);
  }
  void click(Square s, Qt::MouseButton button = Qt::LeftButton) {
    QTest::mouseClick(w_->board(), button, Qt::NoModifier, w_->board()->squareCenter(s));
  }

 private Q_SLOTS:
  void init() {
    w_ = new BoardEditorWidget;
    w_->resize(600, 800);
    w_->show();
    QVERIFY(QTest::qWaitForWindowExposed(w_));
  }
  void cleanup() { delete w_; }

  void fenRoundTrip() {
    const QString fen = "8/8/8/4k3/8/8/8/4K2Q w - - 0 1";
    QString err;
    QVERIFY(w_->editor()->setFen("8/8/8/8/8/8/8/K6k b - - 0 1", &err));
    QVERIFY(w_->editor()->setFen(fen, &err));
    QCOMPARE(w_->editor()->position().at(sq("h1")), make_piece(White, Queen));
    QCOMPARE(w_->fenEdit()->text(), fen);
  }

  void fenFieldValidatesAsYouType() {
    w_->fenEdit()->clear();
    QTest::keyClicks(w_->fenEdit(), "8/8/8/4k3");
    QVERIFY(!w_->fenMessage()->text().isEmpty());  // core's message: too few ranks/fields
    w_->fenEdit()->clear();
    QTest::keyClicks(w_->fenEdit(), "8/8/8/4k3/8/8/8/4K2R b - - 0 1");
    QVERIFY2(w_->fenMessage()->text().isEmpty(), qPrintable(w_->fenMessage()->text()));
    QCOMPARE(w_->editor()->position().at(sq("h1")), make_piece(White, Rook));
    QCOMPARE(w_->editor()->position().side_to_move(), Black);
    // The text typed stays as typed (no rewriting under the cursor).
    QCOMPARE(w_->fenEdit()->text(), QString("8/8/8/4k3/8/8/8/4K2R b - - 0 1"));
    w_->fenEdit()->setText("8/8/8/4k3/8/8/8/4K2Z w - - 0 1");
    Q_EMIT w_->fenEdit()->textEdited(w_->fenEdit()->text());
    QVERIFY(w_->fenMessage()->text().contains("'Z'"));
  }

  void dragMovesAPiece() {
    QVERIFY(w_->editor()->setFen("8/8/8/4k3/8/8/8/4K2Q w - - 0 1"));
    drag(sq("h1"), w_->board()->squareCenter(sq("h5")));
    QCOMPARE(w_->editor()->position().at(sq("h5")), make_piece(White, Queen));
    QCOMPARE(w_->editor()->position().at(sq("h1")), NoPiece);
    QVERIFY(w_->fenEdit()->text().startsWith("8/8/8/4k2Q/"));
    // Undo and redo through the actions.
    w_->undoAction()->trigger();
    QCOMPARE(w_->editor()->position().at(sq("h1")), make_piece(White, Queen));
    w_->redoAction()->trigger();
    QCOMPARE(w_->editor()->position().at(sq("h5")), make_piece(White, Queen));
  }

  void dragOffBoardRemoves() {
    QVERIFY(w_->editor()->setFen("8/8/8/4k3/8/8/8/4K2Q w - - 0 1"));
    drag(sq("h1"), QPoint(2, 2));
    QCOMPARE(w_->editor()->position().at(sq("h1")), NoPiece);
    QCOMPARE(w_->editor()->position().piece_count(), 2);
  }

  void dragOnFlippedBoard() {
    QVERIFY(w_->editor()->setFen("8/8/8/4k3/8/8/8/4K2Q w - - 0 1"));
    w_->flipAction()->trigger();
    QVERIFY(w_->board()->flipped());
    // On a flipped board h1 is at the top left.
    QVERIFY(w_->board()->squareCenter(sq("h1")).x() < w_->board()->squareCenter(sq("a1")).x());
    drag(sq("h1"), w_->board()->squareCenter(sq("a1")));
    QCOMPARE(w_->editor()->position().at(sq("a1")), make_piece(White, Queen));
  }

  void stickyBrushAndRightClick() {
    w_->clearAction()->trigger();
    QCOMPARE(w_->editor()->position().piece_count(), 0);
    QVERIFY(!w_->legalityLabel()->text().isEmpty());  // no kings: illegal, with a reason
    QVERIFY(w_->legalityLabel()->text().startsWith("Illegal"));
    w_->palette()->button(make_piece(White, Pawn))->click();
    click(sq("a2"));
    click(sq("b2"));
    click(sq("c2"));
    QCOMPARE(popcount(w_->editor()->position().pieces(White, Pawn)), 3);
    // Keyboard brush on the board: 'k' is the black king.
    w_->board()->setFocus();
    QTest::keyClick(w_->board(), Qt::Key_K);
    QCOMPARE(w_->board()->brush().piece, make_piece(Black, King));
    QVERIFY(w_->palette()->button(make_piece(Black, King))->isChecked());
    click(sq("e8"));
    QTest::keyClick(w_->board(), Qt::Key_K, Qt::ShiftModifier);
    click(sq("e1"));
    QVERIFY2(w_->editor()->illegalReason().isEmpty(), qPrintable(w_->editor()->illegalReason()));
    QVERIFY(!w_->legalityLabel()->text().startsWith("Illegal"));
    click(sq("b2"), Qt::RightButton);
    QCOMPARE(popcount(w_->editor()->position().pieces(White, Pawn)), 2);
    // Pawn on the last rank: illegal, and the reason is shown.
    QTest::keyClick(w_->board(), Qt::Key_P, Qt::ShiftModifier);
    click(sq("d8"));
    QVERIFY(!w_->editor()->illegalReason().isEmpty());
    QVERIFY(w_->legalityLabel()->text().contains(w_->editor()->illegalReason()));
    QTest::keyClick(w_->board(), Qt::Key_Escape);
    QCOMPARE(w_->board()->brush().kind, BoardWidget::Brush::None);
  }

  void transformations() {
    QVERIFY(w_->editor()->setFen("8/8/8/4k3/8/8/8/K6R w - - 0 1"));
    w_->mirrorAction()->trigger();
    QCOMPARE(w_->editor()->position().at(sq("h1")), make_piece(White, King));
    QCOMPARE(w_->editor()->position().at(sq("a1")), make_piece(White, Rook));
    w_->swapAction()->trigger();
    QCOMPARE(w_->editor()->position().at(sq("h8")), make_piece(Black, King));
    QCOMPARE(w_->editor()->position().side_to_move(), Black);
    w_->sideToMoveAction()->trigger();
    QCOMPARE(w_->editor()->position().side_to_move(), White);
    // Shortcut keys reach the actions.
    w_->board()->setFocus();
    QTest::keyClick(w_->board(), Qt::Key_T);
    QCOMPARE(w_->editor()->position().side_to_move(), Black);
    QTest::keyClick(w_->board(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(w_->editor()->position().side_to_move(), White);
  }

  void dropFromPalette() {
    QVERIFY(w_->editor()->setFen("8/8/8/4k3/8/8/8/4K3 w - - 0 1"));
    BoardWidget* b = w_->board();
    QMimeData mime;
    mime.setData(BoardWidget::kPieceMime, QByteArray("R"));
    const QPointF at = b->squareCenter(parse_square("a1"));
    QDragEnterEvent enter(at.toPoint(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(b, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(b, &drop);
    QCOMPARE(w_->editor()->position().at(parse_square("a1")), make_piece(White, Rook));
    // Foreign data is refused.
    QMimeData text;
    text.setText("R");
    QDragEnterEvent other(at.toPoint(), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(b, &other);
    QVERIFY(!other.isAccepted());
  }

  void robustAtTinySizes() {
    w_->board()->resize(3, 3);
    w_->board()->repaint();
    QTest::mouseClick(w_->board(), Qt::LeftButton, Qt::NoModifier, QPoint(1, 1));
    w_->board()->resize(1000, 300);
    w_->board()->repaint();
    QVERIFY(w_->board()->squareAt(QPointF(-5, -5)) == NoSquare);
  }
};

QTEST_MAIN(TestBoard)
#include "test_board.moc"
