// SPDX-License-Identifier: GPL-3.0-or-later
// Probe panel and move list: known values, colour-flipped balances, missing tables, playing moves
// and back/forward, the covers' memory levels, the answering cube drawn on the board in the
// position's frame, and the model contract (QAbstractItemModelTester).
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <map>

#include "app_context.hpp"
#include "board/board_editor.hpp"
#include "board/board_widget.hpp"
#include "covers/cube_overlay.hpp"
#include "logic/pipeline.hpp"
#include "probe/cover_builder.hpp"
#include "probe/move_list_model.hpp"
#include "probe/probe_engine.hpp"
#include "probe/probe_memory.hpp"
#include "probe/probe_panel.hpp"
#include "probe/table_value_source.hpp"
#include "store/cover_file.hpp"
#include "table/cover_canon.hpp"
#include "ui_test_support.hpp"

using namespace egtmin;
using namespace egtmin::ui;
using egtmin::ui::test::ms;

namespace {
// One mark per piece of pos, and each piece on a square its mark holds.
bool onTheirDots(const std::vector<BoardWidget::Overlay>& marks, const Position& pos) {
  if (int(marks.size()) != pos.piece_count()) return false;
  for (int s = 0; s < 64; ++s) {
    const Piece p = pos.at(Square(s));
    if (p == NoPiece) continue;
    bool on = false;
    for (const BoardWidget::Overlay& m : marks) on = on || (m.piece == p && (m.squares & bb(Square(s))));
    if (!on) return false;
  }
  return true;
}
}  // namespace

class TestProbe : public QObject {
  Q_OBJECT
  AppContext* ctx_ = nullptr;
  BoardEditor* editor_ = nullptr;
  ProbePanel* panel_ = nullptr;
  bool syzygy_ = false;

  void set(const char* fen) {
    QString err;
    QVERIFY2(editor_->setFen(fen, &err), qPrintable(err));
    QVERIFY(panel_->waitIdle());
  }

  // Covers of these balances, minimized from the test tables with the paper's passes, saved in
  // `dir`'s covers/ (without probe layouts: the first open builds and writes them).
  static bool saveCovers(const QString& dir, std::initializer_list<const char*> names) {
    TableStore store(ui::test::dataDir().toStdString());
    for (const char* name : names) {
      auto t = store.get(*Balance::parse(name));
      if (!t.ok()) return false;
      auto m = logic::minimize_table(**t, *logic::parse_passes("canon,compact,expand,irredundant"), {});
      if (!m.ok()) return false;
      store::CoverFile cf;
      cf.balance = *Balance::parse(name);
      cf.inputs = (**t).encoding().bits();
      cf.canon = m->scheme;
      cf.passes = "canon,compact,expand,irredundant";
      cf.cubes = m->cover;
      if (!store::save_cover(store::cover_path(dir.toStdString(), cf.balance), cf).ok()) return false;
    }
    return true;
  }

 private Q_SLOTS:
  void initTestCase() {
    for (const char* b : {"KQvK", "KRvK", "KRvKR"}) QVERIFY2(ui::test::ensureTable(b), b);
    ctx_ = new AppContext(ui::test::dataDir(), ui::test::syzygyDir(), this);
    syzygy_ = ctx_->syzygy() != nullptr;
    if (!syzygy_) qWarning("%s", ui::test::syzygyMissing());
    editor_ = new BoardEditor(this);
    panel_ = new ProbePanel(ctx_, editor_);
    new QAbstractItemModelTester(panel_->model(), QAbstractItemModelTester::FailureReportingMode::QtTest, this);
    panel_->resize(600, 700);
    panel_->show();
    QVERIFY(QTest::qWaitForWindowExposed(panel_));
  }
  void cleanupTestCase() { delete panel_; }

  void kqkWhiteWins() {
    set("8/8/8/4k3/8/8/8/4K2Q w - - 0 1");
    const ProbeResult& r = panel_->result();
    QVERIFY(r.illegal.isEmpty());
    QVERIFY(r.ours.has_value());
    QCOMPARE(*r.ours, Wdl::Win);
    QVERIFY(!r.moves.empty());
    QCOMPARE(r.moves.front().group, MoveGroup::Win);
    QCOMPARE(*r.moves.front().ours, Wdl::Win);
    // Sorted: groups never go back up the list.
    for (size_t i = 1; i < r.moves.size(); ++i) QVERIFY(r.moves[i - 1].group <= r.moves[i].group);
    QVERIFY(panel_->oursLabel()->text().contains("win"));
    if (!syzygy_) QSKIP(ui::test::syzygyMissing());
    QCOMPARE(*r.syzygy, SyzygyWdl::Win);
    QVERIFY(r.dtz && *r.dtz > 0);
    QCOMPARE(r.agree, Agreement::Agree);
    for (const ProbeMove& m : r.moves) QVERIFY2(m.agree == Agreement::Agree, qPrintable(m.text));
    // The best move's DTZ is the position's DTZ (Syzygy's own ranking).
    QCOMPARE(*r.moves.front().dtz, *r.dtz);
    QVERIFY(panel_->agreeLabel()->text().contains("agree"));
  }

  void krkrMostlyDraws() {
    set("8/8/3k4/8/8/3K4/r7/7R w - - 0 1");
    const ProbeResult& r = panel_->result();
    QCOMPARE(*r.ours, Wdl::Draw);
    int draws = 0;
    for (const ProbeMove& m : r.moves) draws += m.ours && *m.ours == Wdl::Draw;
    QVERIFY(draws * 2 > int(r.moves.size()));
    // The model shows the same rows.
    QCOMPARE(panel_->model()->rowCount(), int(r.moves.size()));
    if (!syzygy_) QSKIP(ui::test::syzygyMissing());
    QCOMPARE(r.agree, Agreement::Agree);
    for (const ProbeMove& m : r.moves) QVERIFY2(m.agree == Agreement::Agree, qPrintable(m.text));
  }

  void colourFlippedKvKR() {
    // White has only the king: the balance KvKR is stored as KRvK.
    set("8/8/8/4k3/8/8/r7/4K3 w - - 0 1");
    const ProbeResult& r = panel_->result();
    QCOMPARE(QString::fromStdString(r.balance.name()), QString("KvKR"));
    QCOMPARE(QString::fromStdString(r.balance.canonical().name()), QString("KRvK"));
    QVERIFY2(r.ours.has_value(), qPrintable(r.oursMessage));
    QCOMPARE(*r.ours, Wdl::Loss);
    if (!syzygy_) QSKIP(ui::test::syzygyMissing());
    QCOMPARE(*r.syzygy, SyzygyWdl::Loss);
    QVERIFY(*r.dtz < 0);
    QCOMPARE(r.agree, Agreement::Agree);
  }

  void playMoveBackForward() {
    set("8/8/8/4k3/8/8/8/4K2Q w - - 0 1");
    const Position start = editor_->position();
    const Move best = panel_->result().moves.front().move;
    // Double-click the first row, as a user would.
    QTableView* v = panel_->view();
    const QRect cell = v->visualRect(panel_->model()->index(0, 0));
    QTest::mouseClick(v->viewport(), Qt::LeftButton, Qt::NoModifier, cell.center());
    QTest::mouseDClick(v->viewport(), Qt::LeftButton, Qt::NoModifier, cell.center());
    QVERIFY(panel_->waitIdle());
    QCOMPARE(editor_->position(), start.after(best));
    QCOMPARE(editor_->position().side_to_move(), Black);
    // Black loses in every line.
    QCOMPARE(*panel_->result().ours, Wdl::Loss);
    panel_->playRow(0);
    QVERIFY(panel_->waitIdle());
    const Position twoPlies = editor_->position();
    panel_->back();
    panel_->back();
    QVERIFY(panel_->waitIdle());
    QCOMPARE(editor_->position(), start);
    panel_->forward();
    panel_->forward();
    QCOMPARE(editor_->position(), twoPlies);
    // An edit starts a new history: forward does nothing.
    editor_->toggleSideToMove();
    const Position edited = editor_->position();
    panel_->forward();
    QCOMPARE(editor_->position(), edited);
    QVERIFY(panel_->waitIdle());
  }

  void missingTableOffersGeneration() {
    set("8/8/8/4k3/8/8/8/2B1K1N1 w - - 0 1");  // KBNvK: not generated here
    const ProbeResult& r = panel_->result();
    QVERIFY(!r.ours);
    QVERIFY(!r.ourAvailable);
    QVERIFY(!panel_->generateButton()->isHidden());
    QVERIFY(panel_->generateButton()->text().contains("KBNvK"));
    QSignalSpy spy(panel_, &ProbePanel::generateRequested);
    panel_->generateButton()->click();
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), QString("KBNvK"));
    QVERIFY(!spy.at(0).at(1).toBool());  // the table, not a cover
  }

  void illegalPositionSaysWhy() {
    editor_->clear();
    QVERIFY(panel_->waitIdle());
    QVERIFY(!panel_->result().illegal.isEmpty());
    QCOMPARE(panel_->model()->rowCount(), 0);
  }

  void checkmateAndStalemate() {
    set("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");  // stalemate
    QCOMPARE(panel_->model()->rowCount(), 0);
    QCOMPARE(*panel_->result().ours, Wdl::Draw);
    set("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");  // mate
    QCOMPARE(*panel_->result().ours, Wdl::Loss);
  }

  void engineWithoutSources() {
    auto pos = Position::from_fen("8/8/8/4k3/8/8/8/4K2Q w - - 0 1");
    QVERIFY(pos.ok());
    ProbeResult r = ProbeEngine::compute(*pos, nullptr, nullptr);
    QVERIFY(!r.ours);
    QVERIFY(!r.syzygy);
    QCOMPARE(r.moves.size(), legal_moves(*pos).size());
    MoveListModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setResult(r);
    QCOMPARE(m.rowCount(), int(r.moves.size()));
    QCOMPARE(m.data(m.index(0, MoveListModel::ColOurs), Qt::DisplayRole).toString(), QString("—"));
  }

  // The 50-move rule's values from a source: named, grouped and explained in the move list.
  void cursedWinsAndBlessedLossesAreShown() {
    struct RuleSource : ValueSource {
      QString name() const override { return "rule test"; }
      bool available(const Balance&) const override { return true; }
      Result<Wdl> probe(const Position& pos, ProbeDetail*) override {
        return pos.side_to_move() == White ? Wdl::CursedWin : Wdl::BlessedLoss;
      }
    } source;
    auto pos = Position::from_fen("8/8/8/4k3/8/8/8/4K2Q w - - 0 1");
    QVERIFY(pos.ok());
    ProbeResult r = ProbeEngine::compute(*pos, &source, nullptr);
    QCOMPARE(*r.ours, Wdl::CursedWin);
    QVERIFY(!r.moves.empty());
    for (const ProbeMove& m : r.moves) {
      QCOMPARE(*m.ours, Wdl::CursedWin);  // the reply's blessed loss, for the mover
      QCOMPARE(m.group, MoveGroup::CursedWin);
    }
    QCOMPARE(agreement(Wdl::CursedWin, SyzygyWdl::CursedWin), Agreement::Agree);
    QCOMPARE(agreement(Wdl::Win, SyzygyWdl::CursedWin), Agreement::Disagree);
    QCOMPARE(agreement(Wdl::BlessedLoss, SyzygyWdl::BlessedLoss), Agreement::Agree);
    MoveListModel m;
    m.setResult(r);
    const QModelIndex ours = m.index(0, MoveListModel::ColOurs);
    QCOMPARE(m.data(ours, Qt::DisplayRole).toString(), QString("cursed win"));
    QVERIFY(m.data(ours, Qt::ToolTipRole).toString().contains("50-move rule"));
    QCOMPARE(m.data(m.index(0, MoveListModel::ColGroup), Qt::DisplayRole).toString(), QString("cursed win"));
  }

  void coverSourceAgreesWithTables() {
    // Covers made from the test tables, in a data directory of their own.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(saveCovers(dir.path(), {"KQvK", "KRvK"}));
    AppContext covers(dir.path(), ui::test::syzygyDir());
    covers.setSource(AppContext::Source::Covers);
    BoardEditor editor;
    ProbePanel panel(&covers, &editor);
    BoardWidget board;  // wired as the main window wires it
    connect(&panel, &ProbePanel::overlayChanged, &board, &BoardWidget::setOverlay);
    QCOMPARE(panel.sourceBox()->currentIndex(), 1);
    TableValueSource tables(ui::test::dataDir().toStdString());
    // Positions where no move captures (every successor is in the same balance's cover), one
    // colour-flipped.
    for (const char* fen : {"8/8/8/3k4/8/8/8/1Q2K3 w - - 0 1", "8/8/8/3k4/8/8/8/1Q2K3 b - - 0 1",
                            "8/8/8/8/4K3/8/8/q3k3 b - - 0 1", "8/2k5/8/8/8/8/8/K6R b - - 0 1"}) {
      QString err;
      QVERIFY2(editor.setFen(fen, &err), qPrintable(err));
      QVERIFY(panel.waitIdle());
      const ProbeResult& r = panel.result();
      QCOMPARE(r.sourceName, QString("cover"));
      QVERIFY2(r.ours.has_value(), qPrintable(r.oursMessage));
      auto expected = tables.probe(*Position::from_fen(fen));
      QVERIFY(expected.ok());
      QCOMPARE(*r.ours, *expected);
      QVERIFY(!r.oursDetail.isEmpty());  // the matching cube
      QVERIFY(panel.detailLabel()->text().startsWith("Cube: "));
      // ... drawn on the board, in the position's frame: every piece on one of its dots.
      QVERIFY(r.oursCube != 0);
      QVERIFY2(onTheirDots(board.overlay(), r.position), fen);
      QCOMPARE(board.overlay().size(), panel.cubeOverlay().marks.size());
      QVERIFY(!panel.cubeLegendLabel()->isHidden());
      QVERIFY(panel.cubeLegendLabel()->text().startsWith("On the board: "));
      for (const ProbeMove& m : r.moves) {
        auto v = tables.probe(r.position.after(m.move));
        QVERIFY(v.ok());
        QVERIFY2(m.ours && *m.ours == negate(*v), qPrintable(m.text));
      }
    }
    // A balance without a cover offers to make one.
    QVERIFY(editor.setFen("8/8/8/4k3/8/8/8/2B1K1N1 w - - 0 1"));
    QVERIFY(panel.waitIdle());
    QVERIFY(!panel.generateButton()->isHidden());
    QVERIFY(panel.generateButton()->text().contains("cover"));
    QVERIFY(board.overlay().empty());  // no cube answered: the panel takes its marks away
    QVERIFY(panel.cubeLegendLabel()->isHidden());
    QSignalSpy spy(&panel, &ProbePanel::generateRequested);
    panel.generateButton()->click();
    QVERIFY(spy.at(0).at(1).toBool());  // a cover
  }

  // A cube holding only a position's representative (colours swapped into the stored balance,
  // the board turned, identical pieces sorted, as each scheme makes it) is drawn back on the
  // position's own board: each mark is the one square its piece stands on.
  void cubeOverlayTurnsBackToThePosition() {
    const struct {
      const char* fen;
      CanonScheme scheme;
    } cases[] = {
        {"8/8/8/8/8/2k5/8/6RK w - - 0 1", CanonScheme::Board},   // the king turned into a8-d8-d5
        {"6rk/8/8/8/8/8/2K5/8 w - - 0 1", CanonScheme::Board},   // KvKR, stored as KRvK
        {"8/8/8/8/8/k7/6P1/7K w - - 0 1", CanonScheme::Board},   // a pawn: the files mirrored
        {"8/8/8/3k4/8/8/r7/4K2R b - - 0 1", CanonScheme::Full},  // KRvKR, Black to move: colours swapped
        {"8/8/8/3k4/8/8/r7/4K2R w - - 0 1", CanonScheme::None},  // the position itself
    };
    for (const auto& c : cases) {
      auto pos = Position::from_fen(c.fen);
      QVERIFY2(pos.ok(), c.fen);
      const Balance cover = Balance::of(*pos).canonical();
      const Encoding enc(cover);
      const bool flipped = Balance::of(*pos) != cover;
      const auto placed = enc.placement(flipped ? pos->color_flipped() : *pos);
      QVERIFY2(placed.has_value(), c.fen);
      const auto rep = CoverCanon(enc, c.scheme).canonical(*placed);
      const logic::CubeWord cube = logic::minterm(enc.encode(rep.placement), enc.bits(), logic::Output::Draw);
      const CubeOverlay turned = cubeOverlayFor(*pos, cover, cube);
      QVERIFY2(onTheirDots(turned.marks, *pos), c.fen);
      for (const BoardWidget::Overlay& m : turned.marks) QCOMPARE(popcount(m.squares), 1);
      QCOMPARE(turned.legend.count(QStringLiteral("●")), pos->piece_count());
      // Drawn as stored, the cube's squares hold the position only when nothing was turned.
      const CubeOverlay stored = cubeOverlay(CubeDecoder(cover), cube);
      QCOMPARE(onTheirDots(stored.marks, *pos), c.scheme == CanonScheme::None);
    }
    // A cube holding no representative of the position draws nothing.
    auto pos = Position::from_fen("8/8/8/8/8/2k5/8/6RK w - - 0 1");
    const Encoding enc(*Balance::parse("KRvK"));
    auto other = Position::from_fen("8/8/8/8/8/2k5/8/K5R1 w - - 0 1");
    const logic::CubeWord elsewhere =
        logic::minterm(enc.encode(*enc.placement(*other)), enc.bits(), logic::Output::Win);
    QVERIFY(cubeOverlayFor(*pos, enc.balance(), elsewhere).marks.empty());
    QVERIFY(cubeOverlayFor(*pos, enc.balance(), 0).marks.empty());
  }

  // The panel says what the loaded covers take and at which level; the cubes alone take less than
  // the index, and every value stays the same.
  void memoryLevelsChangeTheBytesNotTheValues() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(saveCovers(dir.path(), {"KQvK", "KRvK"}));
    AppContext covers(dir.path(), QString());
    covers.setSource(AppContext::Source::Covers);
    BoardEditor editor;
    ProbePanel panel(&covers, &editor);
    panel.show();
    QString err;
    // KQvK without captures: the position and every move's successor are in the cover.
    QVERIFY2(editor.setFen("8/8/8/3k4/8/8/8/1Q2K3 w - - 0 1", &err), qPrintable(err));
    QVERIFY(panel.waitIdle());
    auto values = [](const ProbeResult& r) {
      std::vector<std::optional<Wdl>> v{r.ours};
      for (const ProbeMove& m : r.moves) v.push_back(m.ours);
      return v;
    };
    const auto expected = values(panel.result());
    QVERIFY(expected.front().has_value());
    QCOMPARE(*expected.front(), Wdl::Win);
    std::map<probe::ProbeMemory, size_t> bytes;
    for (const probe::ProbeMemoryLevel& level : probe::probe_memory_levels()) {
      covers.setProbeMemory(level.level);  // opens the covers again, on the next probe's worker
      QVERIFY(panel.waitIdle(ms(120000)));
      const ProbeResult& r = panel.result();
      const QString name = QString::fromLatin1(level.name.data(), qsizetype(level.name.size()));
      QVERIFY2(r.sourceMemory.has_value(), qPrintable(name));
      QCOMPARE(r.sourceMemory->level, name);
      QVERIFY(r.sourceMemory->bytes > 0);
      QVERIFY(panel.memoryLabel()->isVisible());
      QVERIFY2(panel.memoryLabel()->text().contains(QStringLiteral("(%1)").arg(name)),
               qPrintable(panel.memoryLabel()->text()));
      QVERIFY2(!panel.memoryLabel()->text().contains(QStringLiteral(": 0 ")), qPrintable(panel.memoryLabel()->text()));
      QVERIFY2(values(r) == expected, qPrintable(name));
      bytes[level.level] = r.sourceMemory->bytes;
    }
    QVERIFY(bytes[probe::ProbeMemory::Smallest] < bytes[probe::ProbeMemory::Fast]);
    // The tables say nothing about memory: the label goes.
    covers.setSource(AppContext::Source::Tables);
    QVERIFY(panel.waitIdle());
    QVERIFY(!panel.memoryLabel()->isVisible());
  }

  // A 5-piece position probed from our cover beside Syzygy's file: KRPvKR, valued by Syzygy on
  // the parts of the index space (side to move, White's king and rook) the probed positions fall
  // in, indexed as every 5-piece cover is (front line and regions).
  void krpkrFromACoverBesideSyzygy() {
    if (!syzygy_) QSKIP(ui::test::syzygyMissing());
    const Balance krpkr = *Balance::parse("KRPvKR");
    if (!ctx_->syzygy()->has_wdl(krpkr)) QSKIP("no KRPvKR.rtbw in the Syzygy directory");
    const Encoding enc(krpkr);
    const CoverCanon canon(enc, CanonScheme::Full);
    constexpr int kPrefixBits = 13;
    const int rest = enc.bits() - kPrefixBits;
    const char* fens[] = {"4k3/7r/8/8/8/8/4P3/R3K3 w - - 0 1", "8/8/3k4/8/3P4/8/5r2/1R2K3 b - - 0 1",
                          "1k6/8/1P6/8/8/8/r7/1K5R w - - 0 1"};
    std::vector<uint64_t> prefixes;
    for (const char* fen : fens) {
      auto pos = Position::from_fen(fen);
      QVERIFY2(pos.ok(), fen);
      prefixes.push_back(enc.encode(canon.canonical(*enc.placement(*pos)).placement) >> rest);
    }
    std::sort(prefixes.begin(), prefixes.end());
    prefixes.erase(std::unique(prefixes.begin(), prefixes.end()), prefixes.end());
    const Syzygy& syz = *ctx_->syzygy();
    auto white_value = [&](const Placement& p) {
      const auto v = syz.wdl(enc, p);
      const Wdl stm = v ? fold(to_wdl(*v)) : Wdl::Illegal;
      return p.stm == White ? stm : negate(stm);
    };
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto cover = egtmin::test::trie_cover(krpkr, CanonScheme::Full, white_value, kPrefixBits, prefixes);
    QVERIFY(store::save_cover(store::cover_path(dir.path().toStdString(), krpkr), cover).ok());
    AppContext covers(dir.path(), ui::test::syzygyDir());
    covers.setSource(AppContext::Source::Covers);
    BoardEditor editor;
    ProbePanel panel(&covers, &editor);
    for (const char* fen : fens) {
      QString err;
      QVERIFY2(editor.setFen(fen, &err), qPrintable(err));
      QVERIFY(panel.waitIdle(ms(120000)));  // the first probe indexes the cover
      const ProbeResult& r = panel.result();
      QCOMPARE(r.sourceName, QString("cover"));
      QVERIFY2(r.ours.has_value(), qPrintable(r.oursMessage));
      QVERIFY(r.syzygy.has_value());
      QCOMPARE(r.agree, Agreement::Agree);
      QVERIFY(!r.oursDetail.isEmpty());  // the cube that answered, named
    }
  }

  void rapidChangesEndOnTheLast() {
    // Many edits in a row: the panel must end up showing the last position, not a stale one.
    set("8/8/8/4k3/8/8/8/4K2Q w - - 0 1");
    for (int i = 0; i < 10; ++i) editor_->toggleSideToMove();
    editor_->movePiece(parse_square("h1"), parse_square("h2"));
    QVERIFY(panel_->waitIdle());
    QCOMPARE(panel_->result().position, editor_->position());
  }
};

QTEST_MAIN(TestProbe)
#include "test_probe.moc"
