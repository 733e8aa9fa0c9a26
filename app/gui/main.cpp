// SPDX-License-Identifier: GPL-3.0-or-later
// The egtmin workbench. Besides the normal start, --screenshot DIR renders the real window in a
// few states into DIR/*.png (for docs/screenshots; run under Xvfb or QT_QPA_PLATFORM=offscreen).
// --help and --version work without a display: they are answered by a QCoreApplication before
// the QApplication (which needs a display or a platform plugin) is constructed.
#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTimer>

#include <cstring>

#include "app_context.hpp"
#include "main_window.hpp"
#include "screenshots.hpp"

namespace {

// The workbench's command line; both the early (display-free) parse and the real one use it, so
// --help lists the same options either way.
struct CommandLine {
  QCommandLineParser parser;
  QCommandLineOption shots{"screenshot", "Write screenshots of the window into <dir> and exit.", "dir"};
  QCommandLineOption data{"data", "Data directory (tables, covers) for this session.", "dir"};
  QCommandLineOption syzygy{"syzygy", "Syzygy directory for this session.", "dir"};

  CommandLine() {
    parser.setApplicationDescription("egtmin workbench: endgame tables by two-level logic minimization");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions({shots, data, syzygy});
  }
};

void describe_application() {
  QCoreApplication::setOrganizationName("egtmin");
  QCoreApplication::setApplicationName("egtmin");
  QCoreApplication::setApplicationVersion(EGTMIN_VERSION);
}

// Does the command line ask for --help or --version (the options QCommandLineParser answers by
// printing and exiting)? --help-all is left to the QApplication: it lists the GUI's Qt options.
bool asks_for_help_or_version(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (std::strcmp(a, "--") == 0) break;
    for (const char* opt : {"-h", "--help", "-?", "-v", "--version"})
      if (std::strcmp(a, opt) == 0) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (asks_for_help_or_version(argc, argv)) {
    // process() prints the help or version text and exits 0 (or reports a usage error and exits
    // 1); it returns only when the scan above was fooled, e.g. by "--help" as an option's value.
    QCoreApplication core(argc, argv);
    describe_application();
    CommandLine early;
    early.parser.process(core);
  }

  QApplication app(argc, argv);
  describe_application();
  QGuiApplication::setDesktopFileName("io.github.egtmin.egtmin");  // packaging/: desktop file, icon

  CommandLine cli;
  cli.parser.process(app);

  egtmin::ui::AppContext* ctx = nullptr;
  if (cli.parser.isSet(cli.data) || cli.parser.isSet(cli.syzygy)) {
    // Session overrides are not written to the settings.
    egtmin::ui::AppContext defaults;
    ctx = new egtmin::ui::AppContext(cli.parser.isSet(cli.data) ? cli.parser.value(cli.data) : defaults.dataDir(),
                                     cli.parser.isSet(cli.syzygy) ? cli.parser.value(cli.syzygy) : defaults.syzygyDir(),
                                     &app);
  }
  egtmin::ui::MainWindow w(ctx);
  w.show();
  if (cli.parser.isSet(cli.shots)) return egtmin::ui::takeScreenshots(w, cli.parser.value(cli.shots)) ? 0 : 1;
  QTimer::singleShot(0, &w, &egtmin::ui::MainWindow::maybeWelcome);
  return QApplication::exec();
}
