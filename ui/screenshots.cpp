// SPDX-License-Identifier: GPL-3.0-or-later
#include "screenshots.hpp"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QScreen>
#include <QSpinBox>
#include <QTableView>
#include <QThread>
#include <QWidget>

#include "app_context.hpp"
#include "board/board_editor_widget.hpp"
#include "charts/charts_panel.hpp"
#include "charts/probe_times_chart.hpp"
#include "covers/cover_model.hpp"
#include "covers/cover_viewer.hpp"
#include "logic/pass_sequence.hpp"
#include "main_window.hpp"
#include "probe/probe_panel.hpp"
#include "runs/balance_picker.hpp"
#include "runs/pass_picker.hpp"
#include "runs/runs_panel.hpp"

namespace egtmin::ui {

namespace {
void settle(int ms = 300) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < ms) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(5);
  }
}

bool save(QWidget& w, const QString& dir, const char* name) {
  settle();
  const QString path = QDir(dir).filePath(QLatin1String(name));
  const bool ok = w.grab().save(path, "PNG");
  qInfo("%s %s", ok ? "wrote" : "FAILED", qPrintable(path));
  return ok;
}
}  // namespace

bool takeScreenshots(MainWindow& w, const QString& dir) {
  QDir().mkpath(dir);
  w.resize(1440, 920);
  settle();
  bool ok = true;
  RunsPanel* runs = w.runsPanel();

  // Tables (and a cover) the pictures need, made the way a user would: through a run.
  RunSpec spec;
  spec.balances = {QStringLiteral("KQvK"), QStringLiteral("KRvK")};
  spec.passes = logic::default_passes();
  spec.dataDir = w.context()->dataDir();
  RunJob* prep = runs->startRun(spec);
  if (!prep->wait(120000) || prep->state() != RunJob::State::Done) {
    qWarning("preparing tables failed: %s", qPrintable(prep->error()));
    return false;
  }

  // 1. Board + probe: a KQvK position with the move list.
  BoardEditorWidget* board = w.boardEditor();
  board->editor()->setFen(QStringLiteral("8/8/8/3k4/8/8/2Q5/4K3 w - - 0 1"));
  w.probePanel()->waitIdle();
  w.probePanel()->view()->selectRow(0);
  ok = save(w, dir, "board-probe.png") && ok;

  // 2. Runs: a selection with the paper default passes and a few runs.
  runs->balances()->setChecked(QStringLiteral("KRvK"), true);
  runs->balances()->setChecked(QStringLiteral("KQvK"), true);
  runs->passes()->applyPreset(0);
  RunSpec more = spec;
  more.balances = {QStringLiteral("KBvK"), QStringLiteral("KNvK"), QStringLiteral("KPvK")};
  more.passes = *logic::parse_passes("canon,compact,espresso");
  more.saveCovers = false;  // a picture of a run: the covers in the data directory stay the user's
  RunJob* second = runs->startRun(more);
  second->wait(120000);
  RunSpec big;
  big.balances = {QStringLiteral("KRvKP")};
  big.dataDir = spec.dataDir;
  big.threads = 1;
  RunJob* running = runs->startRun(big);
  settle(1500);
  w.showArea(QStringLiteral("runs"));
  ok = save(w, dir, "runs.png") && ok;
  running->cancel();
  running->wait(60000);

  // 3. Cover viewer with a selected cube drawn on the board.
  w.showArea(QStringLiteral("covers"));
  CoverViewer* covers = w.coverViewer();
  covers->rescan();
  covers->load(QStringLiteral("KQvK"));
  QElapsedTimer t;
  t.start();
  while (covers->model()->rowCount() == 0 && t.elapsed() < 20000) settle(50);
  covers->setOutputFilter(1);
  covers->view()->selectRow(3);
  ok = save(w, dir, "covers.png") && ok;

  // 4. Our values from the cover files: the answering cube is shown.
  const AppContext::Source before = w.context()->source();
  w.context()->setSource(AppContext::Source::Covers);
  w.probePanel()->waitIdle();
  ok = save(w, dir, "probe-covers.png") && ok;
  w.context()->setSource(before);

  // 5. Charts of the finished runs.
  w.showArea(QStringLiteral("charts"));
  w.chartsPanel()->showTab(QStringLiteral("passes"));
  ok = save(w, dir, "charts.png") && ok;

  // 6. Probe-time distributions (Fig. 2b): the probe benchmark run from the charts area, over the
  // 3-piece covers made above (needs a Syzygy directory; without one the chart says so).
  w.chartsPanel()->showTab(QStringLiteral("probe-times"));
  QDockWidget* chartsDock = w.findChild<QDockWidget*>(QStringLiteral("charts-dock"));
  if (chartsDock) w.resizeDocks({chartsDock}, {560}, Qt::Vertical);
  if (ProbeTimesChart* probeTimes = w.chartsPanel()->chartTab<ProbeTimesChart>()) {
    probeTimes->piecesBox()->setCurrentIndex(probeTimes->piecesBox()->findData(3));
    probeTimes->positionsBox()->setValue(200000);
    probeTimes->refresh();
    probeTimes->start();
    probeTimes->wait(120000);
  }
  ok = save(w, dir, "charts-probe-times.png") && ok;
  if (chartsDock) w.resizeDocks({chartsDock}, {330}, Qt::Vertical);
  w.chartsPanel()->showTab(QStringLiteral("passes"));
  return ok;
}

}  // namespace egtmin::ui
