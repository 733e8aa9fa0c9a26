// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.hpp"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

#include "app_context.hpp"
#include "board/board_editor_widget.hpp"
#include "board/board_widget.hpp"
#include "charts/ablation_chart.hpp"
#include "charts/charts_panel.hpp"
#include "charts/probe_times_chart.hpp"
#include "chess/balance.hpp"
#include "covers/cover_viewer.hpp"
#include "logic/pass_sequence.hpp"
#include "probe/probe_panel.hpp"
#include "runs/runs_panel.hpp"
#include "settings/settings_dialog.hpp"

namespace egtmin::ui {

namespace {
QDockWidget* dock(QMainWindow* w, const QString& title, const char* name, QWidget* content) {
  auto* d = new QDockWidget(title, w);
  d->setObjectName(QLatin1String(name));
  d->setWidget(content);
  return d;
}
}  // namespace

MainWindow::MainWindow(AppContext* ctx, QWidget* parent) : QMainWindow(parent), ctx_(ctx ? ctx : new AppContext(this)) {
  setWindowTitle(QStringLiteral("egtmin"));
  board_ = new BoardEditorWidget(this);
  setCentralWidget(board_);
  probe_ = new ProbePanel(ctx_, board_->editor(), this);
  runs_ = new RunsPanel(ctx_, this);
  covers_ = new CoverViewer(ctx_, this);
  charts_ = new ChartsPanel(ctx_, this);

  probeDock_ = dock(this, tr("Probe"), "probe-dock", probe_);
  runsDock_ = dock(this, tr("Runs"), "runs-dock", runs_);
  coversDock_ = dock(this, tr("Covers"), "covers-dock", covers_);
  chartsDock_ = dock(this, tr("Charts"), "charts-dock", charts_);
  addDockWidget(Qt::RightDockWidgetArea, probeDock_);
  addDockWidget(Qt::BottomDockWidgetArea, runsDock_);
  addDockWidget(Qt::BottomDockWidgetArea, coversDock_);
  addDockWidget(Qt::BottomDockWidgetArea, chartsDock_);
  tabifyDockWidget(runsDock_, coversDock_);
  tabifyDockWidget(coversDock_, chartsDock_);
  runsDock_->raise();
  resizeDocks({probeDock_}, {520}, Qt::Horizontal);
  resizeDocks({runsDock_}, {330}, Qt::Vertical);

  connect(probe_, &ProbePanel::generateRequested, this, [this](const QString& b, bool minimize) {
    runs_->generate(b, minimize);
    showArea(QStringLiteral("runs"));
  });
  connect(board_->editor(), &BoardEditor::positionChanged, this,
          [this] { board_->board()->setLastMove(probe_->lastMove()); });
  connect(covers_, &CoverViewer::overlayChanged, board_->board(), &BoardWidget::setOverlay);
  connect(probe_, &ProbePanel::overlayChanged, board_->board(), &BoardWidget::setOverlay);
  connect(runs_, &RunsPanel::runFinished, this, [this](RunJob* job) {
    charts_->addRun(job);
    statusBar()->showMessage(tr("Run finished: %1 (%2)").arg(job->title(), job->stage()), 8000);
  });
  buildMenus();
  statusBar()->showMessage(
      tr("Data: %1   Syzygy: %2").arg(ctx_->dataDir(), ctx_->syzygy() ? ctx_->syzygyDir() : ctx_->syzygyError()));
  resize(1400, 900);
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* settings = file->addAction(tr("&Settings…"), this, &MainWindow::openSettings);
  settings->setShortcut(QKeySequence::Preferences);
  file->addAction(tr("Generate all 3-piece tables"), this, [this] { generateUpTo(3); });
  file->addAction(tr("Generate and minimize the 3-piece set"), this, &MainWindow::setUpThreePieceSet);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addActions(board_->editActions());

  QMenu* view = menuBar()->addMenu(tr("&View"));
  for (QDockWidget* d : {probeDock_, runsDock_, coversDock_, chartsDock_}) view->addAction(d->toggleViewAction());
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("Getting started"), this, [this] {
    QMessageBox::information(
        this, tr("Getting started"),
        tr("<p>Set up a position on the board: pick a piece in the palette and click squares "
           "(it stays picked), drag pieces, drag them off or right-click to remove, or type a FEN.</p>"
           "<p>The Probe panel shows our value and Syzygy's for the position and for every move; "
           "double-click a move to play it.</p>"
           "<p>Tables and covers are made in the Runs panel: tick balances, choose passes "
           "(\"paper default\" = canon, compact, expand, irredundant) and start.</p>"));
  });
  help->addAction(tr("About egtmin"), this, &MainWindow::about);
}

void MainWindow::about() {
  QMessageBox::about(this, tr("About egtmin"),
                     tr("<b>egtmin %1</b><p>Chess endgame tables compressed by two-level logic minimization.</p>"
                        "<p>GPL-3.0-or-later.</p>")
                         .arg(QApplication::applicationVersion()));
}

void MainWindow::openSettings() {
  // A running probe benchmark holds Fathom's directory (Syzygy::Hold), which a new Syzygy directory
  // would wait for on this thread: stop it first (it stops within a few thousand probes).
  if (ProbeTimesChart* bench = charts_->chartTab<ProbeTimesChart>(); bench && bench->busy()) {
    bench->cancel();
    bench->wait(30000);
    statusBar()->showMessage(tr("Probe benchmark cancelled: the settings may change its directories"), 8000);
  }
  // The ablation times each idea's probe the same way, and minimizes into the data directory.
  if (AblationChart* ablation = charts_->chartTab<AblationChart>(); ablation && ablation->busy()) {
    ablation->cancel();
    ablation->wait(60000);
    statusBar()->showMessage(tr("Ablation cancelled: the settings may change its directories"), 8000);
  }
  SettingsDialog d(ctx_, this);
  d.exec();
}

void MainWindow::showArea(const QString& name) {
  QDockWidget* d = name == QLatin1String("covers")   ? coversDock_
                   : name == QLatin1String("charts") ? chartsDock_
                                                     : runsDock_;
  d->show();
  d->raise();
}

RunJob* MainWindow::generateUpTo(int n, bool minimize) {
  RunSpec spec;
  for (const Balance& b : Balance::all_up_to(n)) spec.balances << QString::fromStdString(b.name());
  if (minimize) spec.passes = logic::default_passes();
  spec.dataDir = ctx_->dataDir();
  spec.threads = ctx_->threads();
  RunJob* job = runs_->startRun(spec);
  showArea(QStringLiteral("runs"));
  return job;
}

namespace {
// Balances with at most n pieces that have no cover file in dataDir yet.
QStringList missingCovers(const QString& dataDir, int n) {
  QStringList out;
  for (const Balance& b : Balance::all_up_to(n)) {
    const QString name = QString::fromStdString(b.name());
    if (!QFileInfo::exists(QDir(dataDir).filePath(QStringLiteral("covers/%1.egtc").arg(name)))) out << name;
  }
  return out;
}
}  // namespace

RunJob* MainWindow::setUpThreePieceSet() {
  RunJob* job = generateUpTo(3, true);
  connect(job, &RunJob::finished, this, [this, job] {
    if (job->state() != RunJob::State::Done) {
      statusBar()->showMessage(tr("Setting up the 3-piece set: %1").arg(job->stage()), 15000);
      return;
    }
    // Show what was made: values from the new covers, on a position that has one.
    ctx_->setSource(AppContext::Source::Covers);
    if (board_->editor()->position().illegal_reason())
      board_->editor()->setFen(QStringLiteral("8/8/8/3k4/8/8/2Q5/4K3 w - - 0 1"));
    statusBar()->showMessage(
        tr("3-piece tables and covers ready in %1: the Probe panel answers from the covers").arg(ctx_->dataDir()),
        15000);
  });
  return job;
}

void MainWindow::maybeWelcome() {
  if (!ctx_->firstStart()) return;
  ctx_->markStarted();
  const QStringList missing = missingCovers(ctx_->dataDir(), 3);
  welcome_ = new QMessageBox(this);
  welcome_->setAttribute(Qt::WA_DeleteOnClose);
  welcome_->setWindowTitle(tr("Welcome to egtmin"));
  welcome_->setIcon(QMessageBox::Information);
  welcome_->setTextFormat(Qt::RichText);
  welcome_->setText(
      tr("<p><b>egtmin</b> makes exact endgame tables and compresses them into small two-level logic "
         "covers, then probes positions from the covers alone.</p>"
         "<p>Tables and covers are kept in <tt>%1</tt>. Syzygy tables, for comparison: %2. Both are set in "
         "File → Settings.</p>"
         "<p>%3</p>"
         "<p>Then set up a position on the board (pick a piece in the palette and click squares, or paste a "
         "FEN): the Probe panel shows our value and Syzygy's for it and for every move. Larger sets are made "
         "in the Runs panel; the Charts panel plots the results.</p>")
          .arg(ctx_->dataDir().toHtmlEscaped(),
               ctx_->syzygy() ? tr("found in <tt>%1</tt>").arg(ctx_->syzygyDir().toHtmlEscaped()) : tr("none set yet"),
               missing.isEmpty()
                   ? tr("The 3-piece tables and covers are already there.")
                   : tr("Start with the 3-piece set: one click generates its tables (KQvK, KRvK, KBvK, KNvK, KPvK) "
                        "and minimizes each into a cover with the paper's passes. It takes a few seconds.")));
  welcomeSetup_ = missing.isEmpty()
                      ? nullptr
                      : welcome_->addButton(tr("Generate and minimize the 3-piece set"), QMessageBox::AcceptRole);
  welcome_->addButton(missing.isEmpty() ? tr("Start") : tr("Not now"), QMessageBox::RejectRole);
  if (welcomeSetup_) welcome_->setDefaultButton(welcomeSetup_);
  QPushButton* setup = welcomeSetup_;
  connect(welcome_, &QMessageBox::buttonClicked, this, [this, setup](QAbstractButton* b) {
    if (setup && b == setup) setUpThreePieceSet();
  });
  connect(welcome_, &QObject::destroyed, this, [this] {
    welcome_ = nullptr;
    welcomeSetup_ = nullptr;
  });
  // Window-modal and not blocking: the event loop (and the tests) go on while it is shown.
  welcome_->open();
}

void MainWindow::closeEvent(QCloseEvent* e) {
  const int active = runs_->activeCount();
  if (active > 0) {
    bool quit = false;
    if (confirmQuit) {
      quit = confirmQuit(active);
    } else {
      quit = QMessageBox::question(this, tr("Runs in progress"),
                                   tr("%n run(s) still going. Cancel them and quit?", nullptr, active),
                                   QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
    }
    if (!quit) {
      e->ignore();
      return;
    }
    statusBar()->showMessage(tr("Cancelling runs…"));
    runs_->cancelAllAndWait(60000);
  }
  e->accept();
}

}  // namespace egtmin::ui
