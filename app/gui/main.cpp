// SPDX-License-Identifier: GPL-3.0-or-later
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include "main_window.hpp"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("egtmin");
  QApplication::setApplicationName("egtmin");
  QApplication::setApplicationVersion(EGTMIN_VERSION);
  QGuiApplication::setDesktopFileName("io.github.egtmin.egtmin");  // packaging/: desktop file, icon
  QCommandLineParser cli;  // --help, --version, and --quit-after-ms N for start-and-quit smoke tests
  cli.setApplicationDescription("egtmin: chess endgame tables compressed by two-level logic minimization");
  cli.addHelpOption();
  cli.addVersionOption();
  QCommandLineOption quit_after("quit-after-ms", "Quit N milliseconds after the window is shown.", "N");
  cli.addOption(quit_after);
  cli.process(app);
  egtmin::ui::MainWindow w;
  w.show();
  if (cli.isSet(quit_after)) QTimer::singleShot(cli.value(quit_after).toInt(), &app, &QApplication::quit);
  return QApplication::exec();
}
