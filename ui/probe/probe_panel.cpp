// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/probe_panel.hpp"

#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QShortcut>
#include <QTableView>
#include <QThread>
#include <QToolButton>
#include <QVBoxLayout>

#include "app_context.hpp"
#include "board/board_editor.hpp"
#include "enum_text.hpp"
#include "probe/move_list_model.hpp"
#include "probe/probe_engine.hpp"

namespace egtmin::ui {

namespace {
QString wdlText(Wdl v) { return enumText(v); }
QString colored(const QString& text, const char* color) {
  return QStringLiteral("<span style='color:%1'>%2</span>").arg(QLatin1String(color), text.toHtmlEscaped());
}
// Wins green, losses red; the 50-move rule's cursed wins and blessed losses, which are draws by
// rule, in paler olive and orange so they read as "won/lost, but not in time".
const char* wdlColor(Wdl v) {
  switch (v) {
    case Wdl::Win: return "#106010";
    case Wdl::CursedWin: return "#7a8a10";
    case Wdl::BlessedLoss: return "#c06010";
    case Wdl::Loss: return "#a01010";
    default: return "#404040";
  }
}
}  // namespace

ProbePanel::ProbePanel(AppContext* ctx, BoardEditor* editor, QWidget* parent)
    : QWidget(parent), ctx_(ctx), editor_(editor) {
  model_ = new MoveListModel(this);
  view_ = new QTableView(this);
  view_->setObjectName("move-list");
  view_->setModel(model_);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view_->verticalHeader()->hide();
  view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  view_->horizontalHeader()->setStretchLastSection(true);
  view_->setToolTip(tr("Double-click (or Enter) plays a move"));

  title_ = new QLabel(this);
  QFont tf = title_->font();
  tf.setBold(true);
  title_->setFont(tf);
  ours_ = new QLabel(this);
  ours_->setObjectName("ours");
  syzygy_ = new QLabel(this);
  syzygy_->setObjectName("syzygy");
  agree_ = new QLabel(this);
  agree_->setObjectName("agree");
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  detail_ = new QLabel(this);
  detail_->setObjectName("detail");
  detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  detail_->setFont(QFont(QStringLiteral("DejaVu Sans Mono")));
  cubeLegend_ = new QLabel(this);
  cubeLegend_->setObjectName("cube-legend");
  cubeLegend_->setVisible(false);
  cubeLegend_->setToolTip(tr("The cube that answered, on the board: each piece may stand on the squares with its dot"));
  memory_ = new QLabel(this);
  memory_->setObjectName("memory");
  memory_->setVisible(false);
  memory_->setToolTip(
      tr("Memory the loaded cover files take. File → Settings → Probe memory trades it against probe speed."));
  sourceBox_ = new QComboBox(this);
  sourceBox_->addItem(tr("tables"), int(AppContext::Source::Tables));
  sourceBox_->addItem(tr("covers"), int(AppContext::Source::Covers));
  sourceBox_->setCurrentIndex(ctx_->source() == AppContext::Source::Covers ? 1 : 0);
  sourceBox_->setToolTip(tr("Where our values come from: the generated tables, or the minimized cover files"));
  connect(sourceBox_, &QComboBox::activated, this,
          [this](int i) { ctx_->setSource(AppContext::Source(sourceBox_->itemData(i).toInt())); });
  generate_ = new QPushButton(this);
  generate_->setVisible(false);
  back_ = new QToolButton(this);
  back_->setText(tr("◀ Back"));
  back_->setToolTip(tr("Take back the last played move (Alt+Left)"));
  back_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
  forward_ = new QToolButton(this);
  forward_->setText(tr("Forward ▶"));
  forward_->setToolTip(tr("Replay the next move (Alt+Right)"));
  forward_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Right));

  auto* grid = new QGridLayout;
  grid->addWidget(new QLabel(tr("Ours:"), this), 0, 0);
  grid->addWidget(ours_, 0, 1);
  grid->addWidget(new QLabel(tr("Syzygy:"), this), 1, 0);
  grid->addWidget(syzygy_, 1, 1);
  grid->addWidget(agree_, 0, 2, 2, 1, Qt::AlignRight | Qt::AlignVCenter);
  grid->setColumnStretch(1, 1);
  auto* nav = new QHBoxLayout;
  nav->addWidget(back_);
  nav->addWidget(forward_);
  nav->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  auto* head = new QHBoxLayout;
  head->addWidget(title_, 1);
  head->addWidget(new QLabel(tr("Ours from:"), this));
  head->addWidget(sourceBox_);
  layout->addLayout(head);
  layout->addLayout(grid);
  layout->addWidget(detail_);
  layout->addWidget(cubeLegend_);
  layout->addWidget(memory_);
  layout->addWidget(message_);
  layout->addWidget(generate_, 0, Qt::AlignLeft);
  layout->addLayout(nav);
  layout->addWidget(view_, 1);

  connect(&watcher_, &BackgroundTaskBase::finished, this, &ProbePanel::finished);
  connect(view_, &QTableView::doubleClicked, this, [this](const QModelIndex& i) { playRow(i.row()); });
  // Enter plays the selected move; not QAbstractItemView::activated, which some styles emit on a
  // single click.
  auto* play = new QShortcut(QKeySequence(Qt::Key_Return), view_, nullptr, nullptr, Qt::WidgetShortcut);
  connect(play, &QShortcut::activated, this, [this] { playRow(view_->currentIndex().row()); });
  connect(back_, &QToolButton::clicked, this, &ProbePanel::back);
  connect(forward_, &QToolButton::clicked, this, &ProbePanel::forward);
  connect(generate_, &QPushButton::clicked, this, [this] {
    const ProbeResult& r = model_->result();
    Q_EMIT generateRequested(QString::fromStdString(r.balance.canonical().name()),
                             ctx_->source() == AppContext::Source::Covers);
  });
  connect(editor_, &BoardEditor::positionChanged, this, &ProbePanel::positionChanged);
  connect(ctx_, &AppContext::changed, this, [this] {
    // The source may also change from settings or code: keep the selector truthful.
    sourceBox_->setCurrentIndex(ctx_->source() == AppContext::Source::Covers ? 1 : 0);
    reprobe();
  });
  positionChanged();
}

ProbePanel::~ProbePanel() {
  // The worker holds its own references (shared_ptr source, copied position); only wait so the
  // watcher does not outlive its result.
  watcher_.waitForFinished();
}

const ProbeResult& ProbePanel::result() const { return model_->result(); }

void ProbePanel::positionChanged() {
  const Position& pos = editor_->position();
  // A position reached by back/forward or by playing keeps the history; anything else starts anew.
  if (historyIndex_ < 0 || history_[historyIndex_].pos != pos) {
    history_ = {Step{pos, std::nullopt}};
    historyIndex_ = 0;
  }
  updateHistoryButtons();
  reprobe();
}

void ProbePanel::reprobe() {
  ++serial_;
  pending_ = true;
  title_->setText(tr("Probing…"));
  if (!watcher_.isRunning()) start();
}

void ProbePanel::start() {
  pending_ = false;
  const Position pos = editor_->position();
  const quint64 serial = serial_;
  std::shared_ptr<ValueSource> source = ctx_->valueSource();
  const Syzygy* syz = ctx_->syzygy();
  watcher_.start([pos, serial, source, syz] {
    ProbeResult r = ProbeEngine::compute(pos, source.get(), syz);
    r.serial = serial;
    return r;
  });
}

void ProbePanel::finished() {
  ProbeResult r = watcher_.result();
  if (pending_) {
    // Something changed while probing: this answer is stale.
    start();
    return;
  }
  if (r.serial == serial_) display(r);
  Q_EMIT probed();
}

bool ProbePanel::waitIdle(int timeoutMs) {
  QDeadlineTimer deadline(timeoutMs);
  while (busy() || model_->result().serial != serial_) {
    if (deadline.hasExpired()) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  return true;
}

void ProbePanel::display(const ProbeResult& r) {
  model_->setSourceName(r.sourceName);
  model_->setResult(r);
  generate_->setVisible(false);
  detail_->setVisible(!r.oursDetail.isEmpty());
  detail_->setText(r.oursDetail.isEmpty() ? QString() : tr("Cube: %1").arg(r.oursDetail));
  showCube(r);
  memory_->setVisible(r.sourceMemory.has_value());
  if (r.sourceMemory)
    memory_->setText(tr("Covers in memory: %1 (%2)")
                         .arg(QLocale().formattedDataSize(qint64(r.sourceMemory->bytes), 1, QLocale::DataSizeSIFormat),
                              r.sourceMemory->level));
  const QString stm = r.position.side_to_move() == White ? tr("White") : tr("Black");
  if (!r.illegal.isEmpty()) {
    title_->setText(tr("Illegal setup"));
    ours_->setText(QStringLiteral("—"));
    syzygy_->setText(QStringLiteral("—"));
    agree_->clear();
    message_->setText(r.illegal);
    return;
  }
  const Balance canon = r.balance.canonical();
  QString title = tr("%1, %2 to move").arg(QString::fromStdString(r.balance.name()), stm);
  if (canon != r.balance) title += tr(" (stored as %1 with colours swapped)").arg(QString::fromStdString(canon.name()));
  title_->setText(title);

  QStringList notes;
  if (r.ours) {
    ours_->setText(colored(wdlText(*r.ours), wdlColor(*r.ours)) + tr(" <small>(%1)</small>").arg(r.sourceName));
    ours_->setToolTip(QString::fromLatin1(wdl_meaning(*r.ours)));
  } else {
    ours_->setText(QStringLiteral("—"));
    if (!r.ourAvailable && is_supported(r.balance)) {
      notes << tr("No %1 for %2 yet.").arg(r.sourceName, QString::fromStdString(canon.name()));
      generate_->setText(ctx_->source() == AppContext::Source::Covers
                             ? tr("Make the %1 cover (paper default passes)").arg(QString::fromStdString(canon.name()))
                             : tr("Generate %1 (and what it needs)").arg(QString::fromStdString(canon.name())));
      generate_->setVisible(true);
    } else {
      notes << r.oursMessage;
    }
  }
  if (r.syzygy) {
    QString dtz = r.dtz ? tr(", DTZ %1 plies").arg(*r.dtz) : tr(", no DTZ file");
    const Wdl theirs = to_wdl(*r.syzygy);
    syzygy_->setText(colored(enumText(*r.syzygy), wdlColor(theirs)) + dtz.toHtmlEscaped());
    syzygy_->setToolTip(QString::fromLatin1(wdl_meaning(theirs)));
  } else {
    syzygy_->setText(QStringLiteral("—"));
    notes << r.syzygyMessage;
  }
  switch (r.agree) {
    case Agreement::Agree:
      agree_->setText(QStringLiteral("<span style='color:#106010;font-size:large'>✓ agree</span>"));
      break;
    case Agreement::Disagree:
      agree_->setText(QStringLiteral("<span style='color:#b00000;font-size:large'>✗ disagree</span>"));
      break;
    case Agreement::Unknown: agree_->clear(); break;
  }
  int differing = 0;
  for (const ProbeMove& m : r.moves) differing += m.agree == Agreement::Disagree;
  if (differing) notes << tr("%n move(s) where the values differ (red).", nullptr, differing);
  if (r.moves.empty()) notes << (r.position.in_check(r.position.side_to_move()) ? tr("Checkmate.") : tr("Stalemate."));
  message_->setText(notes.join(QLatin1Char('\n')));
}

void ProbePanel::showCube(const ProbeResult& r) {
  CubeOverlay overlay;
  if (r.oursCube && r.illegal.isEmpty()) overlay = ui::cubeOverlayFor(r.position, r.balance.canonical(), r.oursCube);
  cubeLegend_->setVisible(!overlay.marks.empty());
  cubeLegend_->setText(overlay.marks.empty() ? QString() : tr("On the board: %1").arg(overlay.legend));
  const bool drawn = !cubeOverlay_.marks.empty();
  cubeOverlay_ = std::move(overlay);
  if (drawn || !cubeOverlay_.marks.empty()) Q_EMIT overlayChanged(cubeOverlay_.marks);
}

void ProbePanel::playRow(int row) {
  const ProbeMove* m = model_->moveAt(row);
  if (!m || model_->result().position != editor_->position()) return;
  const Position next = editor_->position().after(m->move);
  history_.resize(historyIndex_ + 1);
  history_.push_back(Step{next, m->move});
  ++historyIndex_;
  editor_->setPosition(next, tr("play %1").arg(m->text));
}

void ProbePanel::back() {
  if (historyIndex_ <= 0) return;
  --historyIndex_;
  editor_->setPosition(history_[historyIndex_].pos, tr("back"));
}

void ProbePanel::forward() {
  if (historyIndex_ + 1 >= int(history_.size())) return;
  ++historyIndex_;
  editor_->setPosition(history_[historyIndex_].pos, tr("forward"));
}

void ProbePanel::updateHistoryButtons() {
  back_->setEnabled(historyIndex_ > 0);
  forward_->setEnabled(historyIndex_ + 1 < int(history_.size()));
}

}  // namespace egtmin::ui
