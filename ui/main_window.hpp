// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMainWindow>

namespace egtmin::ui {

class AppContext;
class BoardEditorWidget;
class ProbePanel;
class RunsPanel;
class CoverViewer;

// The workbench's main window: the board editor in the centre, the probe panel beside it, and
// runs and covers as tabbed docks. The window owns no logic; the panels talk through AppContext
// and the board editor.
class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  // ctx: null to read QSettings (the application); tests pass their own.
  explicit MainWindow(AppContext* ctx = nullptr, QWidget* parent = nullptr);

  AppContext* context() const { return ctx_; }
  BoardEditorWidget* boardEditor() const { return board_; }
  ProbePanel* probePanel() const { return probe_; }
  RunsPanel* runsPanel() const { return runs_; }
  CoverViewer* coverViewer() const { return covers_; }

  // Brings a panel to the front ("board", "runs", "covers"), for screenshots.
  void showArea(const QString& name);
  // Shows the first-start explanation when nothing was configured yet.
  void maybeWelcome();

 protected:
  void closeEvent(QCloseEvent* e) override;

 private:
  void buildMenus();
  void openSettings();

  AppContext* ctx_;
  BoardEditorWidget* board_ = nullptr;
  ProbePanel* probe_ = nullptr;
  RunsPanel* runs_ = nullptr;
  CoverViewer* covers_ = nullptr;
  class QDockWidget *runsDock_ = nullptr, *coversDock_ = nullptr, *probeDock_ = nullptr;
};

}  // namespace egtmin::ui
