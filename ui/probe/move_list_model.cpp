// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/move_list_model.hpp"
#include "enum_text.hpp"

#include <QBrush>
#include <QColor>

namespace egtmin::ui {

namespace {
QColor groupColor(MoveGroup g) {
  switch (g) {
    case MoveGroup::Win: return QColor(0xd8, 0xf0, 0xd8);
    case MoveGroup::CursedWin: return QColor(0xe8, 0xf4, 0xd0);
    case MoveGroup::Draw: return QColor(0xee, 0xee, 0xee);
    case MoveGroup::BlessedLoss: return QColor(0xf8, 0xe8, 0xd0);
    case MoveGroup::Loss: return QColor(0xf6, 0xd6, 0xd6);
    case MoveGroup::Unknown: break;
  }
  return {};
}
}  // namespace

MoveListModel::MoveListModel(QObject* parent) : QAbstractTableModel(parent) {}

void MoveListModel::setResult(const ProbeResult& r) {
  beginResetModel();
  result_ = r;
  endResetModel();
}

void MoveListModel::setSourceName(const QString& n) {
  sourceName_ = n;
  Q_EMIT headerDataChanged(Qt::Horizontal, ColOurs, ColOurs);
}

const ProbeMove* MoveListModel::moveAt(int row) const {
  return row >= 0 && row < int(result_.moves.size()) ? &result_.moves[row] : nullptr;
}

int MoveListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(result_.moves.size());
}

int MoveListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant MoveListModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
  const ProbeMove& m = result_.moves[index.row()];
  if (role == GroupRole) return int(m.group);
  if (role == Qt::BackgroundRole) {
    QColor c = groupColor(m.group);
    return c.isValid() ? QVariant(QBrush(c)) : QVariant();
  }
  if (role == Qt::ForegroundRole) {
    if (m.agree == Agreement::Disagree) return QBrush(QColor(0xb0, 0x00, 0x00));
    return QBrush(QColor(Qt::black));  // readable on the light group tints in dark themes too
  }
  if (role == Qt::TextAlignmentRole && (index.column() == ColDtz || index.column() == ColAgree))
    return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole) {
    if (index.column() == ColOurs && !m.ours) return m.oursMessage;
    if (index.column() == ColOurs) return QString::fromLatin1(wdl_meaning(*m.ours));
    if (index.column() == ColSyzygy && m.syzygy) return QString::fromLatin1(wdl_meaning(to_wdl(*m.syzygy)));
    if (index.column() == ColDtz)
      return tr(
          "Distance to zeroing (capture or pawn move) in plies for the side playing this move, "
          "as Syzygy counts it; positive when winning.");
    if (index.column() == ColAgree && m.agree == Agreement::Disagree)
      return tr("%1 and Syzygy disagree on this move").arg(sourceName_);
    return {};
  }
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case ColMove: return m.text;
    case ColGroup: return moveGroupName(m.group);
    case ColOurs: return m.ours ? enumText(*m.ours) : QStringLiteral("—");
    case ColSyzygy: return m.syzygy ? enumText(*m.syzygy) : QStringLiteral("—");
    case ColDtz: return m.dtz ? QVariant(*m.dtz) : QVariant(QStringLiteral("—"));
    case ColAgree:
      return m.agree == Agreement::Agree      ? QStringLiteral("✓")
             : m.agree == Agreement::Disagree ? QStringLiteral("✗ differs")
                                              : QString();
  }
  return {};
}

QVariant MoveListModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, o, role);
  switch (section) {
    case ColMove: return tr("Move");
    case ColGroup: return tr("Group");
    case ColOurs: return tr("Ours (%1)").arg(sourceName_);
    case ColSyzygy: return tr("Syzygy WDL");
    case ColDtz: return tr("DTZ (plies)");
    case ColAgree: return tr("Agree");
  }
  return {};
}

}  // namespace egtmin::ui
