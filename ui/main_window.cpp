// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.hpp"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

#include "app_context.hpp"
#include "board/board_editor_widget.hpp"
#include "board/board_widget.hpp"
#include "charts/charts_panel.hpp"
#include "chess/balance.hpp"
#include "covers/cover_viewer.hpp"
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

MainWindow::MainWindow(AppContext* ctx, QWidget* parent)
    : QMainWindow(parent), ctx_(ctx ? ctx : new AppContext(this)) {
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
  connect(runs_, &RunsPanel::runFinished, this, [this](RunJob* job) {
    charts_->addRun(job);
    statusBar()->showMessage(tr("Run finished: %1 (%2)").arg(job->title(), job->stage()), 8000);
  });
  buildMenus();
  statusBar()->showMessage(tr("Data: %1   Syzygy: %2")
                               .arg(ctx_->dataDir(), ctx_->syzygy() ? ctx_->syzygyDir() : ctx_->syzygyError()));
  resize(1400, 900);
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* settings = file->addAction(tr("&Settings…"), this, &MainWindow::openSettings);
  settings->setShortcut(QKeySequence::Preferences);
  file->addAction(tr("Generate all 3-piece tables"), this, [this] { generateUpTo(3); });
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addActions(board_->editActions());

  QMenu* view = menuBar()->addMenu(tr("&View"));
  for (QDockWidget* d : {probeDock_, runsDock_, coversDock_, chartsDock_}) view->addAction(d->toggleViewAction());
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("Getting started"), this, [this] {
    QMessageBox::information(this, tr("Getting started"),
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
  SettingsDialog d(ctx_, this);
  d.exec();
}

void MainWindow::showArea(const QString& name) {
  QDockWidget* d = name == QLatin1String("covers") ? coversDock_ : name == QLatin1String("charts") ? chartsDock_ : runsDock_;
  d->show();
  d->raise();
}

void MainWindow::generateUpTo(int n) {
  RunSpec spec;
  for (const Balance& b : Balance::all_up_to(n)) spec.balances << QString::fromStdString(b.name());
  spec.dataDir = ctx_->dataDir();
  spec.threads = ctx_->threads();
  runs_->startRun(spec);
  showArea(QStringLiteral("runs"));
}

void MainWindow::maybeWelcome() {
  if (!ctx_->firstStart()) return;
  ctx_->markStarted();
  const bool haveTables =
      !QDir(QDir(ctx_->dataDir()).filePath(QStringLiteral("tables"))).entryList({QStringLiteral("*.egtt")}, QDir::Files).isEmpty();
  QMessageBox box(this);
  box.setWindowTitle(tr("Welcome to egtmin"));
  box.setIcon(QMessageBox::Information);
  box.setText(tr("<p><b>egtmin</b> makes exact endgame tables and compresses them into small "
                 "two-level logic covers.</p>"
                 "<p>Tables and covers are kept in <tt>%1</tt> (change it in File → Settings, where you can "
                 "also point to Syzygy tables for comparison: %2).</p>"
                 "<p>%3</p>")
                  .arg(ctx_->dataDir().toHtmlEscaped(),
                       ctx_->syzygy() ? tr("found in <tt>%1</tt>").arg(ctx_->syzygyDir().toHtmlEscaped())
                                      : tr("none set yet"),
                       haveTables ? tr("Tables are already there: set up a position and look at the Probe panel.")
                                  : tr("There are no tables yet. The 3-piece set takes about a second to generate.")));
  QPushButton* gen = haveTables ? nullptr : box.addButton(tr("Generate 3-piece tables"), QMessageBox::AcceptRole);
  box.addButton(haveTables ? tr("Start") : tr("Not now"), QMessageBox::RejectRole);
  box.exec();
  if (gen && box.clickedButton() == gen) generateUpTo(3);
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
