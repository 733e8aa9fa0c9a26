// SPDX-License-Identifier: GPL-3.0-or-later
// The position being edited, with undo/redo. Every edit goes through here as one undo command, so
// the board, the palette, the FEN field and the probe panel's "play move" all share one history.
#pragma once

#include <QObject>
#include <QString>
#include <QUndoStack>

#include "chess/position.hpp"

namespace egtmin::ui {

class BoardEditor : public QObject {
  Q_OBJECT
 public:
  explicit BoardEditor(QObject* parent = nullptr);

  const Position& position() const { return pos_; }
  QUndoStack* undoStack() { return &undo_; }

  // The reason the current setup is illegal, empty when legal.
  QString illegalReason() const;
  QString fen() const;

  // Parses text with Position::from_fen; on failure returns false, sets *error to core's message
  // and leaves the position unchanged.
  bool setFen(const QString& text, QString* error = nullptr);

 public Q_SLOTS:
  // Replaces the whole position as one undoable step named `what`. No-op when nothing changes.
  void setPosition(const egtmin::Position& pos, const QString& what = tr("set position"));
  void put(egtmin::Square s, egtmin::Piece p);
  void remove(egtmin::Square s);
  void movePiece(egtmin::Square from, egtmin::Square to);
  void toggleSideToMove();
  void mirror();      // files a <-> h
  void swapColors();  // Position::color_flipped: colours swap, ranks mirror, side to move swaps
  void clear();

 Q_SIGNALS:
  void positionChanged(const egtmin::Position& pos);

 private:
  friend class SetPositionCommand;
  void apply(const Position& pos);

  Position pos_;
  QUndoStack undo_;
};

}  // namespace egtmin::ui
