// SPDX-License-Identifier: GPL-3.0-or-later
// A first start with nothing configured: empty settings (QSettings redirected to a temporary
// directory, QStandardPaths in test mode) and an empty data directory (XDG_DATA_HOME pointing at a
// temporary one, no $EGTMIN_SYZYGY). The window explains what to do and offers the 3-piece set; one
// click generates and minimizes it in the background, after which the covers are on disk, probe
// correctly (KQvK is a win for the side with the queen), and the probe panel answers from them.
// The welcome is shown once.
#include <QAbstractButton>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "app_context.hpp"
#include "board/board_editor_widget.hpp"
#include "chess/balance.hpp"
#include "main_window.hpp"
#include "probe/cover_prober.hpp"
#include "probe/probe_memory.hpp"
#include "probe/probe_panel.hpp"
#include "runs/runs_panel.hpp"
#include "ui_test_support.hpp"

using namespace egtmin;
using namespace egtmin::ui;
using egtmin::ui::test::ms;

class TestFirstStart : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  QString data_;

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("egtmin-first-start-test"));
    QCoreApplication::setApplicationName(QStringLiteral("egtmin"));
    const QString config = dir_.filePath("config");
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, config);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, config);
    qputenv("XDG_DATA_HOME", dir_.filePath("xdg-data").toUtf8());
    qunsetenv("EGTMIN_SYZYGY");
    data_ = QDir(dir_.filePath("xdg-data")).filePath("egtmin");
    QSettings s;
    QVERIFY2(s.fileName().startsWith(config), qPrintable(s.fileName()));
    QVERIFY(s.allKeys().isEmpty());
  }

  void oneClickMakesTheThreePieceSet() {
    MainWindow w;  // reads the (empty) settings
    AppContext* ctx = w.context();
    QVERIFY(ctx->firstStart());
    QCOMPARE(ctx->dataDir(), data_);
    QVERIFY(!QDir(data_).exists());
    QVERIFY(!ctx->syzygy());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));

    w.maybeWelcome();
    QMessageBox* box = w.welcomeBox();
    QVERIFY(box);
    QTRY_VERIFY(box->isVisible());
    // It says where data goes, that Syzygy is not set, and what the one click does.
    QVERIFY2(box->text().contains(data_), qPrintable(box->text()));
    QVERIFY(box->text().contains(QStringLiteral("none set yet")));
    QVERIFY(box->text().contains(QStringLiteral("3-piece")));
    QPushButton* setup = w.welcomeSetupButton();
    QVERIFY(setup);
    QCOMPARE(box->defaultButton(), setup);
    QVERIFY(QSettings().value("started").toBool());  // shown once

    QTest::mouseClick(setup, Qt::LeftButton);
    QTRY_VERIFY(!w.welcomeBox());  // closed (and deleted)
    QCOMPARE(w.runsPanel()->jobs().size(), 1);
    RunJob* job = w.runsPanel()->jobs().first();
    QVERIFY(job->active());
    QCOMPARE(logic::passes_string(job->spec().passes), std::string("canon,compact,expand,irredundant"));
    QVERIFY(job->wait(ms(60000)));
    QVERIFY2(job->state() == RunJob::State::Done, qPrintable(job->error()));

    // Every balance with up to 3 pieces has its table and cover.
    for (const Balance& b : Balance::all_up_to(3)) {
      const QString name = QString::fromStdString(b.name());
      QVERIFY2(QFileInfo::exists(QDir(data_).filePath("tables/" + name + ".egtt")), qPrintable(name));
      QVERIFY2(QFileInfo::exists(QDir(data_).filePath("covers/" + name + ".egtc")), qPrintable(name));
    }
    // The covers probe: KQvK is won by the side with the queen, from either side to move.
    auto prober = probe::CoverProber::open(data_.toStdString());
    QVERIFY(prober);
    for (probe::Method m : {probe::Method::Indexed, probe::Method::Linear}) {
      auto white = Position::from_fen("8/8/8/3k4/8/8/2Q5/4K3 w - - 0 1");
      auto black = Position::from_fen("8/8/8/3k4/8/8/2Q5/4K3 b - - 0 1");
      auto flipped = Position::from_fen("4k3/2q5/8/8/3K4/8/8/8 b - - 0 1");  // KvKQ, Black's queen
      QVERIFY(white && black && flipped);
      QCOMPARE((*prober)->probe(*white, m)->wdl, Wdl::Win);
      QCOMPARE((*prober)->probe(*black, m)->wdl, Wdl::Loss);
      QCOMPARE((*prober)->probe(*flipped, m)->wdl, Wdl::Win);
    }
    // The window shows it: values from the covers, for the board's KQvK start position.
    QCOMPARE(ctx->source(), AppContext::Source::Covers);
    QCOMPARE(Balance::of(w.boardEditor()->editor()->position()).name(), std::string("KQvK"));
    ProbePanel* probe = w.probePanel();
    QTRY_VERIFY_WITH_TIMEOUT(probe->result().ours.has_value(), ms(10000));
    QVERIFY(probe->waitIdle());
    QCOMPARE(*probe->result().ours, Wdl::Win);
    QVERIFY(!probe->result().oursDetail.isEmpty());  // the matching cube, from the cover
  }

  void secondStartIsQuiet() {
    MainWindow w;
    QVERIFY(!w.context()->firstStart());
    QCOMPARE(w.context()->dataDir(), data_);
    w.maybeWelcome();
    QVERIFY(!w.welcomeBox());
  }

  void probeMemoryIsRemembered() {
    {
      AppContext ctx;
      QCOMPARE(ctx.probeMemory(), probe::kDefaultProbeMemory);
      ctx.setProbeMemory(probe::ProbeMemory::Smallest);
    }
    QCOMPARE(QSettings().value("probeMemory").toString(), QString("smallest"));  // by name
    QCOMPARE(AppContext().probeMemory(), probe::ProbeMemory::Smallest);
    QSettings().setValue("probeMemory", "roomy");  // a name this version does not know: the default
    QCOMPARE(AppContext().probeMemory(), probe::kDefaultProbeMemory);
    QSettings().remove("probeMemory");
  }

  void welcomeWithCoversOffersNoSetup() {
    // Settings forgotten, data kept: the welcome says the set is there and offers no run.
    QSettings().clear();
    MainWindow w;
    QVERIFY(w.context()->firstStart());
    w.maybeWelcome();
    QVERIFY(w.welcomeBox());
    QVERIFY(!w.welcomeSetupButton());
    QVERIFY(w.welcomeBox()->text().contains(QStringLiteral("already there")));
    w.welcomeBox()->buttons().first()->click();
    QTRY_VERIFY(!w.welcomeBox());
    QVERIFY(w.runsPanel()->jobs().isEmpty());
  }
};

QTEST_MAIN(TestFirstStart)
#include "test_first_start.moc"
