// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/pass_picker.hpp"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QScrollBar>
#include <QShortcut>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include "logic/pass_sequence.hpp"

namespace egtmin::ui {

namespace {
QString qstr(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

QStringList split(const QString& text) {
  QStringList out;
  for (const QString& p : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
    if (!p.trimmed().isEmpty()) out << p.trimmed();
  return out;
}
}  // namespace

PassPicker::PassPicker(QWidget* parent) : QWidget(parent) {
  presets_ = new QComboBox(this);
  for (const logic::PassPreset& p : logic::pass_presets())
    presets_->addItem(qstr(p.name), QString::fromStdString(logic::passes_string(p.passes)));
  presets_->addItem(tr("custom"));
  edit_ = new QLineEdit(this);
  edit_->setObjectName("passes");
  edit_->setPlaceholderText(tr("empty: only generate tables"));
  edit_->setClearButtonEnabled(true);
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setStyleSheet("color: #b01010;");

  // The sequence as a row of items, reordered by dragging them.
  list_ = new QListWidget(this);
  list_->setObjectName("pass-list");
  list_->setFlow(QListView::LeftToRight);
  list_->setWrapping(false);
  list_->setSpacing(2);
  list_->setSelectionMode(QAbstractItemView::SingleSelection);
  list_->setDragEnabled(true);
  list_->setAcceptDrops(true);
  list_->setDropIndicatorShown(true);
  list_->setDragDropMode(QAbstractItemView::InternalMove);
  list_->setDefaultDropAction(Qt::MoveAction);
  list_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  list_->setToolTip(
      tr("The passes in the order they run: drag one to move it (or select it and use "
         "Ctrl+Left / Ctrl+Right; Delete removes it)"));
  list_->setStyleSheet(
      QStringLiteral("QListWidget::item { border: 1px solid palette(mid); border-radius: 3px; padding: 0px 5px; }"));
  // One row of items, and room for the scroll bar long sequences need.
  list_->setFixedHeight(list_->fontMetrics().height() + 8 + 2 * list_->frameWidth() +
                        list_->style()->pixelMetric(QStyle::PM_ScrollBarExtent));
  auto toolButton = [this](Qt::ArrowType arrow, const QString& text, const QString& tip) {
    auto* b = new QToolButton(this);
    if (arrow != Qt::NoArrow)
      b->setArrowType(arrow);
    else
      b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
  };
  earlier_ = toolButton(Qt::LeftArrow, {}, tr("Run the selected pass earlier (Ctrl+Left)"));
  later_ = toolButton(Qt::RightArrow, {}, tr("Run the selected pass later (Ctrl+Right)"));
  remove_ = toolButton(Qt::NoArrow, QStringLiteral("✕"), tr("Remove the selected pass (Delete)"));
  connect(earlier_, &QToolButton::clicked, this, [this] { moveCurrent(-1); });
  connect(later_, &QToolButton::clicked, this, [this] { moveCurrent(+1); });
  connect(remove_, &QToolButton::clicked, this, [this] { removePass(list_->currentRow()); });
  auto shortcut = [this](const QKeySequence& key, auto fn) {
    auto* s = new QShortcut(key, list_);
    s->setContext(Qt::WidgetShortcut);
    connect(s, &QShortcut::activated, this, fn);
  };
  shortcut(QKeySequence(Qt::CTRL | Qt::Key_Left), [this] { moveCurrent(-1); });
  shortcut(QKeySequence(Qt::CTRL | Qt::Key_Right), [this] { moveCurrent(+1); });
  shortcut(QKeySequence(Qt::Key_Delete), [this] { removePass(list_->currentRow()); });
  auto* order = new QHBoxLayout;
  order->setSpacing(2);
  order->addWidget(list_, 1);
  order->addWidget(earlier_);
  order->addWidget(later_);
  order->addWidget(remove_);

  auto* buttons = new QHBoxLayout;
  buttons->setSpacing(2);
  // One button per registered pass (core's logic/pass_registry.hpp), in registration order.
  for (const logic::Pass& pass : logic::registered_passes()) {
    const QString name = qstr(pass.name());
    auto* b = new QToolButton(this);
    b->setObjectName(QStringLiteral("pass-") + name);
    b->setText(name);
    b->setToolTip(tr("Append %1 to the sequence: %2").arg(name, qstr(pass.info().description)));
    connect(b, &QToolButton::clicked, this, [this, name] {
      QString s = edit_->text().trimmed();
      setPasses(s.isEmpty() ? name : s + QLatin1Char(',') + name);
    });
    buttons->addWidget(b);
  }
  buttons->addStretch(1);
  auto* layout = new QGridLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(new QLabel(tr("Preset:"), this), 0, 0);
  layout->addWidget(presets_, 0, 1);
  layout->addWidget(new QLabel(tr("Passes:"), this), 1, 0);
  layout->addWidget(edit_, 1, 1);
  layout->addWidget(new QLabel(tr("Order:"), this), 2, 0);
  layout->addLayout(order, 2, 1);
  layout->addLayout(buttons, 3, 1);
  layout->addWidget(message_, 4, 1);
  layout->setColumnStretch(1, 1);

  connect(presets_, &QComboBox::activated, this, &PassPicker::applyPreset);
  connect(edit_, &QLineEdit::textEdited, this, [this] {
    presets_->setCurrentIndex(presets_->count() - 1);
    fillList();
    validate();
  });
  // A drag ends in moveRows (QListWidget's internal move); any other change to the row's model
  // (drops that insert and remove, removals) is followed the same way.
  QAbstractItemModel* model = list_->model();
  connect(model, &QAbstractItemModel::rowsMoved, this, &PassPicker::listChanged);
  connect(model, &QAbstractItemModel::rowsInserted, this, &PassPicker::listChanged);
  connect(model, &QAbstractItemModel::rowsRemoved, this, &PassPicker::listChanged);
  connect(model, &QAbstractItemModel::dataChanged, this, &PassPicker::listChanged);
  connect(list_, &QListWidget::currentRowChanged, this, &PassPicker::updateButtons);
  applyPreset(0);
}

QString PassPicker::passes() const { return edit_->text().trimmed(); }

QStringList PassPicker::passList() const {
  QStringList out;
  for (int i = 0; i < list_->count(); ++i)
    if (!list_->item(i)->text().isEmpty()) out << list_->item(i)->text();  // empty mid-drop only
  return out;
}

void PassPicker::setPasses(const QString& list) {
  edit_->setText(list);
  // Show the matching preset, else "custom".
  int match = presets_->count() - 1;
  for (int i = 0; i + 1 < presets_->count(); ++i)
    if (presets_->itemData(i).toString() == list.trimmed()) match = i;
  presets_->setCurrentIndex(match);
  fillList();
  validate();
}

void PassPicker::applyPreset(int index) {
  if (index < 0 || index + 1 >= presets_->count()) return;
  setPasses(presets_->itemData(index).toString());
}

void PassPicker::fillList() {
  syncing_ = true;
  list_->clear();
  for (const QString& p : split(edit_->text())) {
    auto* item = new QListWidgetItem(p, list_);
    // Draggable, not a drop target: a drop lands between passes, never onto one.
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
  }
  syncing_ = false;
  updateButtons();
}

void PassPicker::listChanged() {
  if (syncing_) return;
  const QString text = passList().join(QLatin1Char(','));
  if (text == passes()) return;
  edit_->setText(text);
  int match = presets_->count() - 1;
  for (int i = 0; i + 1 < presets_->count(); ++i)
    if (presets_->itemData(i).toString() == text) match = i;
  presets_->setCurrentIndex(match);
  updateButtons();
  validate();
}

bool PassPicker::movePass(int from, int to) {
  const int n = list_->count();
  if (from < 0 || from >= n || to < 0 || to >= n || from == to) return false;
  // moveRow's destination is the row the item is inserted before, in the current numbering.
  const bool ok = list_->model()->moveRow(QModelIndex(), from, QModelIndex(), to > from ? to + 1 : to);
  if (ok) list_->setCurrentRow(to);
  return ok;
}

void PassPicker::removePass(int row) {
  if (row < 0 || row >= list_->count()) return;
  list_->model()->removeRow(row);
  if (list_->count()) list_->setCurrentRow(std::min(row, list_->count() - 1));
}

void PassPicker::moveCurrent(int delta) {
  const int row = list_->currentRow();
  movePass(row, row + delta);
}

void PassPicker::updateButtons() {
  const int row = list_->currentRow(), n = list_->count();
  earlier_->setEnabled(row > 0 && row < n);
  later_->setEnabled(row >= 0 && row + 1 < n);
  remove_->setEnabled(row >= 0 && row < n);
}

void PassPicker::validate() {
  const QString s = passes();
  sequence_ = {};
  if (s.isEmpty()) {
    valid_ = true;
    message_->clear();
  } else {
    auto r = logic::parse_passes(s.toStdString());
    valid_ = r.ok();
    if (valid_) sequence_ = *r;
    message_->setText(valid_ ? QString() : QString::fromStdString(r.error().message));
  }
  Q_EMIT changed();
}

}  // namespace egtmin::ui
