// SPDX-License-Identifier: GPL-3.0-or-later
// Settings: data directory (tables and covers), Syzygy directory, worker threads, what probing the
// covers keeps in memory. Directories are checked as they are typed so a wrong path is explained
// before it is saved.
#pragma once

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace egtmin::ui {

class AppContext;

class SettingsDialog : public QDialog {
  Q_OBJECT
 public:
  explicit SettingsDialog(AppContext* ctx, QWidget* parent = nullptr);

  QLineEdit* dataEdit() const { return data_; }
  QLineEdit* syzygyEdit() const { return syzygy_; }
  QSpinBox* threadsBox() const { return threads_; }
  // The probe memory levels by name (item data: probe::ProbeMemory).
  QComboBox* probeMemoryBox() const { return probeMemory_; }

  void accept() override;

 private:
  void check();

  AppContext* ctx_;
  QLineEdit *data_, *syzygy_;
  QLabel *dataNote_, *syzygyNote_;
  QSpinBox* threads_;
  QComboBox* probeMemory_;
  QLabel* probeMemoryNote_;
};

}  // namespace egtmin::ui
