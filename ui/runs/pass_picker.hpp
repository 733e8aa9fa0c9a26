// SPDX-License-Identifier: GPL-3.0-or-later
// Chooses the pass sequence: presets, one button per pass to append it (passes may repeat), the
// editable sequence as text, validated by core's parser as you type, and the same sequence as a
// row of items the user reorders by dragging (or with the buttons beside it, Ctrl+Left/Right,
// Delete). Text and row stay in step; the text, parsed here once, is what a run uses.
#pragma once

#include <QStringList>
#include <QWidget>

#include "logic/pass_sequence.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QToolButton;

namespace egtmin::ui {

class PassPicker : public QWidget {
  Q_OBJECT
 public:
  explicit PassPicker(QWidget* parent = nullptr);

  // The text ("" = generate tables only); valid() says whether core accepts it, and sequence()
  // is the passes it names (empty while it names none, or is not valid).
  QString passes() const;
  bool valid() const { return valid_; }
  const logic::PassSequence& sequence() const { return sequence_; }
  void setPasses(const QString& list);
  void applyPreset(int index);

  // The sequence as the reorderable row shows it, one entry per pass.
  QStringList passList() const;
  // Moves the pass at `from` so it ends up at index `to` (through the model, as a drag does).
  bool movePass(int from, int to);
  // Removes the pass at `row`.
  void removePass(int row);

  QComboBox* presetBox() const { return presets_; }
  QLineEdit* edit() const { return edit_; }
  // The row of passes: InternalMove drag and drop on a QListWidget.
  QListWidget* list() const { return list_; }
  QToolButton* earlierButton() const { return earlier_; }
  QToolButton* laterButton() const { return later_; }
  QToolButton* removeButton() const { return remove_; }

 Q_SIGNALS:
  void changed();

 private:
  void validate();
  void fillList();     // text -> row
  void listChanged();  // row -> text
  void moveCurrent(int delta);
  void updateButtons();

  QComboBox* presets_;
  QLineEdit* edit_;
  QListWidget* list_;
  QToolButton *earlier_, *later_, *remove_;
  QLabel* message_;
  bool valid_ = true;
  logic::PassSequence sequence_;
  bool syncing_ = false;
};

}  // namespace egtmin::ui
