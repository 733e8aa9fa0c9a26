// SPDX-License-Identifier: GPL-3.0-or-later
#include "board/board_editor_widget.hpp"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QToolBar>
#include <QVBoxLayout>

#include "board/board_widget.hpp"
#include "board/piece_palette.hpp"

namespace egtmin::ui {

BoardEditorWidget::BoardEditorWidget(QWidget* parent) : QWidget(parent) {
  board_ = new BoardWidget(this);
  palette_ = new PiecePalette(this);
  tools_ = new QToolBar(this);
  tools_->setToolButtonStyle(Qt::ToolButtonTextOnly);
  fen_ = new QLineEdit(this);
  fen_->setObjectName("fen");
  fen_->setPlaceholderText(tr("FEN, e.g. 8/8/8/4k3/8/8/8/4K2Q w - - 0 1"));
  fen_->setClearButtonEnabled(true);
  fenMessage_ = new QLabel(this);
  fenMessage_->setObjectName("fen-message");
  fenMessage_->setWordWrap(true);
  fenMessage_->setStyleSheet("color: #b01010;");
  legality_ = new QLabel(this);
  legality_->setObjectName("legality");
  legality_->setWordWrap(true);

  undo_ = editor_.undoStack()->createUndoAction(this, tr("Undo"));
  undo_->setShortcut(QKeySequence::Undo);
  redo_ = editor_.undoStack()->createRedoAction(this, tr("Redo"));
  redo_->setShortcuts({QKeySequence::Redo, QKeySequence(Qt::CTRL | Qt::Key_Y)});
  actions_ << undo_ << redo_;
  QWidget::addAction(undo_);
  QWidget::addAction(redo_);
  tools_->addAction(undo_);
  tools_->addAction(redo_);
  tools_->addSeparator();

  stm_ = addAction(tr("Side to move"), Qt::Key_T, tr("Toggle the side to move (T)"));
  connect(stm_, &QAction::triggered, &editor_, &BoardEditor::toggleSideToMove);
  flip_ = addAction(tr("Flip"), Qt::Key_F, tr("View the board from the other side (F)"));
  flip_->setCheckable(true);
  connect(flip_, &QAction::toggled, board_, &BoardWidget::setFlipped);
  mirror_ = addAction(tr("Mirror"), Qt::Key_M, tr("Mirror the position left to right, a-file <-> h-file (M)"));
  connect(mirror_, &QAction::triggered, &editor_, &BoardEditor::mirror);
  swap_ = addAction(tr("Swap colours"), Qt::Key_C,
                    tr("Swap the colours, mirror the ranks and the side to move: same value, other colouring (C)"));
  connect(swap_, &QAction::triggered, &editor_, &BoardEditor::swapColors);
  clear_ =
      addAction(tr("Clear"), QKeySequence(Qt::CTRL | Qt::Key_Backspace), tr("Remove every piece (Ctrl+Backspace)"));
  connect(clear_, &QAction::triggered, &editor_, &BoardEditor::clear);
  tools_->addSeparator();
  copyFen_ =
      addAction(tr("Copy FEN"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), tr("Copy the FEN (Ctrl+Shift+C)"));
  connect(copyFen_, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(editor_.fen()); });
  pasteFen_ = addAction(tr("Paste FEN"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V),
                        tr("Set the position from the clipboard (Ctrl+Shift+V)"));
  connect(pasteFen_, &QAction::triggered, this, [this] {
    fen_->setText(QApplication::clipboard()->text().trimmed());
    onFenEdited(fen_->text());
  });
  auto* focusFen = new QAction(tr("Edit FEN"), this);
  focusFen->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
  connect(focusFen, &QAction::triggered, this, [this] {
    fen_->setFocus();
    fen_->selectAll();
  });
  QWidget::addAction(focusFen);
  actions_ << focusFen;

  auto* fenRow = new QHBoxLayout;
  fenRow->addWidget(new QLabel(tr("FEN:"), this));
  fenRow->addWidget(fen_, 1);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(tools_);
  auto* boardRow = new QHBoxLayout;
  boardRow->addWidget(palette_);
  boardRow->addWidget(board_, 1);
  layout->addLayout(boardRow, 1);
  layout->addWidget(legality_);
  layout->addLayout(fenRow);
  layout->addWidget(fenMessage_);

  connect(palette_, &PiecePalette::brushPicked, board_, &BoardWidget::setBrush);
  connect(board_, &BoardWidget::brushChanged, palette_, &PiecePalette::showBrush);
  connect(board_, &BoardWidget::moveRequested, &editor_, &BoardEditor::movePiece);
  connect(board_, &BoardWidget::removeRequested, &editor_, &BoardEditor::remove);
  connect(board_, &BoardWidget::placeRequested, &editor_, &BoardEditor::put);
  connect(&editor_, &BoardEditor::positionChanged, this, &BoardEditorWidget::onPositionChanged);
  connect(fen_, &QLineEdit::textEdited, this, &BoardEditorWidget::onFenEdited);
  onPositionChanged(editor_.position());
}

QAction* BoardEditorWidget::addAction(const QString& text, const QKeySequence& key, const QString& tip) {
  auto* a = new QAction(text, this);
  a->setShortcut(key);
  a->setToolTip(tip);
  // Window-wide, so the keys work wherever focus is; a focused line edit still gets its letters
  // because QLineEdit claims plain text keys before shortcuts fire.
  a->setShortcutContext(Qt::WindowShortcut);
  QWidget::addAction(a);
  tools_->addAction(a);
  actions_ << a;
  return a;
}

void BoardEditorWidget::onPositionChanged(const Position& pos) {
  board_->setPosition(pos);
  const QString why = editor_.illegalReason();
  board_->setIllegalReason(why);
  if (why.isEmpty()) {
    legality_->setStyleSheet("");
    legality_->setText(tr("%1 to move").arg(pos.side_to_move() == White ? tr("White") : tr("Black")));
  } else {
    legality_->setStyleSheet("color: #b01010; font-weight: bold;");
    legality_->setText(tr("Illegal setup: %1").arg(why));
  }
  if (!editingFen_) {
    fen_->setText(editor_.fen());
    fenMessage_->clear();
  }
}

void BoardEditorWidget::onFenEdited(const QString& text) {
  if (text.trimmed().isEmpty()) {
    fenMessage_->clear();
    return;
  }
  QString error;
  editingFen_ = true;
  const bool ok = editor_.setFen(text, &error);
  editingFen_ = false;
  fenMessage_->setText(ok ? QString() : error);
}

}  // namespace egtmin::ui
