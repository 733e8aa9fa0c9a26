// SPDX-License-Identifier: GPL-3.0-or-later
#include <QApplication>

#include "main_window.hpp"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("egtmin");
  QApplication::setApplicationName("egtmin");
  QApplication::setApplicationVersion(EGTMIN_VERSION);
  egtmin::ui::MainWindow w;
  w.show();
  return QApplication::exec();
}
