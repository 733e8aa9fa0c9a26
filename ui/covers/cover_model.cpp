// SPDX-License-Identifier: GPL-3.0-or-later
#include "covers/cover_model.hpp"

#include <QBrush>
#include <QColor>

namespace egtmin::ui {

CoverModel::CoverModel(QObject* parent) : QAbstractTableModel(parent) {}

void CoverModel::setCover(const Balance& b, std::vector<logic::CubeWord> cubes) {
  beginResetModel();
  decoder_ = CubeDecoder(b);
  cubes_ = std::move(cubes);
  endResetModel();
}

void CoverModel::clear() {
  beginResetModel();
  decoder_ = CubeDecoder();
  cubes_.clear();
  endResetModel();
}

int CoverModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(cubes_.size()); }

int CoverModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColFirstPiece + int(decoder_.pieces().size());
}

QVariant CoverModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
  const logic::CubeWord c = cubes_[size_t(index.row())];
  const int col = index.column();
  switch (role) {
    case OutputRole: return int(logic::output_of(c));
    case CubeRole: return QVariant::fromValue<quint64>(c);
    case Qt::ToolTipRole: return QString::fromStdString(logic::to_text(c, decoder_.inputs()));
    case Qt::ForegroundRole:
      if (col == ColOutput) {
        switch (logic::output_of(c)) {
          case logic::Output::Win: return QBrush(QColor(0x10, 0x60, 0x10));
          case logic::Output::Loss: return QBrush(QColor(0xa0, 0x10, 0x10));
          default: break;
        }
      }
      return {};
    case Qt::TextAlignmentRole:
      if (col == ColIndex || col == ColLiterals) return int(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    case Qt::DisplayRole: break;
    default: return {};
  }
  switch (col) {
    case ColIndex: return index.row() + 1;
    case ColOutput: return CubeDecoder::outputName(logic::output_of(c));
    case ColLiterals: return logic::literals(c);
    case ColSide: return QString(decoder_.sideToMove(c));
    default: return decoder_.describe(c, col - ColFirstPiece);
  }
}

QVariant CoverModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, o, role);
  switch (section) {
    case ColIndex: return tr("#");
    case ColOutput: return tr("Output");
    case ColLiterals: return tr("Literals");
    case ColSide: return tr("To move");
  }
  const int j = section - ColFirstPiece;
  if (j >= 0 && j < int(decoder_.pieces().size())) return decoder_.pieceLabel(j);
  return {};
}

}  // namespace egtmin::ui
