// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.hpp"

#include <QCloseEvent>
#include <QDockWidget>
#include <QMenuBar>

#include "app_context.hpp"
#include "board/board_editor_widget.hpp"
#include "probe/probe_panel.hpp"

namespace egtmin::ui {

MainWindow::MainWindow(AppContext* ctx, QWidget* parent)
    : QMainWindow(parent), ctx_(ctx ? ctx : new AppContext(this)) {
  setWindowTitle("egtmin");
  board_ = new BoardEditorWidget(this);
  setCentralWidget(board_);
  probe_ = new ProbePanel(ctx_, board_->editor(), this);
  probeDock_ = new QDockWidget(tr("Probe"), this);
  probeDock_->setObjectName("probe-dock");
  probeDock_->setWidget(probe_);
  addDockWidget(Qt::RightDockWidgetArea, probeDock_);
  buildMenus();
  resize(1280, 820);
}

void MainWindow::buildMenus() {
  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addActions(board_->editActions());
}

void MainWindow::showArea(const QString&) {}
void MainWindow::maybeWelcome() {}
void MainWindow::openSettings() {}

void MainWindow::closeEvent(QCloseEvent* e) { e->accept(); }

}  // namespace egtmin::ui
