// SPDX-License-Identifier: GPL-3.0-or-later
// Table model over a cover's cubes. Holds only the 64-bit words; every column is decoded when a
// view asks for it, so a large cover opens and scrolls without decoding every cube.
#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "covers/cube_decoder.hpp"

namespace egtmin::ui {

class CoverModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  // Fixed columns, then one per piece.
  enum Column { ColIndex = 0, ColOutput, ColLiterals, ColSide, ColFirstPiece };
  static constexpr int OutputRole = Qt::UserRole + 1;  // int(logic::Output), for filtering
  static constexpr int CubeRole = Qt::UserRole + 2;    // the raw word (quint64)

  explicit CoverModel(QObject* parent = nullptr);

  void setCover(const Balance& b, std::vector<logic::CubeWord> cubes);
  void clear();
  const CubeDecoder& decoder() const { return decoder_; }
  const std::vector<logic::CubeWord>& cubes() const { return cubes_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

 private:
  CubeDecoder decoder_;
  std::vector<logic::CubeWord> cubes_;
};

}  // namespace egtmin::ui
