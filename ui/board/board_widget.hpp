// SPDX-License-Identifier: GPL-3.0-or-later
// The chessboard: paints a position and turns plain mouse presses, moves and releases into edit
// requests (so QTest can drive it). It never changes the position itself; BoardEditor does.
#pragma once

#include <QColor>
#include <QPointF>
#include <QWidget>
#include <array>
#include <optional>

#include "chess/move.hpp"
#include "chess/position.hpp"

namespace egtmin::ui {

class BoardWidget : public QWidget {
  Q_OBJECT
 public:
  // What a click on a square does besides dragging: nothing, place a piece, or erase.
  struct Brush {
    enum Kind { None, Place, Erase } kind = None;
    Piece piece = NoPiece;
    friend bool operator==(const Brush&, const Brush&) = default;
  };

  explicit BoardWidget(QWidget* parent = nullptr);

  static constexpr const char* kPieceMime = "application/x-egtmin-piece";

  void setPosition(const Position& pos);
  const Position& position() const { return pos_; }
  bool flipped() const { return flipped_; }
  Brush brush() const { return brush_; }

  // Marks the board as an illegal setup (red frame and the reason along the bottom edge).
  void setIllegalReason(const QString& reason);
  // Squares each piece of a cube may occupy, drawn as tinted dots; empty to clear.
  struct Overlay {
    Piece piece;
    Bitboard squares;
  };
  void setOverlay(const std::vector<Overlay>& overlay);
  const std::vector<Overlay>& overlay() const { return overlay_; }
  // The dot colour of a piece in the overlay, for legends.
  static QColor overlayColor(Piece p);
  void setLastMove(std::optional<Move> m);

  // Geometry, for painting, mouse handling and tests.
  QRectF boardRect() const;
  QRectF squareRect(Square s) const;
  QPoint squareCenter(Square s) const { return squareRect(s).center().toPoint(); }
  Square squareAt(QPointF p) const;  // NoSquare off the board

  QSize sizeHint() const override { return {480, 480}; }
  QSize minimumSizeHint() const override { return {160, 160}; }
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int w) const override { return w; }

 public Q_SLOTS:
  void setFlipped(bool f);
  void setBrush(const egtmin::ui::BoardWidget::Brush& b);

 Q_SIGNALS:
  void moveRequested(egtmin::Square from, egtmin::Square to);
  void removeRequested(egtmin::Square s);
  void placeRequested(egtmin::Square s, egtmin::Piece p);
  void brushChanged(const egtmin::ui::BoardWidget::Brush& b);

 protected:
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  // Pieces dragged from the palette (mime type kPieceMime, the piece's FEN letter).
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dragMoveEvent(QDragMoveEvent* e) override;
  void dropEvent(QDropEvent* e) override;

 private:
  Position pos_;
  bool flipped_ = false;
  Brush brush_;
  QString illegal_;
  std::vector<Overlay> overlay_;
  std::optional<Move> lastMove_;

  // Drag state: the square pressed, where, and whether the mouse has moved far enough to be a drag.
  Square pressSquare_ = NoSquare;
  QPointF pressPos_, dragPos_;
  bool dragging_ = false;
};

}  // namespace egtmin::ui

Q_DECLARE_METATYPE(egtmin::ui::BoardWidget::Brush)
