// SPDX-License-Identifier: GPL-3.0-or-later
// Runs panel: balance tree and filter, pass presets and validation, a small run to completion
// (tables + minimization + cover file), cancelling a run, and the model contract.
#include <filesystem>

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <fstream>

#include "app_context.hpp"
#include "cluster/job_files.hpp"
#include "runs/balance_picker.hpp"
#include "runs/cluster_view.hpp"
#include "runs/pass_picker.hpp"
#include "runs/run_widget.hpp"
#include "runs/runs_panel.hpp"
#include "store/cover_file.hpp"
#include "ui_test_support.hpp"

using namespace egtmin;
using namespace egtmin::ui;
using egtmin::ui::test::ms;

class TestRuns : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  AppContext* ctx_ = nullptr;
  RunsPanel* panel_ = nullptr;

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    ctx_ = new AppContext(dir_.path(), test::syzygyDir(), this);
    panel_ = new RunsPanel(ctx_);
    new QAbstractItemModelTester(panel_->balances()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest,
                                 this);
    new QAbstractItemModelTester(panel_->balances()->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest,
                                 this);
    panel_->resize(1000, 600);
    panel_->show();
  }
  void cleanupTestCase() {
    QVERIFY(panel_->cancelAllAndWait());
    delete panel_;
  }

  // The cluster view shows what `cluster status` reads: a fake squeue and sacct stand in for Slurm.
  void clusterViewReadsTheDataDirectory() {
    ClusterView* view = panel_->clusterView();
    QVERIFY(view);
    QTemporaryDir data;
    const std::filesystem::path dir = data.path().toStdString();
    const Balance krvk = *Balance::parse("KRvK");
    QVERIFY(cluster::write_job_id(dir, krvk, run::BatchStage::Table, "7"));
    QVERIFY(cluster::write_job_id(dir, krvk, run::BatchStage::Minimize, "8"));
    std::string queue = "7|RUNNING|None\n8|PENDING|Dependency\n";
    view->setCommandRunner([&queue](const std::vector<std::string>& argv) -> Result<cluster::CommandOutput> {
      if (argv[0] == "squeue") return cluster::CommandOutput{0, queue, ""};
      return cluster::CommandOutput{1, "", "sacct: error: Slurm accounting storage is disabled"};
    });
    view->dataEdit()->setText(data.path());
    QSignalSpy refreshed(view, &ClusterView::refreshed);
    view->refresh();
    QVERIFY(refreshed.wait(ms(10000)));
    QCOMPARE(view->tree()->topLevelItemCount(), 1);
    QTreeWidgetItem* row = view->tree()->topLevelItem(0);
    QCOMPARE(row->text(0), QString("KRvK"));
    QCOMPARE(row->text(1), QString("running (job 7)"));
    QCOMPARE(row->text(2), QString("-"));  // verify: not submitted
    QCOMPARE(row->text(3), QString("queued (job 8)"));
    QVERIFY2(view->summary()->text().contains("1 running"), qPrintable(view->summary()->text()));

    // The table job left the queue without finishing: failed, its log's last line in the tooltip.
    queue = "8|PENDING|DependencyNeverSatisfied\n";
    std::filesystem::create_directories(cluster::logs_dir(dir));
    std::ofstream(cluster::log_path(dir, krvk, run::BatchStage::Table, "7")) << "egtmin-cli: error: cancelled\n";
    view->refresh();
    QVERIFY(refreshed.wait(ms(10000)));
    row = view->tree()->topLevelItem(0);
    QCOMPARE(row->text(1), QString("failed (job 7)"));
    QVERIFY2(row->toolTip(1).contains("egtmin-cli: error: cancelled"), qPrintable(row->toolTip(1)));
    QCOMPARE(row->text(3), QString("failed (job 8)"));
    view->setCommandRunner(cluster::run_command);
  }

  void balanceTreeAndFilter() {
    BalancePicker* b = panel_->balances();
    QCOMPARE(b->model()->rowCount(), 4);           // 2, 3, 4, 5 pieces
    QCOMPARE(b->model()->item(0)->rowCount(), 1);  // KvK
    b->filterEdit()->setText("KQv");
    QVERIFY(b->proxy()->rowCount() >= 2);
    // Every visible leaf matches.
    for (int g = 0; g < b->proxy()->rowCount(); ++g) {
      QModelIndex gi = b->proxy()->index(g, 0);
      for (int r = 0; r < b->proxy()->rowCount(gi); ++r)
        QVERIFY(b->proxy()->index(r, 0, gi).data().toString().contains("KQv", Qt::CaseInsensitive));
    }
    // Checking a group checks its visible children only.
    QStandardItem* three = b->model()->item(1);
    three->setCheckState(Qt::Checked);
    QVERIFY(b->checked().contains("KQvK"));
    QVERIFY(!b->checked().contains("KRvK"));
    b->filterEdit()->clear();
    b->clearChecks();
    QVERIFY(b->checked().isEmpty());
    b->setChecked("KvKR", true);  // colour-flipped name picks the canonical balance
    QCOMPARE(b->checked(), QStringList{"KRvK"});
    b->clearChecks();
    QVERIFY(!panel_->startButton()->isEnabled());
  }

  void passPresetsAndValidation() {
    PassPicker* p = panel_->passes();
    p->applyPreset(0);
    QCOMPARE(p->passes(), QString("canon,compact,expand,irredundant"));
    QVERIFY(p->valid());
    p->edit()->clear();
    QTest::keyClicks(p->edit(), "canon,compactt");
    QVERIFY(!p->valid());
    QVERIFY(p->sequence().empty());  // what a run would get: nothing from a list that names no pass
    QCOMPARE(p->presetBox()->currentText(), QString("custom"));
    panel_->balances()->setChecked("KQvK", true);
    QVERIFY(!panel_->startButton()->isEnabled());
    p->setPasses("canon,compact,espresso");
    QVERIFY(p->valid());
    QCOMPARE(logic::passes_string(p->sequence()), std::string("canon,compact,espresso"));
    QCOMPARE(p->presetBox()->currentText(), QString("espresso"));
    QVERIFY(panel_->startButton()->isEnabled());
    panel_->balances()->clearChecks();
  }

  void smallRunCompletes() {
    panel_->balances()->setChecked("KQvK", true);
    panel_->passes()->applyPreset(0);
    QSignalSpy done(panel_, &RunsPanel::runFinished);
    panel_->startButton()->click();
    QCOMPARE(panel_->jobs().size(), 1);
    RunJob* job = panel_->jobs().last();
    QVERIFY(job->wait(ms(60000)));
    QVERIFY2(job->state() == RunJob::State::Done, qPrintable(job->error()));
    QCOMPARE(done.count(), 1);
    // One log line per pass, each with cubes, literals, seconds and memory.
    int passLines = 0;
    for (const QString& l : job->log())
      if (l.startsWith("KQvK ") && l.contains(" cubes, ") && l.contains("MiB")) ++passLines;
    QCOMPARE(passLines, 4);
    QVERIFY(job->log().join('\n').contains("table KvK: generated"));
    // The cover file is written and loads.
    auto b = Balance::parse("KQvK");
    auto cover = store::load_cover(store::cover_path(dir_.path().toStdString(), *b));
    QVERIFY2(cover.ok(), cover.ok() ? "" : cover.error().message.c_str());
    QVERIFY(!cover->cubes.empty());
    RunWidget* w = panel_->runWidgets().first();
    QCOMPARE(w->progressBar()->value(), 1000);
    QVERIFY(!w->cancelButton()->isEnabled());
    QVERIFY(w->logView()->toPlainText().contains("irredundant"));
    panel_->balances()->clearChecks();
  }

  void planShowsTheTablesAndThePeakAndRefusesOverTheLimit() {
    panel_->passes()->applyPreset(0);
    panel_->balances()->setChecked("KRPvKR", true);
    const QString plan = panel_->planLabel()->text();
    // From an empty data directory KRPvKR needs every smaller table it reaches, 5-piece ones
    // included, and the largest step is its own table.
    QVERIFY2(plan.contains("Makes ") && plan.contains("table(s) first"), qPrintable(plan));
    QVERIFY2(plan.contains("Expected peak memory: ") && plan.contains("KRPvKR"), qPrintable(plan));
    QVERIFY2(plan.contains(" GB"), qPrintable(plan));
    QVERIFY(panel_->startButton()->isEnabled());
    panel_->setMemoryLimit(quint64(1) << 30);  // a 1 GiB machine cannot hold KRPvKR's table
    QVERIFY2(panel_->planLabel()->text().startsWith("Refused: "), qPrintable(panel_->planLabel()->text()));
    QVERIFY(panel_->planLabel()->text().contains("KRPvKR"));
    QVERIFY(!panel_->startButton()->isEnabled());
    QVERIFY(!panel_->verifyButton()->isEnabled());
    panel_->setMemoryLimit(0);
    QVERIFY(panel_->startButton()->isEnabled());
    panel_->balances()->clearChecks();
    QVERIFY(panel_->planLabel()->text().isEmpty());
  }

  void dependencyStagesAreShownAsTheRunGoes() {
    // KPvK promotes into the four 3-piece balances with a piece: six tables, each a named stage.
    RunSpec spec;
    spec.balances = {"KPvK"};
    spec.dataDir = dir_.path() + "/stages";
    spec.threads = 1;
    RunJob* job = new RunJob(spec, panel_);
    QStringList stages;
    QList<double> fractions;
    connect(job, &RunJob::progressed, this, [&] {
      if (stages.isEmpty() || stages.last() != job->stage()) stages << job->stage();
      fractions << job->fraction();
    });
    job->start();
    QVERIFY(job->wait(ms(60000)));
    QVERIFY2(job->state() == RunJob::State::Done, qPrintable(job->error()));
    // Every table is shown as a stage, however fast it was made, and in order.
    const QString all = stages.join('\n');
    for (int t = 1; t <= 6; ++t) QVERIFY2(all.contains(QString("generate: table %1 of 6, ").arg(t)), qPrintable(all));
    QVERIFY2(all.contains("table 6 of 6, KPvK"), qPrintable(all));
    int last = 0;
    const QRegularExpression step("^generate: table ([1-6]) of 6, K[A-Z]*vK: ");
    for (const QString& st : stages) {
      if (!st.startsWith("generate: ")) continue;
      const auto m = step.match(st);
      QVERIFY2(m.hasMatch(), qPrintable(st));
      QVERIFY(m.captured(1).toInt() >= last);
      last = m.captured(1).toInt();
    }
    // The log names every table as it is made.
    const QString log = job->log().join('\n');
    for (const char* b : {"KvK", "KQvK", "KRvK", "KBvK", "KNvK", "KPvK"})
      QVERIFY2(log.contains(QString("table %1: generated in ").arg(b)), qPrintable(log));
    for (int i = 1; i < fractions.size(); ++i) QVERIFY(fractions[i] + 1e-9 >= fractions[i - 1]);
    QCOMPARE(job->fraction(), 1.0);
    delete job;
  }

  void verifyAndCheckFromTheWorkbench() {
    // KQvK's table and cover exist (smallRunCompletes).
    panel_->balances()->setChecked("KQvK", true);
    QVERIFY(panel_->verifyButton()->isEnabled());
    panel_->verifyButton()->click();
    RunJob* verify = panel_->jobs().last();
    QCOMPARE(verify->spec().kind, RunSpec::Kind::Verify);
    QVERIFY(verify->wait(ms(60000)));
    QVERIFY2(verify->state() == RunJob::State::Done, qPrintable(verify->error()));
    const QString vlog = verify->log().join('\n');
    QVERIFY2(vlog.contains("KQvK self-check: ") && vlog.contains(", 0 failures"), qPrintable(vlog));
    if (ctx_->syzygy()) {
      QVERIFY2(vlog.contains("KQvK against Syzygy: ") && vlog.contains(", 0 mismatches"), qPrintable(vlog));
      QVERIFY(vlog.contains("cursed win"));  // the five values are counted
    }

    panel_->checkButton()->click();
    RunJob* check = panel_->jobs().last();
    QCOMPARE(check->spec().kind, RunSpec::Kind::Check);
    QVERIFY(check->wait(ms(60000)));
    QVERIFY2(check->state() == RunJob::State::Done, qPrintable(check->error()));
    const QString clog = check->log().join('\n');
    QVERIFY2(clog.contains("KQvK cover: ") && clog.contains("KQvK indexed probe: "), qPrintable(clog));
    QVERIFY(!clog.contains(QRegularExpression(" [1-9][0-9]* mismatches")));

    // A balance with a table but no cover: the check fails and says how to make one.
    panel_->balances()->clearChecks();
    panel_->balances()->setChecked("KvK", true);
    panel_->checkButton()->click();
    RunJob* missing = panel_->jobs().last();
    QVERIFY(missing->wait(ms(60000)));
    QCOMPARE(missing->state(), RunJob::State::Failed);
    QVERIFY2(missing->error().contains("minimize"), qPrintable(missing->error()));
    panel_->balances()->clearChecks();
  }

  void captureResolvedCoversAreMadeAndChecked() {
    // The capture search of KPvK's positions probes the balances its captures and promotions reach.
    for (const char* b : {"KvK", "KRvK", "KBvK", "KNvK", "KPvK"}) panel_->balances()->setChecked(b, true);
    panel_->passes()->applyPreset(0);
    panel_->captureResolvedBox()->setChecked(true);
    panel_->startButton()->click();
    RunJob* run = panel_->jobs().last();
    QCOMPARE(run->spec().coverKind, store::CoverKind::CaptureResolved);
    QVERIFY(run->title().contains("capture-resolved"));
    QVERIFY(run->wait(ms(60000)));
    QVERIFY2(run->state() == RunJob::State::Done, qPrintable(run->error()));
    const Balance kpk = *Balance::parse("KPvK");
    QVERIFY(
        std::filesystem::exists(store::cover_path(dir_.path().toStdString(), kpk, store::CoverKind::CaptureResolved)));

    panel_->balances()->clearChecks();
    panel_->balances()->setChecked("KPvK", true);
    panel_->checkButton()->click();
    RunJob* check = panel_->jobs().last();
    QVERIFY(check->title().contains("capture-resolved"));
    QVERIFY(check->wait(ms(60000)));
    QVERIFY2(check->state() == RunJob::State::Done, qPrintable(check->error()));
    const QString log = check->log().join('\n');
    QVERIFY2(log.contains("KPvK indexed probe: ") && log.contains(" 0 mismatches"), qPrintable(log));
    panel_->captureResolvedBox()->setChecked(false);
    panel_->balances()->clearChecks();
  }

  void cancelRun() {
    // A 4-piece balance from scratch takes seconds: long enough to cancel mid-way.
    RunSpec spec;
    spec.balances = {"KQvKR"};
    spec.dataDir = dir_.path() + "/cancel";
    spec.threads = 1;
    RunJob* job = panel_->startRun(spec);
    QTRY_VERIFY_WITH_TIMEOUT(!job->stage().isEmpty(), ms(20000));
    QVERIFY(job->active());
    RunWidget* w = nullptr;
    for (RunWidget* rw : panel_->runWidgets())
      if (rw->job() == job) w = rw;
    QVERIFY(w);
    w->cancelButton()->click();
    QVERIFY(job->wait(ms(30000)));
    QCOMPARE(job->state(), RunJob::State::Cancelled);
    QCOMPARE(panel_->activeCount(), 0);
    panel_->clearFinished();
    QCOMPARE(panel_->jobs().size(), 0);
  }

  void badBalanceFails() {
    RunSpec spec;
    spec.balances = {"KQQQQQvK"};
    spec.dataDir = dir_.path();
    RunJob* job = panel_->startRun(spec);
    QVERIFY(job->wait(ms(10000)));
    QCOMPARE(job->state(), RunJob::State::Failed);
    QVERIFY(job->error().contains("5"));
    spec.balances = {"KXvK"};
    job = panel_->startRun(spec);
    QVERIFY(job->wait(ms(10000)));
    QCOMPARE(job->state(), RunJob::State::Failed);
    QVERIFY(!job->error().isEmpty());
    // A bad pass name never reaches a run: the picker parses the text (passPresetsAndValidation).
  }
};

QTEST_MAIN(TestRuns)
#include "test_runs.moc"
