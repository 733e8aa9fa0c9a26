// SPDX-License-Identifier: GPL-3.0-or-later
// Chooses the pass sequence: presets, one button per pass to append it (passes may repeat), and
// the editable sequence itself, validated by core's parser as you type.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;

namespace egtmin::ui {

class PassPicker : public QWidget {
  Q_OBJECT
 public:
  explicit PassPicker(QWidget* parent = nullptr);

  // The sequence ("" = generate tables only); valid() says whether core accepts it.
  QString passes() const;
  bool valid() const { return valid_; }
  void setPasses(const QString& list);
  void applyPreset(int index);

  QComboBox* presetBox() const { return presets_; }
  QLineEdit* edit() const { return edit_; }

 Q_SIGNALS:
  void changed();

 private:
  void validate();

  QComboBox* presets_;
  QLineEdit* edit_;
  QLabel* message_;
  bool valid_ = true;
};

}  // namespace egtmin::ui
