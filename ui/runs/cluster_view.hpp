// SPDX-License-Identifier: GPL-3.0-or-later
// The Runs panel's read-only view of a cluster run (egtmin-cli cluster submit): for a data
// directory on a shared filesystem, each balance's stages as `cluster status` tells them (done,
// queued, running, failed with the log's last lines in the tooltip). It reads the directory and
// asks squeue and sacct off the GUI thread; it submits and cancels nothing.
#pragma once

#include <QGroupBox>

#include "background_task.hpp"
#include "cluster/command.hpp"
#include "cluster/status.hpp"
#include "util/result.hpp"

class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

namespace egtmin::ui {

class AppContext;

class ClusterView : public QGroupBox {
  Q_OBJECT
 public:
  explicit ClusterView(AppContext* ctx, QWidget* parent = nullptr);
  ~ClusterView() override;

  // The scheduler's commands run through this (the tests stand a fake in).
  void setCommandRunner(cluster::CommandRunner runner) { runner_ = std::move(runner); }

  QLineEdit* dataEdit() const { return data_; }
  QPushButton* refreshButton() const { return refresh_; }
  QTreeWidget* tree() const { return tree_; }
  QLabel* summary() const { return summary_; }

 public Q_SLOTS:
  // Reads the status again; a refresh already in flight is followed by one more.
  void refresh();

 Q_SIGNALS:
  void refreshed();

 protected:
  // The first time the view is shown, it reads a data directory that has cluster jobs.
  void showEvent(QShowEvent* event) override;

 private:
  void showStatus(const Result<cluster::ClusterStatus>& status);

  AppContext* ctx_;
  QLineEdit* data_;
  QPushButton* refresh_;
  QTreeWidget* tree_;
  QLabel* summary_;
  cluster::CommandRunner runner_ = cluster::run_command;
  BackgroundTask<Result<cluster::ClusterStatus>> watcher_;
  bool again_ = false;
  bool shown_ = false;
};

}  // namespace egtmin::ui
