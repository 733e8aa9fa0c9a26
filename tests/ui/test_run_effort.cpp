// SPDX-License-Identifier: GPL-3.0-or-later
// The Runs panel's Effort choice (logic::Effort, egtmin-cli minimize --effort): Normal by default,
// High reaches the job's spec and the MinimizeOptions its worker builds (RunJob::minimizeOptions,
// which also writes the run's parameter line; the title says so too), and the choice is remembered in QSettings
// (redirected here to a temporary directory, as in test_first_start, so the user's settings are never touched).
#include <QComboBox>
#include <QCoreApplication>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include "app_context.hpp"
#include "logic/passes.hpp"
#include "runs/balance_picker.hpp"
#include "runs/pass_picker.hpp"
#include "runs/run_job.hpp"
#include "runs/runs_panel.hpp"
#include "ui_test_support.hpp"

using namespace egtmin;
using namespace egtmin::ui;
using egtmin::ui::test::ms;

namespace {
// The run's parameter line ("passes ..., <effort> effort, <n> thread(s)").
QString parameterLine(const RunJob* job) {
  for (const QString& l : job->log())
    if (l.startsWith(QLatin1String("passes "))) return l;
  return {};
}
}  // namespace

class TestRunEffort : public QObject {
  Q_OBJECT
  QTemporaryDir config_;
  QTemporaryDir data_;

  // Starts a KQvK run (paper default passes) from the panel's selection and waits for it.
  RunJob* runFromPanel(RunsPanel& panel) {
    panel.balances()->clearChecks();
    panel.balances()->setChecked("KQvK", true);
    panel.passes()->applyPreset(0);
    if (!panel.startButton()->isEnabled()) return nullptr;
    panel.startButton()->click();
    RunJob* job = panel.jobs().last();
    if (!job->wait(ms(120000))) return nullptr;
    return job;
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(config_.isValid());
    QVERIFY(data_.isValid());
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("egtmin-run-effort-test"));
    QCoreApplication::setApplicationName(QStringLiteral("egtmin"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, config_.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, config_.path());
    QSettings().clear();
  }

  void defaultIsNormal() {
    AppContext ctx(data_.path(), QString());
    RunsPanel panel(&ctx);
    QComboBox* box = panel.effortBox();
    QVERIFY(box);
    QCOMPARE(box->count(), 2);
    QCOMPARE(box->itemText(0), QString("Normal"));
    QCOMPARE(box->itemText(1), QString("High"));
    QCOMPARE(box->currentText(), QString("Normal"));
    QVERIFY(box->toolTip().contains("fewer cubes"));
    QCOMPARE(panel.effort(), logic::Effort::Normal);
    // A bare RunSpec (the first-start and probe-panel runs) is Normal too.
    QCOMPARE(RunSpec{}.effort, logic::Effort::Normal);

    RunJob* job = runFromPanel(panel);
    QVERIFY(job);
    QVERIFY2(job->state() == RunJob::State::Done, qPrintable(job->error()));
    QCOMPARE(job->spec().effort, logic::Effort::Normal);
    QCOMPARE(RunJob::request(job->spec())->effort, logic::Effort::Normal);
    QVERIFY2(parameterLine(job).contains("normal effort"), qPrintable(parameterLine(job)));
    QVERIFY(!job->title().contains("effort"));  // the title names only a non-default effort
    // Nothing chosen, nothing stored.
    QVERIFY(!QSettings().contains("runEffort"));
  }

  void highReachesTheJob() {
    AppContext ctx(data_.path(), QString());
    RunsPanel panel(&ctx);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QComboBox* box = panel.effortBox();
    // Choose High as a user does: focus the combo box and step down to the next item.
    box->setFocus();
    QTest::keyClick(box, Qt::Key_Down);
    QCOMPARE(box->currentText(), QString("High"));
    QCOMPARE(panel.effort(), logic::Effort::High);
    QCOMPARE(QSettings().value("runEffort").toString(), QString("high"));

    RunJob* job = runFromPanel(panel);
    QVERIFY(job);
    QVERIFY2(job->state() == RunJob::State::Done, qPrintable(job->error()));
    QCOMPARE(job->spec().effort, logic::Effort::High);
    QCOMPARE(RunJob::request(job->spec())->effort, logic::Effort::High);
    // Written by the worker from the options it minimizes with.
    QCOMPARE(parameterLine(job), QString("passes canon,compact,expand,irredundant, high effort, %1 thread(s)")
                                     .arg(panel.threads()->value() > 0 ? panel.threads()->value()
                                                                       : std::max(1, QThread::idealThreadCount())));
    QCOMPARE(job->title(), QString("KQvK: canon,compact,expand,irredundant (high effort)"));
    QStringList ran;
    for (const PassPoint& pt : job->points())
      if (pt.step > 0) ran << pt.pass;
    QCOMPARE(ran, (QStringList{"canon", "compact", "expand", "irredundant"}));

    // The probe panel's "minimize" offer runs at the chosen effort as well.
    panel.generate("KQvK", true);
    RunJob* offered = panel.jobs().last();
    QCOMPARE(offered->spec().effort, logic::Effort::High);
    QVERIFY(offered->wait(ms(120000)));
    QVERIFY2(offered->state() == RunJob::State::Done, qPrintable(offered->error()));
  }

  void choiceIsRemembered() {
    {
      AppContext ctx(data_.path(), QString());
      RunsPanel panel(&ctx);
      QCOMPARE(panel.effortBox()->currentText(), QString("High"));  // from highReachesTheJob
      QCOMPARE(panel.effort(), logic::Effort::High);
      panel.effortBox()->setCurrentIndex(0);
      QCOMPARE(QSettings().value("runEffort").toString(), QString("normal"));
    }
    {
      AppContext ctx(data_.path(), QString());
      RunsPanel panel(&ctx);
      QCOMPARE(panel.effort(), logic::Effort::Normal);
    }
    // A value the core parser rejects reads as Normal.
    QSettings().setValue("runEffort", "extreme");
    AppContext ctx(data_.path(), QString());
    RunsPanel panel(&ctx);
    QCOMPARE(panel.effort(), logic::Effort::Normal);
  }

  void cleanupTestCase() { QSettings().clear(); }
};

QTEST_MAIN(TestRunEffort)
#include "test_run_effort.moc"
