// SPDX-License-Identifier: GPL-3.0-or-later
#include "board/board_editor.hpp"

#include <QUndoCommand>

namespace egtmin::ui {

// Stores whole positions before and after: a position is a few hundred bytes, and whole-state
// commands cannot drift out of sync the way incremental ones can.
class SetPositionCommand : public QUndoCommand {
 public:
  SetPositionCommand(BoardEditor* ed, const Position& before, const Position& after, const QString& text)
      : QUndoCommand(text), ed_(ed), before_(before), after_(after) {}
  void redo() override { ed_->apply(after_); }
  void undo() override { ed_->apply(before_); }

 private:
  BoardEditor* ed_;
  Position before_, after_;
};

namespace {
// After any manual edit an en-passant square is almost never still meaningful; dropping it keeps
// edited positions legal instead of tripping illegal_reason on a stale square.
Position withoutEp(Position p) {
  p.set_ep_square(NoSquare);
  return p;
}
}  // namespace

BoardEditor::BoardEditor(QObject* parent) : QObject(parent) {
  auto start = Position::from_fen("8/8/8/4k3/8/8/8/4K2Q w - - 0 1");
  if (start) pos_ = *start;
}

QString BoardEditor::illegalReason() const {
  auto why = pos_.illegal_reason();
  return why ? QString::fromStdString(*why) : QString();
}

QString BoardEditor::fen() const { return QString::fromStdString(pos_.fen()); }

bool BoardEditor::setFen(const QString& text, QString* error) {
  auto r = Position::from_fen(text.toStdString());
  if (!r) {
    if (error) *error = QString::fromStdString(r.error().message);
    return false;
  }
  setPosition(*r, tr("set FEN"));
  return true;
}

void BoardEditor::setPosition(const Position& pos, const QString& what) {
  if (pos == pos_) return;
  undo_.push(new SetPositionCommand(this, pos_, pos, what));
}

void BoardEditor::apply(const Position& pos) {
  pos_ = pos;
  Q_EMIT positionChanged(pos_);
}

void BoardEditor::put(Square s, Piece p) {
  if (!is_ok(s) || p >= kPieces) return;
  Position n = withoutEp(pos_);
  n.put(s, p);
  setPosition(n, tr("put %1 on %2").arg(QChar(piece_char(p))).arg(QString::fromStdString(square_name(s))));
}

void BoardEditor::remove(Square s) {
  if (!is_ok(s) || pos_.at(s) == NoPiece) return;
  Position n = withoutEp(pos_);
  n.remove(s);
  setPosition(n, tr("remove from %1").arg(QString::fromStdString(square_name(s))));
}

void BoardEditor::movePiece(Square from, Square to) {
  if (!is_ok(from) || !is_ok(to) || from == to) return;
  Piece p = pos_.at(from);
  if (p == NoPiece) return;
  Position n = withoutEp(pos_);
  n.remove(from);
  n.put(to, p);
  setPosition(
      n, tr("move %1 to %2").arg(QString::fromStdString(square_name(from)), QString::fromStdString(square_name(to))));
}

void BoardEditor::toggleSideToMove() {
  Position n = withoutEp(pos_);
  n.set_side_to_move(~pos_.side_to_move());
  setPosition(n, tr("side to move"));
}

void BoardEditor::mirror() {
  Position n;
  for (int s = 0; s < 64; ++s)
    if (pos_.at(Square(s)) != NoPiece) n.put(flip_file(Square(s)), pos_.at(Square(s)));
  n.set_side_to_move(pos_.side_to_move());
  if (pos_.ep_square() != NoSquare) n.set_ep_square(flip_file(pos_.ep_square()));
  setPosition(n, tr("mirror"));
}

void BoardEditor::swapColors() { setPosition(pos_.color_flipped(), tr("swap colours")); }

void BoardEditor::clear() {
  Position n;
  n.set_side_to_move(pos_.side_to_move());
  setPosition(n, tr("clear"));
}

}  // namespace egtmin::ui
