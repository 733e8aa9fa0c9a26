// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.hpp"

#include <QLabel>

namespace egtmin::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle("egtmin");
  auto* placeholder = new QLabel(tr("egtmin: endgame tables by logic minimization.\n"
                                    "Generate tables with egtmin-cli gen; the workbench areas arrive here."));
  placeholder->setAlignment(Qt::AlignCenter);
  setCentralWidget(placeholder);
  resize(1100, 750);
}

}  // namespace egtmin::ui
