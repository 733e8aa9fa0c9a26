// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/pass_picker.hpp"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QVBoxLayout>

#include "logic/passes.hpp"

namespace egtmin::ui {

namespace {
struct Preset {
  const char* name;
  const char* passes;
};
// "paper default" is the sequence the paper reports; the others are common alternatives.
constexpr Preset kPresets[] = {
    {"paper default", "canon,compact,expand,irredundant"},
    {"espresso", "canon,compact,espresso"},
    {"compact only", "canon,compact"},
    {"full loop", "canon,compact,expand,irredundant,essential,reduce,expand,irredundant"},
    {"tables only (no minimization)", ""},
};
constexpr const char* kPasses[] = {"canon", "compact", "expand", "irredundant", "reduce", "essential", "espresso"};
}  // namespace

PassPicker::PassPicker(QWidget* parent) : QWidget(parent) {
  presets_ = new QComboBox(this);
  for (const Preset& p : kPresets) presets_->addItem(tr(p.name), QString::fromLatin1(p.passes));
  presets_->addItem(tr("custom"));
  edit_ = new QLineEdit(this);
  edit_->setObjectName("passes");
  edit_->setPlaceholderText(tr("empty: only generate tables"));
  edit_->setClearButtonEnabled(true);
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setStyleSheet("color: #b01010;");
  auto* buttons = new QHBoxLayout;
  buttons->setSpacing(2);
  for (const char* p : kPasses) {
    auto* b = new QToolButton(this);
    b->setText(QString::fromLatin1(p));
    b->setToolTip(tr("Append %1 to the sequence").arg(QString::fromLatin1(p)));
    connect(b, &QToolButton::clicked, this, [this, p] {
      QString s = edit_->text().trimmed();
      setPasses(s.isEmpty() ? QString::fromLatin1(p) : s + QLatin1Char(',') + QString::fromLatin1(p));
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
  layout->addLayout(buttons, 2, 1);
  layout->addWidget(message_, 3, 1);
  layout->setColumnStretch(1, 1);

  connect(presets_, &QComboBox::activated, this, &PassPicker::applyPreset);
  connect(edit_, &QLineEdit::textEdited, this, [this] {
    presets_->setCurrentIndex(presets_->count() - 1);
    validate();
  });
  applyPreset(0);
}

QString PassPicker::passes() const { return edit_->text().trimmed(); }

void PassPicker::setPasses(const QString& list) {
  edit_->setText(list);
  // Show the matching preset, else "custom".
  int match = presets_->count() - 1;
  for (int i = 0; i + 1 < presets_->count(); ++i)
    if (presets_->itemData(i).toString() == list.trimmed()) match = i;
  presets_->setCurrentIndex(match);
  validate();
}

void PassPicker::applyPreset(int index) {
  if (index < 0 || index + 1 >= presets_->count()) return;
  setPasses(presets_->itemData(index).toString());
}

void PassPicker::validate() {
  const QString s = passes();
  if (s.isEmpty()) {
    valid_ = true;
    message_->clear();
  } else {
    auto r = logic::parse_passes(s.toStdString());
    valid_ = r.ok();
    message_->setText(valid_ ? QString() : QString::fromStdString(r.error().message));
  }
  Q_EMIT changed();
}

}  // namespace egtmin::ui
