// SPDX-License-Identifier: GPL-3.0-or-later
// Checkable tree of every canonical balance up to five pieces, grouped by piece count, with a
// filter box ("KR", "kp" ...). Parents check or uncheck their whole group.
#pragma once

#include <QStringList>
#include <QWidget>

class QLineEdit;
class QSortFilterProxyModel;
class QStandardItem;
class QStandardItemModel;
class QTreeView;

namespace egtmin::ui {

class BalancePicker : public QWidget {
  Q_OBJECT
 public:
  explicit BalancePicker(QWidget* parent = nullptr);

  QStringList checked() const;  // canonical names, smallest first
  void setChecked(const QString& name, bool on);
  void clearChecks();

  QLineEdit* filterEdit() const { return filter_; }
  QStandardItemModel* model() const { return model_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  QTreeView* view() const { return view_; }

 Q_SIGNALS:
  void selectionChanged();

 private:
  void itemChanged(QStandardItem* item);

  QStandardItemModel* model_;
  QSortFilterProxyModel* proxy_;
  QTreeView* view_;
  QLineEdit* filter_;
  bool syncing_ = false;
};

}  // namespace egtmin::ui
