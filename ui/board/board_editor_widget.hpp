// SPDX-License-Identifier: GPL-3.0-or-later
// The board area: palette, board, edit tools, FEN field and the legality message, all driving one
// BoardEditor. The actions (with their shortcuts) are exposed for the main window's menus.
#pragma once

#include <QWidget>

#include "board/board_editor.hpp"

class QAction;
class QLabel;
class QLineEdit;
class QToolBar;

namespace egtmin::ui {

class BoardWidget;
class PiecePalette;

class BoardEditorWidget : public QWidget {
  Q_OBJECT
 public:
  explicit BoardEditorWidget(QWidget* parent = nullptr);

  BoardEditor* editor() { return &editor_; }
  BoardWidget* board() const { return board_; }
  PiecePalette* palette() const { return palette_; }
  QLineEdit* fenEdit() const { return fen_; }
  QLabel* fenMessage() const { return fenMessage_; }
  QLabel* legalityLabel() const { return legality_; }
  QList<QAction*> editActions() const { return actions_; }

  QAction* undoAction() const { return undo_; }
  QAction* redoAction() const { return redo_; }
  QAction* flipAction() const { return flip_; }
  QAction* mirrorAction() const { return mirror_; }
  QAction* swapAction() const { return swap_; }
  QAction* sideToMoveAction() const { return stm_; }
  QAction* clearAction() const { return clear_; }
  QAction* copyFenAction() const { return copyFen_; }
  QAction* pasteFenAction() const { return pasteFen_; }

 private:
  void onPositionChanged(const Position& pos);
  void onFenEdited(const QString& text);
  QAction* addAction(const QString& text, const QKeySequence& key, const QString& tip);

  BoardEditor editor_;
  BoardWidget* board_ = nullptr;
  PiecePalette* palette_ = nullptr;
  QToolBar* tools_ = nullptr;
  QLineEdit* fen_ = nullptr;
  QLabel* fenMessage_ = nullptr;
  QLabel* legality_ = nullptr;
  QList<QAction*> actions_;
  QAction *undo_ = nullptr, *redo_ = nullptr, *flip_ = nullptr, *mirror_ = nullptr, *swap_ = nullptr, *stm_ = nullptr,
          *clear_ = nullptr, *copyFen_ = nullptr, *pasteFen_ = nullptr;
  bool editingFen_ = false;  // the FEN field is the source of the change: do not rewrite its text
};

}  // namespace egtmin::ui
