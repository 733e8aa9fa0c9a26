// SPDX-License-Identifier: GPL-3.0-or-later
#include "board/piece_palette.hpp"

#include <QApplication>
#include <QDrag>
#include <QGridLayout>
#include <QIcon>
#include <QMimeData>
#include <QMouseEvent>
#include <QPainter>
#include <QPixmap>
#include <QToolButton>

#include "board/piece_painter.hpp"

namespace egtmin::ui {

namespace {
const char* kNames[kPieceTypes] = {"king", "queen", "rook", "bishop", "knight", "pawn"};

QIcon pieceIcon(Piece p) {
  QIcon icon;
  for (int size : {24, 32, 48, 64}) {
    QPixmap pm(size, size);
    pm.fill(Qt::transparent);
    QPainter painter(&pm);
    if (p == NoPiece) {
      // Eraser: a red cross.
      painter.setRenderHint(QPainter::Antialiasing);
      painter.setPen(QPen(QColor(0xc0, 0x20, 0x20), size / 10.0, Qt::SolidLine, Qt::RoundCap));
      painter.drawLine(QPointF(size * 0.25, size * 0.25), QPointF(size * 0.75, size * 0.75));
      painter.drawLine(QPointF(size * 0.75, size * 0.25), QPointF(size * 0.25, size * 0.75));
    } else {
      PiecePainter::instance().draw(painter, QRectF(0, 0, size, size), p);
    }
    painter.end();
    icon.addPixmap(pm);
  }
  return icon;
}
}  // namespace

PiecePalette::PiecePalette(QWidget* parent) : QWidget(parent) {
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(2);
  for (int i = 0; i <= kPieces; ++i) {
    auto* b = new QToolButton(this);
    b->setCheckable(true);
    b->setAutoRaise(true);
    b->setIconSize(QSize(36, 36));
    const Piece p = i < kPieces ? Piece(i) : NoPiece;
    b->setIcon(pieceIcon(p));
    if (p == NoPiece) {
      b->setToolTip(tr("Eraser: click squares to empty them (X on the board; right-click always erases)"));
      b->setObjectName("palette-eraser");
    } else {
      const QString name = tr("%1 %2").arg(color_of(p) == White ? tr("White") : tr("Black"), kNames[type_of(p)]);
      b->setToolTip(tr("%1: click squares to place (key %2 on the board)").arg(name).arg(QChar(piece_char(p))));
      b->setObjectName(QStringLiteral("palette-%1").arg(QChar(piece_char(p))));
    }
    connect(b, &QToolButton::clicked, this, [this, i] { picked(i); });
    if (p != NoPiece) {
      b->setProperty("piece", int(p));
      b->installEventFilter(this);
    }
    buttons_[i] = b;
    // Two columns beside the board, White left and Black right, K to P downwards; the eraser
    // below. Vertical, so the board keeps the window's height.
    if (i < kPieces)
      grid->addWidget(b, type_of(Piece(i)), color_of(Piece(i)) == White ? 0 : 1);
    else
      grid->addWidget(b, kPieceTypes, 0, 1, 2, Qt::AlignHCenter);
  }
  grid->setRowStretch(kPieceTypes + 1, 1);
}

bool PiecePalette::eventFilter(QObject* watched, QEvent* e) {
  auto* b = qobject_cast<QToolButton*>(watched);
  if (!b) return false;
  if (e->type() == QEvent::MouseButtonPress) {
    pressPos_ = static_cast<QMouseEvent*>(e)->position().toPoint();
  } else if (e->type() == QEvent::MouseMove) {
    auto* me = static_cast<QMouseEvent*>(e);
    if ((me->buttons() & Qt::LeftButton) &&
        (me->position().toPoint() - pressPos_).manhattanLength() >= QApplication::startDragDistance()) {
      const Piece p = Piece(b->property("piece").toInt());
      auto* mime = new QMimeData;
      mime->setData(QLatin1String(BoardWidget::kPieceMime), QByteArray(1, piece_char(p)));
      auto* drag = new QDrag(b);
      drag->setMimeData(mime);
      drag->setPixmap(b->icon().pixmap(48, 48));
      drag->setHotSpot(QPoint(24, 24));
      b->setDown(false);
      drag->exec(Qt::CopyAction);
      return true;
    }
  }
  return false;
}

QToolButton* PiecePalette::button(Piece p) const { return buttons_[p == NoPiece ? kPieces : p]; }

void PiecePalette::picked(int id) {
  BoardWidget::Brush b;
  if (id == kPieces)
    b = {BoardWidget::Brush::Erase, NoPiece};
  else
    b = {BoardWidget::Brush::Place, Piece(id)};
  // Picking the active brush again puts it down.
  if (b == current_) b = {};
  showBrush(b);
  Q_EMIT brushPicked(b);
}

void PiecePalette::showBrush(const BoardWidget::Brush& b) {
  current_ = b;
  for (int i = 0; i <= kPieces; ++i) {
    bool on =
        (b.kind == BoardWidget::Brush::Erase && i == kPieces) || (b.kind == BoardWidget::Brush::Place && i == b.piece);
    buttons_[i]->setChecked(on);
  }
}

}  // namespace egtmin::ui
