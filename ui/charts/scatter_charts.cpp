// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/scatter_charts.hpp"

#include <QAbstractBarSeries>
#include <QBarCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QScatterSeries>
#include <QSvgGenerator>
#include <QTextStream>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "app_context.hpp"
#include "bench/size_report.hpp"

namespace egtmin::ui {

bool exportChartSvg(QChartView* view, const QString& path) {
  if (!view) return false;
  // Into a QSaveFile: a failed or cancelled export leaves an earlier file of that name whole.
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return false;
  const QSize size = view->size().isEmpty() ? QSize(800, 600) : view->size();
  QSvgGenerator svg;
  svg.setOutputDevice(&f);
  svg.setSize(size);
  svg.setViewBox(QRect(QPoint(0, 0), size));
  svg.setTitle(view->chart() ? view->chart()->title() : QString());
  QPainter painter;
  if (!painter.begin(&svg)) return false;
  painter.setRenderHint(QPainter::Antialiasing);
  view->render(&painter);
  if (!painter.end() || f.size() == 0) return false;
  return f.commit();
}

bool exportChartPng(QChartView* view, const QString& path) {
  if (!view) return false;
  QSaveFile f(path);
  return f.open(QIODevice::WriteOnly) && view->grab().save(&f, "PNG") && f.commit();
}

bool exportCsvFile(const QString& path, QString* error, const std::function<void(QTextStream&)>& write) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Text)) {
    if (error) *error = f.errorString();
    return false;
  }
  QTextStream out(&f);
  write(out);
  out.flush();
  if (!f.commit()) {
    if (error) *error = f.errorString();
    return false;
  }
  return true;
}

void showChartMessage(QChartView* view, const QString& message) {
  auto* chart = new QChart;
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->setTitle(message);
  view->setChart(chart);  // the view deletes the previous chart
}

void connectExport(QWidget* owner, QPushButton* button, const QString& title, const QString& file,
                   const QString& filter, std::function<bool(const QString&, QString*)> write) {
  QObject::connect(button, &QPushButton::clicked, owner, [=] {
    const QString path = QFileDialog::getSaveFileName(owner, title, file, filter);
    if (path.isEmpty()) return;
    QString error;
    if (!write(path, &error))
      QMessageBox::warning(owner, QObject::tr("Export failed"),
                           error.isEmpty() ? QObject::tr("Could not write %1").arg(path) : error);
  });
}

void addExportButtons(QWidget* owner, QBoxLayout* row, QChartView* view, const QString& stem,
                      std::function<bool(const QString&, QString*)> csv) {
  auto* png = new QPushButton(QObject::tr("Export PNG…"), owner);
  auto* svg = new QPushButton(QObject::tr("Export SVG…"), owner);
  row->addWidget(png);
  row->addWidget(svg);
  connectExport(owner, png, QObject::tr("Export chart"), stem + QStringLiteral(".png"),
                QObject::tr("PNG images (*.png)"),
                [view](const QString& path, QString*) { return exportChartPng(view, path); });
  connectExport(owner, svg, QObject::tr("Export chart"), stem + QStringLiteral(".svg"),
                QObject::tr("SVG images (*.svg)"),
                [view](const QString& path, QString*) { return exportChartSvg(view, path); });
  if (!csv) return;
  auto* numbers = new QPushButton(QObject::tr("Export CSV…"), owner);
  row->addWidget(numbers);
  connectExport(owner, numbers, QObject::tr("Export numbers"), stem + QStringLiteral(".csv"),
                QObject::tr("CSV files (*.csv)"), std::move(csv));
}

QBarCategoryAxis* addBars(QChart* chart, QAbstractBarSeries* bars, const QStringList& categories, QAbstractAxis* y) {
  chart->addSeries(bars);
  auto* x = new QBarCategoryAxis;
  x->append(categories);
  chart->addAxis(x, Qt::AlignBottom);
  bars->attachAxis(x);
  chart->addAxis(y, Qt::AlignLeft);
  bars->attachAxis(y);
  return x;
}

void addLogBars(QChart* chart, QAbstractBarSeries* bars, const QStringList& categories, double hi,
                const QString& yTitle) {
  auto* y = new QLogValueAxis;
  y->setBase(10);
  y->setLabelFormat(QStringLiteral("%g"));
  y->setRange(1, std::pow(10.0, std::ceil(std::log10(std::max(hi, 1.0)) + 0.01)));
  y->setTitleText(yTitle);
  addBars(chart, bars, categories, y);
}

QLogValueAxis* logAxis(double lo, double hi, const QString& title) {
  auto* a = new QLogValueAxis;
  a->setBase(10);
  a->setLabelFormat(QStringLiteral("%g"));
  lo = std::max(lo, 1e-9);
  hi = std::max(hi, lo);
  a->setRange(std::pow(10.0, std::floor(std::log10(lo))), std::pow(10.0, std::ceil(std::log10(hi) + 0.01)));
  a->setTitleText(title);
  return a;
}

namespace {

// PNG and SVG buttons under a chart view.
QHBoxLayout* exportButtons(QWidget* owner, QChartView* view, const QString& stem) {
  auto* row = new QHBoxLayout;
  row->addStretch(1);
  addExportButtons(owner, row, view, stem);
  return row;
}

using SizeResult = QPair<QList<SyzygySizePoint>, QString>;

SizeResult computeSizes(const QString& dataDir, const QString& syzygyDir) {
  // Balances up to the largest cover present: xz -9e of every Syzygy file is not cheap.
  int pieces = 2;
  for (const QFileInfo& f :
       QDir(QDir(dataDir).filePath(QStringLiteral("covers"))).entryInfoList({QStringLiteral("*.egtc")}, QDir::Files))
    pieces = std::max(pieces, int(f.completeBaseName().size()) - 1);
  auto rep = bench::size_report(std::filesystem::path(dataDir.toStdString()),
                                std::filesystem::path(syzygyDir.toStdString()), pieces);
  if (!rep) return {{}, QString::fromStdString(rep.error().message)};
  QList<SyzygySizePoint> out;
  for (const bench::SizeRow& r : rep->rows)
    if (r.has_cover && r.has_syzygy)
      out.push_back({QString::fromStdString(r.balance.name()), double(r.cover_bytes), double(r.syzygy_bytes),
                     double(r.syzygy_xz_bytes)});
  return {out, QString()};
}

}  // namespace

// ---- our cover vs Syzygy WDL ----

SyzygySizeChart::SyzygySizeChart(AppContext* ctx, QWidget* parent) : QWidget(parent), ctx_(ctx) {
  view_ = new QChartView(new QChart, this);
  view_->setRenderHint(QPainter::Antialiasing);
  watcher_ = new BackgroundTask<SizeResult>(this);
  auto* again = new QPushButton(tr("Refresh"), this);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(view_, 1);
  auto* row = exportButtons(this, view_, QStringLiteral("cover-vs-syzygy"));
  row->addWidget(again);
  layout->addLayout(row);
  connect(again, &QPushButton::clicked, this, &SyzygySizeChart::refresh);
  connect(watcher_, &BackgroundTaskBase::finished, this, [this] {
    const SizeResult r = watcher_->result();
    if (!r.second.isEmpty())
      setMessage(tr("Size report failed: %1").arg(r.second));
    else if (r.first.isEmpty())
      setMessage(tr("No balance has both a cover file and a Syzygy WDL file yet"));
    else
      setPoints(r.first);
    if (again_) {
      again_ = false;
      refresh();
    }
  });
  if (ctx_) connect(ctx_, &AppContext::changed, this, &SyzygySizeChart::refresh);
  refresh();
}

QChart* SyzygySizeChart::chart() const { return view_->chart(); }

bool SyzygySizeChart::busy() const { return watcher_->isRunning(); }

void SyzygySizeChart::setMessage(const QString& message) {
  message_ = message;
  showChartMessage(view_, message);
}

void SyzygySizeChart::refresh() {
  if (!ctx_) return;
  if (watcher_->isRunning()) {
    again_ = true;
    return;
  }
  const QString dataPath = ctx_->dataDir(), syz = ctx_->syzygyDir();
  if (syz.isEmpty() || !QDir(syz).exists()) {
    setMessage(tr("Syzygy tables missing: set the Syzygy directory in the settings to compare file sizes"));
    return;
  }
  if (dataPath.isEmpty() || !QDir(dataPath).exists()) {
    setMessage(tr("No data directory set"));
    return;
  }
  setMessage(tr("Measuring file sizes (xz -9e of the Syzygy files)…"));
  watcher_->start([dataPath, syz] { return computeSizes(dataPath, syz); });
}

void SyzygySizeChart::setPoints(const QList<SyzygySizePoint>& points) {
  if (points.isEmpty()) {
    setMessage(tr("No balance has both a cover file and a Syzygy WDL file yet"));
    return;
  }
  message_.clear();
  auto* chart = new QChart;
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->setTitle(tr("Our cover file size vs Syzygy WDL file size (bytes, one point per balance)"));
  auto* shipped = new QScatterSeries;
  shipped->setName(tr("Syzygy .rtbw"));
  shipped->setMarkerSize(8);
  auto* xz = new QScatterSeries;
  xz->setName(tr("Syzygy .rtbw, xz -9e"));
  xz->setMarkerSize(6);
  double lo = 1e300, hi = 1;
  for (const SyzygySizePoint& p : points) {
    if (p.coverBytes <= 0) continue;
    if (p.syzygyBytes > 0) shipped->append(p.syzygyBytes, p.coverBytes);
    if (p.syzygyXzBytes > 0) xz->append(p.syzygyXzBytes, p.coverBytes);
    for (double v : {p.coverBytes, p.syzygyBytes, p.syzygyXzBytes})
      if (v > 0) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  }
  if (lo > hi) lo = 1;
  auto* x = logAxis(lo, hi, tr("Syzygy WDL file (bytes)"));
  auto* y = logAxis(lo, hi, tr("our cover file (bytes)"));
  auto* diagonal = new QLineSeries;
  diagonal->setName(tr("y = x"));
  diagonal->append(x->min(), x->min());
  diagonal->append(x->max(), x->max());
  QPen pen(Qt::gray);
  pen.setStyle(Qt::DashLine);
  diagonal->setPen(pen);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  y->setRange(x->min(), x->max());
  for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*>{diagonal, shipped, xz}) {
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
  }
  chart->legend()->setAlignment(Qt::AlignRight);
  view_->setChart(chart);
}

// ---- minimization time vs cover size ----

TimeChart::TimeChart(QWidget* parent) : QWidget(parent) {
  view_ = new QChartView(new QChart, this);
  view_->setRenderHint(QPainter::Antialiasing);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(view_, 1);
  layout->addLayout(exportButtons(this, view_, QStringLiteral("time-vs-cubes")));
  rebuild();
}

QChart* TimeChart::chart() const { return view_->chart(); }

void TimeChart::addPoints(const QString& runTitle, const QList<PassPoint>& points) {
  // Per balance: seconds summed over its passes, cubes after the last one.
  QList<Point> add;
  for (const PassPoint& p : points) {
    auto it = std::find_if(add.begin(), add.end(), [&](const Point& q) { return q.balance == p.balance; });
    if (it == add.end()) it = add.insert(add.end(), Point{runTitle, p.balance, 0, 0});
    it->seconds += p.seconds;
    it->cubes = double(p.cubes);
  }
  if (add.isEmpty()) return;
  points_ += add;
  rebuild();
}

void TimeChart::clear() {
  points_.clear();
  rebuild();
}

void TimeChart::rebuild() {
  auto* chart = new QChart;
  chart->setAnimationOptions(QChart::NoAnimation);
  if (points_.isEmpty()) {
    chart->setTitle(tr("Finished runs with minimization passes appear here"));
    view_->setChart(chart);
    return;
  }
  chart->setTitle(tr("Minimization time vs cover size (one point per run and balance, a balance's runs joined)"));
  auto* s = new QScatterSeries;
  s->setName(tr("runs"));
  s->setMarkerSize(8);
  double xlo = 1e300, xhi = 1, ylo = 1e300, yhi = 1e-3;
  for (const Point& p : points_) {
    const QPointF at = plotted(p);
    s->append(at);
    xlo = std::min(xlo, at.x());
    xhi = std::max(xhi, at.x());
    ylo = std::min(ylo, at.y());
    yhi = std::max(yhi, at.y());
  }
  auto* x = logAxis(xlo, xhi, tr("cover size (cubes)"));
  auto* y = logAxis(ylo, yhi, tr("minimization time (s)"));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  chart->addSeries(s);
  s->attachAxis(x);
  s->attachAxis(y);
  // As in the paper's Fig. 1a, a balance minimized several ways (other passes, other effort) is one
  // dashed line through its points, so the pairs read as pairs; left to right by cubes.
  for (const QString& balance : joinedBalances()) {
    QList<QPointF> line;
    for (const Point& p : points_)
      if (p.balance == balance) line << plotted(p);
    std::sort(line.begin(), line.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    auto* joined = new QLineSeries;
    joined->setName(balance);
    joined->append(line);
    QPen pen(Qt::gray);
    pen.setStyle(Qt::DashLine);
    joined->setPen(pen);
    chart->addSeries(joined);
    joined->attachAxis(x);
    joined->attachAxis(y);
  }
  // Which balance and run a point is, on hover: the legend is hidden (one entry per balance would
  // crowd the chart).
  connect(s, &QScatterSeries::hovered, view_, [this](const QPointF& at, bool state) {
    if (!state) {
      QToolTip::hideText();
      return;
    }
    QStringList lines;
    for (const Point& p : points_)
      if (plotted(p) == at)
        lines << tr("%1 (%2): %3 cubes, %4 s").arg(p.balance, p.run).arg(p.cubes).arg(p.seconds, 0, 'g', 3);
    QToolTip::showText(QCursor::pos(), lines.join(QLatin1Char('\n')), view_);
  });
  chart->legend()->hide();
  view_->setChart(chart);
}

QPointF TimeChart::plotted(const Point& p) {
  // Kept off the log axes' zero: a cover of no cubes, a run under a millisecond.
  return {std::max(1.0, p.cubes), std::max(1e-3, p.seconds)};
}

QStringList TimeChart::joinedBalances() const {
  QStringList seen, twice;
  for (const Point& p : points_) {
    if (seen.contains(p.balance) && !twice.contains(p.balance)) twice << p.balance;
    seen << p.balance;
  }
  return twice;
}

}  // namespace egtmin::ui
