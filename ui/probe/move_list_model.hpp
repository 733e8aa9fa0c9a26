// SPDX-License-Identifier: GPL-3.0-or-later
// Every legal move of the probed position with both sources' values, already sorted best first
// (see ProbeEngine). Rows are tinted by group; disagreements are marked in their own column.
#pragma once

#include <QAbstractTableModel>

#include "probe/probe_result.hpp"

namespace egtmin::ui {

class MoveListModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { ColMove = 0, ColGroup, ColOurs, ColSyzygy, ColDtz, ColAgree, ColumnCount };
  // Sort key of the group (0 = win .. 5 = unknown), for proxies and tests.
  static constexpr int GroupRole = Qt::UserRole + 1;

  explicit MoveListModel(QObject* parent = nullptr);

  void setResult(const ProbeResult& r);
  const ProbeResult& result() const { return result_; }
  const ProbeMove* moveAt(int row) const;
  void setSourceName(const QString& n);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

 private:
  ProbeResult result_;
  QString sourceName_ = QStringLiteral("ours");
};

}  // namespace egtmin::ui
