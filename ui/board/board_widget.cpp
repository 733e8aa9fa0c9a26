// SPDX-License-Identifier: GPL-3.0-or-later
#include "board/board_widget.hpp"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QKeyEvent>
#include <QMimeData>
#include <QMouseEvent>
#include <QPainter>

#include "board/piece_painter.hpp"

namespace egtmin::ui {

namespace {
const QColor kLight(0xee, 0xe2, 0xc8);
const QColor kDark(0xb0, 0x8a, 0x63);
const QColor kLastMove(0xf2, 0xd0, 0x4a, 110);
// Overlay colours per piece slot, distinguishable and readable over both square colours.
const QColor kOverlay[kPieces] = {QColor(0x1f, 0x77, 0xb4), QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd),
                                  QColor(0x17, 0xbe, 0xcf), QColor(0xbc, 0xbd, 0x22), QColor(0x8c, 0x56, 0x4b),
                                  QColor(0xd6, 0x27, 0x28), QColor(0xff, 0x7f, 0x0e), QColor(0xe3, 0x77, 0xc2),
                                  QColor(0x7f, 0x7f, 0x7f), QColor(0x39, 0x3b, 0x79), QColor(0x63, 0x79, 0x39)};
}  // namespace

BoardWidget::BoardWidget(QWidget* parent) : QWidget(parent) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(false);
  QSizePolicy sp(QSizePolicy::Expanding, QSizePolicy::Expanding);
  sp.setHeightForWidth(true);
  setSizePolicy(sp);
  setAccessibleName(tr("Chess board"));
  setAcceptDrops(true);
}

void BoardWidget::setPosition(const Position& pos) {
  pos_ = pos;
  update();
}

void BoardWidget::setFlipped(bool f) {
  flipped_ = f;
  update();
}

void BoardWidget::setBrush(const Brush& b) {
  if (b == brush_) return;
  brush_ = b;
  setCursor(b.kind == Brush::None ? Qt::ArrowCursor : Qt::CrossCursor);
  Q_EMIT brushChanged(b);
}

void BoardWidget::setIllegalReason(const QString& reason) {
  illegal_ = reason;
  update();
}

void BoardWidget::setOverlay(const std::vector<Overlay>& overlay) {
  overlay_ = overlay;
  update();
}

QColor BoardWidget::overlayColor(Piece p) { return kOverlay[p % kPieces]; }

void BoardWidget::setLastMove(std::optional<Move> m) {
  lastMove_ = m;
  update();
}

QRectF BoardWidget::boardRect() const {
  // A margin for coordinates; the board stays square and centred whatever the widget's shape.
  const qreal side = std::max<qreal>(8.0, std::min(width(), height()) - 4.0);
  const qreal margin = std::max<qreal>(10.0, side * 0.04);
  const qreal boardSide = side - 2 * margin;
  return QRectF((width() - boardSide) / 2, (height() - boardSide) / 2, boardSide, boardSide);
}

QRectF BoardWidget::squareRect(Square s) const {
  const QRectF b = boardRect();
  const qreal q = b.width() / 8;
  int col = file_of(s), row = row_of(s);
  if (flipped_) {
    col = 7 - col;
    row = 7 - row;
  }
  return QRectF(b.left() + col * q, b.top() + row * q, q, q);
}

Square BoardWidget::squareAt(QPointF p) const {
  const QRectF b = boardRect();
  if (!b.contains(p)) return NoSquare;
  const qreal q = b.width() / 8;
  int col = std::clamp(int((p.x() - b.left()) / q), 0, 7);
  int row = std::clamp(int((p.y() - b.top()) / q), 0, 7);
  if (flipped_) {
    col = 7 - col;
    row = 7 - row;
  }
  return Square(row * 8 + col);
}

void BoardWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing, true);
  const QRectF b = boardRect();
  const qreal q = b.width() / 8;
  for (int s = 0; s < 64; ++s) {
    const bool light = ((file_of(Square(s)) + row_of(Square(s))) & 1) == 0;
    p.fillRect(squareRect(Square(s)), light ? kLight : kDark);
  }
  if (lastMove_) {
    p.fillRect(squareRect(lastMove_->from), kLastMove);
    p.fillRect(squareRect(lastMove_->to), kLastMove);
  }
  // Overlay: each piece's allowed squares as a small dot in the piece's colour, placed at a
  // per-piece offset inside the square so several pieces' sets stay readable together.
  for (size_t i = 0; i < overlay_.size(); ++i) {
    const auto& o = overlay_[i];
    QColor c = kOverlay[o.piece % kPieces];
    c.setAlpha(200);
    p.setPen(Qt::NoPen);
    p.setBrush(c);
    const qreal dot = q / 6;
    const int slot = int(i % 9);
    const QPointF off(q * (0.2 + 0.3 * (slot % 3)), q * (0.2 + 0.3 * (slot / 3)));
    for (Bitboard bits = o.squares; bits;) {
      Square s = pop_lsb(bits);
      p.drawEllipse(squareRect(s).topLeft() + off, dot / 2, dot / 2);
    }
  }
  // Coordinates along the edges.
  QFont f = font();
  f.setPixelSize(std::max(8, int(q * 0.2)));
  p.setFont(f);
  p.setPen(palette().color(QPalette::WindowText));
  for (int i = 0; i < 8; ++i) {
    const int file = flipped_ ? 7 - i : i;
    const int rank = flipped_ ? i : 7 - i;
    p.drawText(QRectF(b.left() + i * q, b.bottom(), q, b.top() > 0 ? (height() - b.bottom()) : q * 0.3),
               Qt::AlignHCenter | Qt::AlignTop, QString(QChar('a' + file)));
    p.drawText(QRectF(0, b.top() + i * q, b.left() - 2, q), Qt::AlignRight | Qt::AlignVCenter,
               QString::number(rank + 1));
  }
  const PiecePainter& pieces = PiecePainter::instance();
  for (int s = 0; s < 64; ++s) {
    Piece pc = pos_.at(Square(s));
    if (pc == NoPiece) continue;
    const bool lifted = dragging_ && s == pressSquare_;
    pieces.draw(p, squareRect(Square(s)), pc, lifted ? 0.3 : 1.0);
  }
  // Side to move: a small disc beside the board edge of the side to move.
  {
    const bool whiteToMove = pos_.side_to_move() == White;
    const bool atBottom = whiteToMove != flipped_;
    // Just outside the board's right edge, within the coordinate margin.
    const qreal margin = b.left() > 0 ? std::min(b.left(), q * 0.5) : q * 0.3;
    const qreal r = std::max<qreal>(2.0, margin * 0.3);
    QPointF c(b.right() + margin / 2, atBottom ? b.bottom() - q / 2 : b.top() + q / 2);
    p.setPen(QPen(Qt::black, 1));
    p.setBrush(whiteToMove ? Qt::white : Qt::black);
    p.drawEllipse(c, r, r);
  }
  if (!illegal_.isEmpty()) {
    p.setPen(QPen(QColor(0xd0, 0x20, 0x20), std::max<qreal>(2.0, q * 0.06)));
    p.setBrush(Qt::NoBrush);
    p.drawRect(b);
  }
  if (dragging_ && pressSquare_ != NoSquare && pos_.at(pressSquare_) != NoPiece) {
    pieces.draw(p, QRectF(dragPos_ - QPointF(q / 2, q / 2), QSizeF(q, q)), pos_.at(pressSquare_));
  }
}

void BoardWidget::mousePressEvent(QMouseEvent* e) {
  const Square s = squareAt(e->position());
  if (e->button() == Qt::RightButton) {
    // Right-click removes; a quick way to erase without changing the brush.
    if (s != NoSquare && pos_.at(s) != NoPiece) Q_EMIT removeRequested(s);
    return;
  }
  if (e->button() != Qt::LeftButton) return;
  setFocus(Qt::MouseFocusReason);
  pressSquare_ = s;
  pressPos_ = dragPos_ = e->position();
  dragging_ = false;
}

void BoardWidget::mouseMoveEvent(QMouseEvent* e) {
  if (pressSquare_ == NoSquare || pos_.at(pressSquare_) == NoPiece) return;
  dragPos_ = e->position();
  // A few pixels of jitter is still a click, so a sticky brush can paint on occupied squares.
  if (!dragging_ && (dragPos_ - pressPos_).manhattanLength() >= 4) dragging_ = true;
  if (dragging_) update();
}

void BoardWidget::mouseReleaseEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  const Square from = pressSquare_;
  const bool wasDrag = dragging_;
  pressSquare_ = NoSquare;
  dragging_ = false;
  update();
  if (from == NoSquare) return;
  const Square to = squareAt(e->position());
  if (wasDrag) {
    if (to == NoSquare)
      Q_EMIT removeRequested(from);  // dropped off the board
    else if (to != from)
      Q_EMIT moveRequested(from, to);
    return;
  }
  if (to != from) return;
  if (brush_.kind == Brush::Place) {
    Q_EMIT placeRequested(to, brush_.piece);
  } else if (brush_.kind == Brush::Erase) {
    Q_EMIT removeRequested(to);
  }
}

void BoardWidget::keyPressEvent(QKeyEvent* e) {
  // Piece letters pick a brush while the board has focus: upper case (Shift) for White, as in FEN.
  const QString t = e->text();
  if (t.size() == 1) {
    char c = t[0].toLatin1();
    // Shift means White even where the platform reports the unshifted text.
    if ((e->modifiers() & Qt::ShiftModifier) && c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
    Piece p = piece_from_char(c);
    if (p != NoPiece) {
      setBrush({Brush::Place, p});
      return;
    }
    if (c == 'x' || c == 'X') {
      setBrush({Brush::Erase, NoPiece});
      return;
    }
  }
  if (e->key() == Qt::Key_Escape) {
    setBrush({});
    return;
  }
  QWidget::keyPressEvent(e);
}

namespace {
Piece droppedPiece(const QMimeData* mime) {
  if (!mime || !mime->hasFormat(QLatin1String(BoardWidget::kPieceMime))) return NoPiece;
  const QByteArray d = mime->data(QLatin1String(BoardWidget::kPieceMime));
  return d.size() == 1 ? piece_from_char(d[0]) : NoPiece;
}
}  // namespace

void BoardWidget::dragEnterEvent(QDragEnterEvent* e) {
  if (droppedPiece(e->mimeData()) != NoPiece) e->acceptProposedAction();
}

void BoardWidget::dragMoveEvent(QDragMoveEvent* e) {
  if (droppedPiece(e->mimeData()) != NoPiece && squareAt(e->position()) != NoSquare)
    e->acceptProposedAction();
  else
    e->ignore();
}

void BoardWidget::dropEvent(QDropEvent* e) {
  const Piece p = droppedPiece(e->mimeData());
  const Square s = squareAt(e->position());
  if (p == NoPiece || s == NoSquare) return;
  e->acceptProposedAction();
  Q_EMIT placeRequested(s, p);
}

}  // namespace egtmin::ui
