// SPDX-License-Identifier: GPL-3.0-or-later
// The egtmin workbench. Besides the normal start, --screenshot DIR renders the real window in a
// few states into DIR/*.png (for docs/screenshots; run under Xvfb or QT_QPA_PLATFORM=offscreen).
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QTimer>

#include "app_context.hpp"
#include "main_window.hpp"
#include "screenshots.hpp"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("egtmin");
  QApplication::setApplicationName("egtmin");
  QApplication::setApplicationVersion(EGTMIN_VERSION);
  QGuiApplication::setDesktopFileName("io.github.egtmin.egtmin");  // packaging/: desktop file, icon

  QCommandLineParser cli;
  cli.setApplicationDescription("egtmin workbench: endgame tables by two-level logic minimization");
  cli.addHelpOption();
  cli.addVersionOption();
  QCommandLineOption shots("screenshot", "Write screenshots of the window into <dir> and exit.", "dir");
  QCommandLineOption data("data", "Data directory (tables, covers) for this session.", "dir");
  QCommandLineOption syzygy("syzygy", "Syzygy directory for this session.", "dir");
  cli.addOptions({shots, data, syzygy});
  cli.process(app);

  egtmin::ui::AppContext* ctx = nullptr;
  if (cli.isSet(data) || cli.isSet(syzygy)) {
    // Session overrides are not written to the settings.
    egtmin::ui::AppContext defaults;
    ctx = new egtmin::ui::AppContext(cli.isSet(data) ? cli.value(data) : defaults.dataDir(),
                                     cli.isSet(syzygy) ? cli.value(syzygy) : defaults.syzygyDir(), &app);
  }
  egtmin::ui::MainWindow w(ctx);
  w.show();
  if (cli.isSet(shots)) return egtmin::ui::takeScreenshots(w, cli.value(shots)) ? 0 : 1;
  QTimer::singleShot(0, &w, &egtmin::ui::MainWindow::maybeWelcome);
  return QApplication::exec();
}
