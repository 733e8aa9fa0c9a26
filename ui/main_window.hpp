// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMainWindow>
#include <functional>

class QDockWidget;
class QMessageBox;
class QPushButton;

namespace egtmin::ui {

class AppContext;
class BoardEditorWidget;
class ChartsPanel;
class CoverViewer;
class ProbePanel;
class RunJob;
class RunsPanel;

// The workbench's main window: the board editor in the centre, the probe panel beside it, and
// runs, covers and charts as tabbed docks below. The window only wires panels together; they
// share state through AppContext and the board editor.
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
  ChartsPanel* chartsPanel() const { return charts_; }

  // Brings a bottom area to the front: "runs", "covers" or "charts".
  void showArea(const QString& name);
  // On first start (nothing in the settings): a window-modal box, shown without blocking, that
  // explains what to do and offers to generate and minimize the 3-piece set in one click.
  void maybeWelcome();
  QMessageBox* welcomeBox() const { return welcome_; }
  // The box's one-click button (null when the 3-piece covers are already there).
  QPushButton* welcomeSetupButton() const { return welcomeSetup_; }
  // Starts a run generating every table with at most n pieces (and minimizing each with the
  // paper default passes when `minimize`).
  RunJob* generateUpTo(int n, bool minimize = false);
  // The welcome's one click: the 3-piece tables and covers; when the run is done the probe panel
  // answers from the new covers (and the board gets a KQvK example if it holds no legal position).
  RunJob* setUpThreePieceSet();

  // Asked when closing with runs going; returns true to cancel them and quit. Replaceable so
  // tests need not click a modal box.
  std::function<bool(int activeRuns)> confirmQuit;

 protected:
  void closeEvent(QCloseEvent* e) override;

 private:
  void buildMenus();
  void openSettings();
  void about();

  AppContext* ctx_;
  BoardEditorWidget* board_ = nullptr;
  ProbePanel* probe_ = nullptr;
  RunsPanel* runs_ = nullptr;
  CoverViewer* covers_ = nullptr;
  ChartsPanel* charts_ = nullptr;
  QMessageBox* welcome_ = nullptr;
  QPushButton* welcomeSetup_ = nullptr;
  QDockWidget *probeDock_ = nullptr, *runsDock_ = nullptr, *coversDock_ = nullptr, *chartsDock_ = nullptr;
};

}  // namespace egtmin::ui
