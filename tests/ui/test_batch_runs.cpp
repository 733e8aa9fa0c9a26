// SPDX-License-Identifier: GPL-3.0-or-later
// A batch from the workbench at five pieces (KQQQvK: a 5-piece balance whose capture search
// needs the capture-resolved covers of a single short chain, KQQvK, KQvK and KvK): the plan and its estimate are shown
// before anything runs, the run counts its stages and weighs its bar by the plan's expected times, and a cancel during
// the 5-piece table keeps the stages already finished (recorded, shown as done by the next plan). BatchProgress alone
// on a plan made by hand.
#include <QCheckBox>
#include <QComboBox>
#include <QDirIterator>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <filesystem>

#include "app_context.hpp"
#include "board/board_editor_widget.hpp"
#include "enum_text.hpp"
#include "main_window.hpp"
#include "probe/probe_panel.hpp"
#include "runs/balance_picker.hpp"
#include "runs/batch_plan_view.hpp"
#include "runs/batch_progress.hpp"
#include "runs/run_widget.hpp"
#include "runs/runs_panel.hpp"
#include "ui_test_support.hpp"

using namespace egtmin;
using namespace egtmin::ui;
using egtmin::ui::test::ms;

namespace {

Balance balance(const char* name) { return *Balance::parse(name); }

// "KQQQvK table" per row of the plan view.
QStringList shownStages(const BatchPlanView* view) {
  QStringList rows;
  for (int i = 0; i < view->stages()->topLevelItemCount(); ++i) {
    const QTreeWidgetItem* row = view->stages()->topLevelItem(i);
    rows << row->text(BatchPlanView::BalanceColumn) + ' ' + row->text(BatchPlanView::StageColumn);
  }
  return rows;
}

QStringList filesUnder(const QString& dir) {
  QStringList files;
  QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
  while (it.hasNext()) files << it.next();
  return files;
}

}  // namespace

class TestBatchRuns : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  AppContext* ctx_ = nullptr;
  RunsPanel* panel_ = nullptr;

  std::filesystem::path data() const { return dir_.path().toStdString(); }
  // The stages a capture-resolved batch takes each balance through, in order (no Syzygy: no
  // verify stage).
  const QStringList captureResolvedStages{"table", "minimize-cr", "check-cr"};

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    // Without Syzygy: the verify stages would double the time of the smaller balances' stages,
    // and what this test is about does not depend on them.
    ctx_ = new AppContext(dir_.path(), QString(), this);
    panel_ = new RunsPanel(ctx_);
    panel_->resize(1200, 700);
    panel_->show();
  }
  void cleanupTestCase() {
    QVERIFY(panel_->cancelAllAndWait());
    delete panel_;
  }

  void progressWeighsStagesByTheirExpectedTime() {
    using run::BatchStage;
    using std::chrono::seconds;
    run::BatchPlan plan;
    plan.stages = {{balance("KBvK"), BatchStage::Table, true, seconds(1), 1},
                   {balance("KBvK"), BatchStage::MinimizeCr, false, seconds(1), 1},
                   {balance("KBvK"), BatchStage::CheckCr, false, seconds(0), 1},  // counts as a second
                   {balance("KQQQvK"), BatchStage::Table, false, seconds(8), 1},
                   {balance("KQQQvK"), BatchStage::MinimizeCr, false, seconds(10), 1},
                   {balance("KQQQvK"), BatchStage::CheckCr, false, seconds(20), 1},
                   {balance("KNNvK"), BatchStage::Table, false, seconds(10), 1}};
    BatchProgress p(plan);
    QCOMPARE(p.stageCount(), 6);  // the stage done before is not one to do
    QVERIFY(p.current() && p.current()->stage == BatchStage::MinimizeCr);
    QCOMPARE(p.stageNumber(), 1);
    QCOMPARE(p.fraction(0.5), 0.5 / 50);
    p.stageDone(balance("KBvK"), BatchStage::Table, true, false);  // done before: no step
    QCOMPARE(p.stageNumber(), 1);
    p.stageDone(balance("KBvK"), BatchStage::MinimizeCr, false, false);
    p.stageDone(balance("KBvK"), BatchStage::CheckCr, false, false);
    QCOMPARE(p.stageNumber(), 3);
    QCOMPARE(p.finished(), 2);
    QCOMPARE(p.fraction(0), 2.0 / 50);
    QCOMPARE(p.fraction(0.5), 6.0 / 50);
    // A new sub-step starts from 0: the bar stays.
    QCOMPARE(p.fraction(0.1), 6.0 / 50);
    // A failed stage ends its balance: the run goes on with the next one's first stage.
    p.stageDone(balance("KQQQvK"), BatchStage::Table, false, true);
    QVERIFY(p.current() && p.current()->balance == balance("KNNvK"));
    QCOMPARE(p.stageNumber(), 6);
    QCOMPARE(p.finished(), 2);
    QCOMPARE(p.fraction(0.5), 45.0 / 50);
    p.stageDone(balance("KNNvK"), BatchStage::Table, false, false);
    QVERIFY(!p.current());
    QCOMPARE(p.fraction(0), 1.0);
  }

  // The probe panel's "Make the cover" reaches the Runs panel's plan at five pieces, and starts
  // nothing.
  void probePanelOffersTheBatchPlan() {
    QTemporaryDir dir;
    AppContext ctx(dir.path(), QString());
    ctx.setSource(AppContext::Source::Covers);
    MainWindow w(&ctx);
    w.show();
    QString err;
    QVERIFY2(w.boardEditor()->editor()->setFen("8/8/8/4k3/8/8/Q7/1QQ1K3 w - - 0 1", &err), qPrintable(err));
    ProbePanel* probe = w.probePanel();
    QVERIFY(probe->waitIdle());
    QVERIFY(!probe->generateButton()->isHidden());
    QVERIFY(probe->generateButton()->text().contains("KQQQvK cover"));
    probe->generateButton()->click();
    BatchPlanView* view = w.runsPanel()->batchPlanView();
    QVERIFY(view->isVisible());
    QCOMPARE(view->spec().balances, QStringList{"KQQQvK"});
    QVERIFY(w.runsPanel()->jobs().isEmpty());
    QVERIFY(view->stages()->topLevelItemCount() > 0);
    view->dismissButton()->click();
    QVERIFY(!view->isVisible());
    QVERIFY(w.runsPanel()->jobs().isEmpty());
    QCOMPARE(filesUnder(dir.path()), QStringList{});
  }

  // (a) The probe panel's "Make the cover" at five pieces: the plan first, nothing written.
  void planIsShownBeforeAnythingRuns() {
    panel_->captureResolvedBox()->setChecked(true);
    panel_->generate("KQQQvK", true);
    BatchPlanView* view = panel_->batchPlanView();
    QVERIFY(view->isVisible());
    QVERIFY(panel_->jobs().isEmpty());
    QCOMPARE(view->spec().kind, RunSpec::Kind::Batch);
    QCOMPARE(view->spec().covers, run::CoverSet::CaptureResolved);
    QCOMPARE(view->coversBox()->currentData().toInt(), int(run::CoverSet::CaptureResolved));

    // Every balance of the run, in its order, each with its stages: KQQQvK's capture search
    // probes the cover of KQQvK, whose search probes KQvK's, and so on down to KvK: they come first.
    auto request = RunJob::batchRequest(view->spec());
    QVERIFY(request);
    const std::vector<Balance> order = run::batch_balances(*request);
    QCOMPARE(order, (std::vector<Balance>{balance("KvK"), balance("KQvK"), balance("KQQvK"), balance("KQQQvK")}));
    QStringList expected;
    for (const Balance& b : order)
      for (const QString& s : captureResolvedStages) expected << QString::fromStdString(b.name()) + ' ' + s;
    QCOMPARE(shownStages(view), expected);
    for (int i = 0; i < view->stages()->topLevelItemCount(); ++i) {
      const QTreeWidgetItem* row = view->stages()->topLevelItem(i);
      QCOMPARE(row->text(BatchPlanView::StatusColumn), QString("to do"));
      const bool asked = row->text(BatchPlanView::BalanceColumn) == "KQQQvK";
      QCOMPARE(row->data(BatchPlanView::WhyColumn, Qt::UserRole).toBool(), !asked);
      QCOMPARE(row->text(BatchPlanView::WhyColumn).startsWith("needed"), !asked);
    }
    // The estimate: a time and a peak, and the summary says both.
    QVERIFY(view->plan().seconds_to_do().count() > 0);
    QVERIFY(view->plan().peak_bytes_to_do() > 0);
    const QString summary = view->summary()->text();
    QVERIFY2(summary.startsWith(QString("%1 stage(s) to do: about ").arg(expected.size())), qPrintable(summary));
    QVERIFY2(summary.contains("largest expected peak ") && summary.contains(" GB (KQQQvK "), qPrintable(summary));
    QVERIFY(view->startButton()->isEnabled());

    // Standalone covers need nothing of the smaller balances: KQQQvK's own stages only.
    view->coversBox()->setCurrentIndex(view->coversBox()->findData(int(run::CoverSet::Standalone)));
    QCOMPARE(view->spec().covers, run::CoverSet::Standalone);
    QCOMPARE(shownStages(view), (QStringList{"KQQQvK table", "KQQQvK minimize", "KQQQvK check"}));
    view->coversBox()->setCurrentIndex(view->coversBox()->findData(int(run::CoverSet::CaptureResolved)));
    QCOMPARE(shownStages(view), expected);

    // Proven through the tables below it: their tables first, then KQQQvK's own stages.
    view->successorsBox()->setCurrentIndex(view->successorsBox()->findData(int(run::SuccessorValues::Tables)));
    QCOMPARE(view->spec().successors, run::SuccessorValues::Tables);
    QStringList throughTables{"KvK table", "KQvK table", "KQQvK table"};
    for (const QString& s : captureResolvedStages) throughTables << "KQQQvK " + s;
    QCOMPARE(shownStages(view), throughTables);
    view->successorsBox()->setCurrentIndex(view->successorsBox()->findData(int(run::SuccessorValues::Covers)));
    QCOMPARE(shownStages(view), expected);

    QVERIFY(panel_->jobs().isEmpty());
    QCOMPARE(filesUnder(dir_.path()), QStringList{});
  }

  // (b) Started, cancelled once the 5-piece table is being made: the finished stages stay.
  void cancelKeepsTheFinishedStages() {
    BatchPlanView* view = panel_->batchPlanView();
    QVERIFY(view->isVisible());
    const run::BatchPlan plan = view->plan();
    view->startButton()->click();
    QVERIFY(!view->isVisible());
    QCOMPARE(panel_->jobs().size(), 1);
    RunJob* job = panel_->jobs().last();
    QCOMPARE(job->spec().kind, RunSpec::Kind::Batch);
    QVERIFY(job->title().contains("capture-resolved"));

    // A second batch on the same data directory cannot start beside it.
    panel_->generate("KQQQvK", true);
    QVERIFY(view->isVisible());
    QVERIFY(!view->startButton()->isEnabled());
    view->dismissButton()->click();
    QVERIFY(!view->isVisible());

    QStringList labels;
    connect(job, &RunJob::progressed, this, [&] {
      if (labels.isEmpty() || labels.last() != job->stage()) labels << job->stage();
    });
    auto atFivePieces = [&] { return job->batchStage() && job->batchStage()->balance.pieces() == 5; };
    QTRY_VERIFY_WITH_TIMEOUT(atFivePieces() || !job->active(), ms(45000));
    QVERIFY2(job->active(), qPrintable(job->log().join('\n')));
    QCOMPARE(job->batchStage()->stage, run::BatchStage::Table);
    const double fractionAtFive = job->fraction();
    RunWidget* widget = nullptr;
    for (RunWidget* w : panel_->runWidgets())
      if (w->job() == job) widget = w;
    QVERIFY(widget);
    widget->cancelButton()->click();
    QVERIFY(job->wait(ms(30000)));
    QCOMPARE(job->state(), RunJob::State::Cancelled);

    // The smaller balances' stages weigh what the plan expects of them, a small part of the run.
    double before = 0, total = 0;
    for (const run::PlannedStage& p : plan.stages) {
      const double w = std::max<double>(1, double(p.expected_seconds.count()));
      total += w;
      if (p.balance.pieces() < 5) before += w;
    }
    QVERIFY2(fractionAtFive + 1e-9 >= before / total && fractionAtFive < 0.5,
             qPrintable(QString("%1 (the smaller balances: %2)").arg(fractionAtFive).arg(before / total)));
    const int toDo = int(plan.stages.size());
    QVERIFY2(labels.join('\n').contains(QString("stage 1 of %1: ").arg(toDo)), qPrintable(labels.join('\n')));
    QVERIFY2(labels.join('\n').contains(QRegularExpression(QString("stage \\d+ of %1: KQQQvK table").arg(toDo))),
             qPrintable(labels.join('\n')));

    // Each finished stage is in the log and recorded; the 5-piece table is not.
    const int smaller = int(std::count_if(plan.stages.begin(), plan.stages.end(),
                                          [](const run::PlannedStage& p) { return p.balance.pieces() < 5; }));
    QVERIFY2(job->stage().startsWith(QString("cancelled: %1 finished stage(s) stay recorded").arg(smaller)),
             qPrintable(job->stage()));
    const QString log = job->log().join('\n');
    for (const run::PlannedStage& p : plan.stages) {
      const QString line = QString::fromStdString(p.balance.name()) + ' ' + enumText(p.stage) + ": ";
      if (p.balance.pieces() == 5) {
        QVERIFY2(!log.contains(line), qPrintable(log));
        continue;
      }
      QVERIFY2(log.contains(line), qPrintable(log));
      const auto record = run::load_record(data(), p.balance);
      QVERIFY2(record, p.balance.name().c_str());
      QVERIFY2(record->stage(p.stage).done, qPrintable(line));
    }
    const auto fiveRecord = run::load_record(data(), balance("KQQQvK"));
    QVERIFY(!fiveRecord || !fiveRecord->stage(run::BatchStage::Table).done);

    // A new plan over the same balances shows the finished stages as done and KQQQvK's to do.
    panel_->balances()->clearChecks();
    QStringList names;
    for (const run::PlannedStage& p : plan.stages)
      if (!names.contains(QString::fromStdString(p.balance.name()))) names << QString::fromStdString(p.balance.name());
    for (const QString& n : names) panel_->balances()->setChecked(n, true);
    QVERIFY(panel_->batchButton()->isEnabled());
    panel_->batchButton()->click();
    QVERIFY(view->isVisible());
    QCOMPARE(view->spec().covers, run::CoverSet::CaptureResolved);
    QCOMPARE(view->stages()->topLevelItemCount(), toDo);
    for (int i = 0; i < toDo; ++i) {
      const QTreeWidgetItem* row = view->stages()->topLevelItem(i);
      const bool five = row->text(BatchPlanView::BalanceColumn) == "KQQQvK";
      QCOMPARE(row->text(BatchPlanView::StatusColumn), five ? QString("to do") : QString("done"));
    }
    const QString summary = view->summary()->text();
    QVERIFY2(summary.contains(QString(" (%1 done before)").arg(smaller)), qPrintable(summary));
    QVERIFY(view->startButton()->isEnabled());
    view->dismissButton()->click();
    panel_->balances()->clearChecks();
  }
};

QTEST_MAIN(TestBatchRuns)
#include "test_batch_runs.moc"
