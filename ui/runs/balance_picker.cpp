// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/balance_picker.hpp"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>

#include "chess/balance.hpp"

namespace egtmin::ui {

BalancePicker::BalancePicker(QWidget* parent) : QWidget(parent) {
  model_ = new QStandardItemModel(this);
  model_->setHorizontalHeaderLabels({tr("Balance")});
  QStandardItem* groups[6] = {};
  for (const Balance& b : Balance::all_up_to(5)) {
    const int n = b.pieces();
    if (!groups[n]) {
      groups[n] = new QStandardItem(tr("%1 pieces").arg(n));
      groups[n]->setCheckable(true);
      groups[n]->setAutoTristate(true);
      groups[n]->setEditable(false);
      model_->appendRow(groups[n]);
    }
    auto* item = new QStandardItem(QString::fromStdString(b.name()));
    item->setCheckable(true);
    item->setEditable(false);
    groups[n]->appendRow(item);
  }
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy_->setRecursiveFilteringEnabled(true);
  view_ = new QTreeView(this);
  view_->setModel(proxy_);
  view_->header()->hide();
  view_->setUniformRowHeights(true);
  filter_ = new QLineEdit(this);
  filter_->setPlaceholderText(tr("Filter balances, e.g. KR or p"));
  filter_->setClearButtonEnabled(true);
  connect(filter_, &QLineEdit::textChanged, this, [this](const QString& t) {
    proxy_->setFilterFixedString(t);
    if (!t.isEmpty()) view_->expandAll();
  });
  connect(model_, &QStandardItemModel::itemChanged, this, &BalancePicker::itemChanged);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(filter_);
  layout->addWidget(view_, 1);
  // Small sets are the common case: show them open.
  for (int r = 0; r < 2 && r < proxy_->rowCount(); ++r) view_->expand(proxy_->index(r, 0));
}

void BalancePicker::itemChanged(QStandardItem* item) {
  if (syncing_) return;
  syncing_ = true;
  if (item->hasChildren()) {
    // A group: apply to the visible (filtered) children only, which is what the user sees.
    const Qt::CheckState s = item->checkState();
    if (s != Qt::PartiallyChecked) {
      for (int r = 0; r < item->rowCount(); ++r) {
        QStandardItem* c = item->child(r);
        if (proxy_->mapFromSource(c->index()).isValid()) c->setCheckState(s);
      }
    }
  }
  // Keep each group's tristate in step with its children.
  for (int g = 0; g < model_->rowCount(); ++g) {
    QStandardItem* group = model_->item(g);
    int on = 0;
    for (int r = 0; r < group->rowCount(); ++r) on += group->child(r)->checkState() == Qt::Checked;
    group->setCheckState(on == 0 ? Qt::Unchecked : on == group->rowCount() ? Qt::Checked : Qt::PartiallyChecked);
  }
  syncing_ = false;
  Q_EMIT selectionChanged();
}

QStringList BalancePicker::checked() const {
  QStringList out;
  for (int g = 0; g < model_->rowCount(); ++g) {
    QStandardItem* group = model_->item(g);
    for (int r = 0; r < group->rowCount(); ++r)
      if (group->child(r)->checkState() == Qt::Checked) out << group->child(r)->text();
  }
  return out;
}

void BalancePicker::setChecked(const QString& name, bool on) {
  auto b = Balance::parse(name.toStdString());
  if (!b) return;
  const QString canon = QString::fromStdString(b->canonical().name());
  for (int g = 0; g < model_->rowCount(); ++g) {
    QStandardItem* group = model_->item(g);
    for (int r = 0; r < group->rowCount(); ++r)
      if (group->child(r)->text() == canon) group->child(r)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
  }
}

void BalancePicker::clearChecks() {
  for (const QString& n : checked()) setChecked(n, false);
}

}  // namespace egtmin::ui
