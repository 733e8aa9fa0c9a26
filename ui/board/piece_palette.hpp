// SPDX-License-Identifier: GPL-3.0-or-later
// Spare pieces beside the board. Picking one makes it a sticky brush: every click on the board
// places another, until the brush is picked again, Escape is pressed, or another tool is chosen.
#pragma once

#include <QWidget>
#include <array>

#include "board/board_widget.hpp"

class QToolButton;

namespace egtmin::ui {

class PiecePalette : public QWidget {
  Q_OBJECT
 public:
  explicit PiecePalette(QWidget* parent = nullptr);

  // Button of a piece (NoPiece: the eraser), for tests and shortcuts.
  QToolButton* button(Piece p) const;

 public Q_SLOTS:
  // Reflects the board's brush (which may also change from the keyboard).
  void showBrush(const egtmin::ui::BoardWidget::Brush& b);

 Q_SIGNALS:
  void brushPicked(const egtmin::ui::BoardWidget::Brush& b);

 private:
  void picked(int id);
  // Dragging a palette piece onto the board places it (without changing the brush).
  bool eventFilter(QObject* watched, QEvent* e) override;
  QPoint pressPos_;
  std::array<QToolButton*, kPieces + 1> buttons_{};
  BoardWidget::Brush current_;
};

}  // namespace egtmin::ui
