// SPDX-License-Identifier: GPL-3.0-or-later
// Draws chess pieces as vector outlines at any size. The shapes are the Unicode chess glyphs of
// DejaVu Sans (Debian's fonts-dejavu-core), turned into painter paths so they scale crisply and
// no bitmap images are shipped.
#pragma once

#include <QPainterPath>
#include <QRectF>
#include <array>

#include "chess/types.hpp"

class QPainter;

namespace egtmin::ui {

class PiecePainter {
 public:
  // The shared instance; building the paths loads the font once.
  static const PiecePainter& instance();

  // Draws piece p filling rect (a square), white pieces light with a dark outline.
  void draw(QPainter& painter, const QRectF& rect, Piece p, qreal opacity = 1.0) const;

  // True when the glyph font was found; otherwise pieces are drawn as letters in discs.
  bool hasGlyphs() const { return glyphs_; }

 private:
  PiecePainter();
  // Per piece type: the solid silhouette (the "black" glyph) and the outline (the "white" glyph),
  // both normalized to the unit square.
  std::array<QPainterPath, kPieceTypes> solid_;
  std::array<QPainterPath, kPieceTypes> outline_;
  bool glyphs_ = false;
};

}  // namespace egtmin::ui
