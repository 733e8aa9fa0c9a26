// SPDX-License-Identifier: GPL-3.0-or-later
#include "covers/cover_viewer.hpp"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTextStream>
#include <QVBoxLayout>

#include "app_context.hpp"
#include "covers/cover_model.hpp"
#include "covers/cube_overlay.hpp"
#include "enum_text.hpp"

namespace egtmin::ui {

namespace {
// The balance name of a cover list entry (its text may say the kind too); Qt::UserRole holds the kind.
constexpr int kNameRole = Qt::UserRole + 1;
}  // namespace

CoverViewer::CoverViewer(AppContext* ctx, QWidget* parent) : QWidget(parent), ctx_(ctx) {
  model_ = new CoverModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setFilterRole(CoverModel::OutputRole);
  proxy_->setFilterKeyColumn(CoverModel::ColOutput);
  view_ = new QTableView(this);
  view_->setObjectName("cubes");
  view_->setModel(proxy_);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view_->verticalHeader()->hide();
  // Fixed row heights and no content-based sizing: both would visit every row of a big cover.
  view_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
  view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  view_->horizontalHeader()->setDefaultSectionSize(150);
  view_->horizontalHeader()->setStretchLastSection(true);

  balances_ = new QComboBox(this);
  balances_->setMinimumContentsLength(10);
  rescan_ = new QPushButton(tr("Rescan"), this);
  output_ = new QComboBox(this);
  output_->addItem(tr("all outputs"), 0);
  output_->addItem(tr("White wins"), int(logic::Output::Win));
  output_->addItem(tr("draw"), int(logic::Output::Draw));
  output_->addItem(tr("White loses"), int(logic::Output::Loss));
  auto* exportButton = new QPushButton(tr("Export CSV…"), this);
  info_ = new QLabel(tr("No cover loaded."), this);
  info_->setWordWrap(true);
  legend_ = new QLabel(this);
  legend_->setToolTip(tr("The selected cube on the board: each piece may stand on the squares with its dot"));

  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Cover:"), this));
  top->addWidget(balances_);
  top->addWidget(rescan_);
  top->addSpacing(12);
  top->addWidget(new QLabel(tr("Show:"), this));
  top->addWidget(output_);
  top->addStretch(1);
  top->addWidget(legend_);
  top->addSpacing(12);
  top->addWidget(exportButton);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(info_);
  layout->addWidget(view_, 1);

  connect(rescan_, &QPushButton::clicked, this, &CoverViewer::rescan);
  connect(balances_, &QComboBox::activated, this, [this](int i) {
    if (i >= 0) load(balances_->itemData(i, kNameRole).toString(), store::CoverKind(balances_->itemData(i).toInt()));
  });
  connect(output_, &QComboBox::currentIndexChanged, this,
          [this](int i) { setOutputFilter(output_->itemData(i).toInt()); });
  connect(exportButton, &QPushButton::clicked, this, &CoverViewer::exportDialog);
  connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &CoverViewer::selectionChanged);
  connect(&watcher_, &BackgroundTaskBase::finished, this, &CoverViewer::finishedLoading);
  connect(ctx_, &AppContext::changed, this, &CoverViewer::rescan);
  rescan();
}

CoverViewer::~CoverViewer() { watcher_.waitForFinished(); }

void CoverViewer::rescan() {
  const QString current = balances_->currentText();
  balances_->clear();
  QDir dir(QDir(ctx_->dataDir()).filePath(QStringLiteral("covers")));
  // Both kinds of cover, the capture-resolved one named as such beside the standalone one.
  for (const QFileInfo& f :
       dir.entryInfoList({QStringLiteral("*.egtc"), QStringLiteral("*.egtcr")}, QDir::Files, QDir::Name)) {
    const bool resolved = f.suffix() == QStringLiteral("egtcr");
    const QString name = f.completeBaseName();
    balances_->addItem(resolved ? tr("%1 (capture-resolved)").arg(name) : name,
                       int(resolved ? store::CoverKind::CaptureResolved : store::CoverKind::Standalone));
    balances_->setItemData(balances_->count() - 1, name, kNameRole);
  }
  const int i = balances_->findText(current);
  if (i >= 0) balances_->setCurrentIndex(i);
  // A shown cover keeps its summary; otherwise the line says what the list holds.
  if (shown_) return;
  if (balances_->count() == 0)
    info_->setText(
        tr("No cover files in %1 yet: start a run with minimization passes in the Runs panel.").arg(dir.path()));
  else if (balances_->count() == 1)
    info_->setText(tr("1 cover file in %1: pick it in the Cover list to see its cubes.").arg(dir.path()));
  else
    info_->setText(tr("%1 cover files in %2: pick one in the Cover list to see its cubes.")
                       .arg(QString::number(balances_->count()), dir.path()));
}

void CoverViewer::load(const QString& balanceName, store::CoverKind kind) {
  auto b = Balance::parse(balanceName.toStdString());
  if (!b) {
    Q_EMIT failed(QString::fromStdString(b.error().message));
    return;
  }
  const Balance canon = b->canonical();
  const auto path = store::cover_path(ctx_->dataDir().toStdString(), canon, kind);
  info_->setText(tr("Loading %1…").arg(QString::fromStdString(path.string())));
  watcher_.start([path, canon] {
    Loaded out;
    auto r = store::load_cover(path, &canon);
    if (r)
      out.cover = std::move(*r);
    else
      out.error = QString::fromStdString(r.error().message);
    return out;
  });
}

void CoverViewer::finishedLoading() {
  Loaded l = watcher_.result();
  if (!l.cover) {
    info_->setText(l.error);
    Q_EMIT failed(l.error);
    return;
  }
  setCover(*l.cover);
  Q_EMIT loaded();
}

void CoverViewer::setCover(const store::CoverFile& cover) {
  shown_ = true;
  model_->setCover(cover.balance, cover.cubes);
  uint64_t lits = 0, counts[4] = {};
  for (logic::CubeWord c : cover.cubes) {
    lits += logic::literals(c);
    ++counts[int(logic::output_of(c))];
  }
  info_->setText(tr("%1: %2 cubes (%3 win, %4 draw, %5 loss for White), %6 literals; passes %7; canonicalization %8")
                     .arg(cover.kind == store::CoverKind::CaptureResolved
                              ? tr("%1, capture-resolved (values a capture reaches are left to the probe)")
                                    .arg(QString::fromStdString(cover.balance.name()))
                              : QString::fromStdString(cover.balance.name()))
                     .arg(cover.cubes.size())
                     .arg(counts[1])
                     .arg(counts[2])
                     .arg(counts[3])
                     .arg(lits)
                     .arg(cover.passes.empty() ? tr("none") : QString::fromStdString(cover.passes))
                     .arg(enumText(cover.canon)));
  legend_->clear();
  Q_EMIT overlayChanged({});
}

void CoverViewer::setOutputFilter(int output) {
  // Refiltering in place removes rows range by range, and with outputs interleaved that is one
  // removal per cube for the view's header: quadratic in the cubes. Detaching the source turns it
  // into a single reset.
  proxy_->setSourceModel(nullptr);
  if (output == 0)
    proxy_->setFilterRegularExpression(QString());
  else
    proxy_->setFilterFixedString(QString::number(output));
  proxy_->setSourceModel(model_);
  const int i = output_->findData(output);
  if (i >= 0 && i != output_->currentIndex()) output_->setCurrentIndex(i);
}

void CoverViewer::selectionChanged() {
  const QModelIndex current = view_->currentIndex();
  if (!current.isValid()) {
    legend_->clear();
    Q_EMIT overlayChanged({});
    return;
  }
  const QModelIndex src = proxy_->mapToSource(current);
  const CubeOverlay overlay = cubeOverlay(model_->decoder(), model_->cubes()[size_t(src.row())]);
  legend_->setText(tr("On the board: %1").arg(overlay.legend));
  Q_EMIT overlayChanged(overlay.marks);
}

bool CoverViewer::exportCsv(const QString& path, QString* error) const {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Text)) {
    if (error) *error = f.errorString();
    return false;
  }
  QTextStream out(&f);
  const int cols = proxy_->columnCount();
  auto quote = [](QString s) {
    return QLatin1Char('"') + s.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
  };
  QStringList header;
  for (int c = 0; c < cols; ++c) header << quote(proxy_->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
  header << quote(QStringLiteral("pcn"));
  out << header.join(QLatin1Char(',')) << '\n';
  for (int r = 0; r < proxy_->rowCount(); ++r) {
    QStringList row;
    for (int c = 0; c < cols; ++c) row << quote(proxy_->index(r, c).data().toString());
    row << quote(proxy_->index(r, 0).data(Qt::ToolTipRole).toString());
    out << row.join(QLatin1Char(',')) << '\n';
  }
  out.flush();
  if (!f.commit()) {
    if (error) *error = f.errorString();
    return false;
  }
  return true;
}

void CoverViewer::exportDialog() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export cubes as CSV"), balances_->currentText() + QStringLiteral(".csv"), tr("CSV files (*.csv)"));
  if (path.isEmpty()) return;
  QString error;
  if (!exportCsv(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

}  // namespace egtmin::ui
