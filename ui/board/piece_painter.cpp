// SPDX-License-Identifier: GPL-3.0-or-later
#include "board/piece_painter.hpp"

#include <QFile>
#include <QFont>
#include <QFontDatabase>
#include <QFontMetricsF>
#include <QPainter>
#include <QRawFont>

namespace egtmin::ui {

namespace {

// U+2654 (white king) .. U+2659 (white pawn) and U+265A .. U+265F for black, in K Q R B N P order,
// which is also egtmin's PieceType order.
constexpr char16_t kOutlineGlyph[kPieceTypes] = {0x2654, 0x2655, 0x2656, 0x2657, 0x2658, 0x2659};
constexpr char16_t kSolidGlyph[kPieceTypes] = {0x265A, 0x265B, 0x265C, 0x265D, 0x265E, 0x265F};

QString findDejaVu() {
  for (const char* f : {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
                        "/usr/share/fonts/dejavu/DejaVuSans.ttf"}) {
    if (QFile::exists(QString::fromLatin1(f))) return QString::fromLatin1(f);
  }
  return {};
}

// Glyph path scaled so the union of all pieces' boxes fits the unit square with a margin; the same
// scale for every piece keeps pawns smaller than kings, as on a real board.
QPainterPath glyphPath(const QRawFont& font, char16_t ch) {
  QList<quint32> idx = font.glyphIndexesForString(QString(QChar(ch)));
  if (idx.isEmpty() || idx[0] == 0) return {};
  return font.pathForGlyph(idx[0]);
}

}  // namespace

const PiecePainter& PiecePainter::instance() {
  static PiecePainter p;
  return p;
}

PiecePainter::PiecePainter() {
  QRawFont font;
  const QString file = findDejaVu();
  if (!file.isEmpty()) font.loadFromFile(file, 100, QFont::PreferDefaultHinting);
  if (!font.isValid()) {
    // Any installed font with the glyphs will do (fontconfig knows DejaVu by name).
    font = QRawFont::fromFont(QFont(QStringLiteral("DejaVu Sans"), 100));
  }
  if (!font.isValid()) return;
  QRectF all;
  std::array<QPainterPath, kPieceTypes> solid, outline;
  for (int t = 0; t < kPieceTypes; ++t) {
    solid[t] = glyphPath(font, kSolidGlyph[t]);
    outline[t] = glyphPath(font, kOutlineGlyph[t]);
    if (solid[t].isEmpty() || outline[t].isEmpty()) return;
    all = all.united(solid[t].boundingRect()).united(outline[t].boundingRect());
  }
  const qreal side = std::max(all.width(), all.height());
  for (int t = 0; t < kPieceTypes; ++t) {
    // Each piece is centred horizontally on its own box and sits on the common baseline.
    QRectF own = solid[t].boundingRect().united(outline[t].boundingRect());
    // Map: x -> centred at 0.5, y -> bottom of the tallest piece at 0.93.
    QTransform m;
    m.translate(0.5, 0.93);
    m.scale(0.86 / side, 0.86 / side);
    m.translate(-own.center().x(), -all.bottom());
    solid_[t] = m.map(solid[t]);
    outline_[t] = m.map(outline[t]);
  }
  glyphs_ = true;
}

void PiecePainter::draw(QPainter& painter, const QRectF& rect, Piece p, qreal opacity) const {
  if (p >= kPieces) return;
  painter.save();
  painter.setOpacity(opacity);
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.translate(rect.topLeft());
  painter.scale(rect.width(), rect.height());
  const bool white = color_of(p) == White;
  const int t = type_of(p);
  if (glyphs_) {
    painter.setPen(Qt::NoPen);
    // White: a light silhouette under the outline glyph; black: the dark silhouette with a thin
    // light rim so it stays visible on dark squares.
    if (white) {
      painter.setBrush(QColor(0xfa, 0xfa, 0xf5));
      painter.drawPath(solid_[t]);
      painter.setBrush(QColor(0x20, 0x20, 0x20));
      painter.drawPath(outline_[t]);
    } else {
      painter.setPen(QPen(QColor(0xf0, 0xf0, 0xf0, 160), 0.012));
      painter.setBrush(QColor(0x15, 0x15, 0x15));
      painter.drawPath(solid_[t]);
    }
  } else {
    painter.setPen(QPen(Qt::black, 0.03));
    painter.setBrush(white ? QColor(Qt::white) : QColor(Qt::black));
    painter.drawEllipse(QRectF(0.12, 0.12, 0.76, 0.76));
    QFont f = painter.font();
    f.setPixelSize(40);
    painter.scale(0.01, 0.01);
    painter.setFont(f);
    painter.setPen(white ? Qt::black : Qt::white);
    painter.drawText(QRectF(0, 0, 100, 100), Qt::AlignCenter, QString(QChar(type_char(PieceType(t)))));
  }
  painter.restore();
}

}  // namespace egtmin::ui
