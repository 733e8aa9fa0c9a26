// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/probe_times_chart.hpp"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QTextStream>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "app_context.hpp"
#include "bench/probe_bench.hpp"
#include "charts/chart_run.hpp"
#include "charts/scatter_charts.hpp"
#include "probe/probe.hpp"
#include "util/progress.hpp"

namespace egtmin::ui {

// Written by the worker's progress callback, read by poll() on the GUI thread. A fresh one per
// benchmark: Progress's cancel flag cannot be reset.
struct ProbeTimesChart::Shared : ChartRun::State {
  Shared()
      : State([this](const ProgressEvent& e) {
          // The benchmark's stages, in order, mapped onto one bar.
          struct Span {
            Stage stage;
            double from, to;
          };
          static constexpr Span kSpans[] = {{Stage::LoadCovers, 0.0, 0.05},
                                            {Stage::Sample, 0.05, 0.3},
                                            {Stage::CompareAnchor, 0.3, 0.5},
                                            {Stage::Time, 0.5, 0.95},
                                            {Stage::Summarize, 0.95, 1.0}};
          std::lock_guard lock(mutex);
          stage = QString::fromStdString(progress_label(e));
          for (const Span& s : kSpans)
            if (e.stage == s.stage)
              fraction = std::max(fraction, s.from + (s.to - s.from) * std::clamp(e.fraction, 0.0, 1.0));
        }) {}
};

struct ProbeTimesChart::Outcome {
  bool ok = false;
  bool cancelled = false;
  QString error;
  ProbeTimesResult result;
};

ProbeTimeHistogram binProbeTimes(const std::vector<uint32_t>& times, uint32_t lo, uint32_t hi, int perDecade) {
  perDecade = std::max(1, perDecade);
  const int k0 = int(std::floor(std::log10(double(std::max<uint32_t>(1, lo)))));
  const int k1 = int(std::floor(std::log10(double(std::max<uint32_t>(1, hi))))) + 1;  // 10^k1 > hi
  const int bins = (k1 - k0) * perDecade;
  ProbeTimeHistogram h;
  for (int i = 0; i <= bins; ++i) h.edges << std::pow(10.0, k0 + double(i) / perDecade);
  std::vector<quint64> counts(size_t(bins), 0);
  for (uint32_t t : times) {
    const double x = (std::log10(double(std::max<uint32_t>(1, t))) - k0) * perDecade;
    counts[size_t(std::clamp(int(std::floor(x)), 0, bins - 1))]++;
  }
  h.counts = QList<quint64>(counts.begin(), counts.end());
  return h;
}

namespace {

int coversWithPieces(const QString& dataDir, int pieces) {
  int n = 0;
  for (const QFileInfo& f :
       QDir(QDir(dataDir).filePath(QStringLiteral("covers"))).entryInfoList({QStringLiteral("*.egtc")}, QDir::Files))
    n += int(f.completeBaseName().size()) - 1 == pieces;  // "KQvK": 3 pieces
  return n;
}

QString ns(double v) {
  if (v >= 1e6) return QStringLiteral("%1 ms").arg(v / 1e6, 0, 'g', 3);
  if (v >= 1e4) return QStringLiteral("%1 µs").arg(v / 1e3, 0, 'g', 3);
  return QStringLiteral("%1 ns").arg(QLocale().toString(v, 'f', 0));
}

}  // namespace

ProbeTimesChart::ProbeTimesChart(AppContext* ctx, QWidget* parent) : QWidget(parent), ctx_(ctx) {
  view_ = new QChartView(new QChart, this);
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setMinimumHeight(200);
  positions_ = new QSpinBox(this);
  positions_->setObjectName("probe-bench-positions");
  positions_->setRange(100, 10'000'000);
  positions_->setSingleStep(50'000);
  positions_->setValue(200'000);
  positions_->setGroupSeparatorShown(true);
  positions_->setToolTip(
      tr("Random legal positions to probe (the paper used 10,000,000; 200,000 take about a second)"));
  pieces_ = new QComboBox(this);
  pieces_->setObjectName("probe-bench-pieces");
  for (int p : {3, 4, 5}) pieces_->addItem(tr("%1 pieces").arg(p), p);
  if (ctx_ && coversWithPieces(ctx_->dataDir(), 4) > 0) pieces_->setCurrentIndex(1);
  shown_ = new QComboBox(this);
  shown_->setObjectName("probe-bench-view");
  shown_->addItems({tr("Histograms"), tr("Joint density: indexed vs Fathom"), tr("Bytes and time against Syzygy")});
  shown_->setToolTip(
      tr("One histogram per method; each position's indexed time against Fathom's (Fig. 2b); or each method's "
         "memory and batch mean over Fathom's, Syzygy at (1, 1)"));
  run_ = new QPushButton(tr("Run"), this);
  run_->setObjectName("probe-bench-run");
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->setObjectName("probe-bench-cancel");
  cancel_->setEnabled(false);
  bar_ = new QProgressBar(this);
  bar_->setTextVisible(false);
  bar_->setMaximumWidth(220);
  stage_ = new QLabel(this);
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  summary_->setTextFormat(Qt::RichText);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Positions:"), this));
  top->addWidget(positions_);
  top->addWidget(pieces_);
  top->addWidget(run_);
  top->addWidget(cancel_);
  top->addWidget(bar_);
  top->addWidget(stage_, 1);
  top->addWidget(new QLabel(tr("View:"), this));
  top->addWidget(shown_);
  addExportButtons(this, top, view_, QStringLiteral("probe-times"),
                   [this](const QString& path, QString* error) { return exportCsv(path, error); });
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(view_, 1);
  layout->addWidget(summary_);

  runner_ = new ChartRun(bar_, stage_, cancel_, this);
  connect(run_, &QPushButton::clicked, this, &ProbeTimesChart::start);
  connect(pieces_, &QComboBox::currentIndexChanged, this, &ProbeTimesChart::refresh);
  connect(shown_, &QComboBox::currentIndexChanged, this, [this] {
    if (hasResult_) draw();
  });
  if (ctx_) connect(ctx_, &AppContext::changed, this, &ProbeTimesChart::refresh);
  refresh();
}

ProbeTimesChart::~ProbeTimesChart() { delete runner_; }  // cancels and waits before the widgets go

bool ProbeTimesChart::busy() const { return runner_->busy(); }

QChart* ProbeTimesChart::chart() const { return view_->chart(); }

ProbeTimesChart::View ProbeTimesChart::currentView() const { return View(shown_->currentIndex()); }

void ProbeTimesChart::setView(View v) { shown_->setCurrentIndex(int(v)); }

bool ProbeTimesChart::exportPng(const QString& path) const { return exportChartPng(view_, path); }

bool ProbeTimesChart::exportSvg(const QString& path) const { return exportChartSvg(view_, path); }

QString ProbeTimesChart::missing() const {
  if (!ctx_) return tr("No settings: the probe benchmark needs a data directory and a Syzygy directory");
  if (!ctx_->syzygy())
    return tr("No Syzygy tables (%1): the benchmark times Fathom and checks every position against it. "
              "Set the Syzygy directory in File → Settings.")
        .arg(ctx_->syzygyError());
  const int pieces = pieces_->currentData().toInt();
  if (coversWithPieces(ctx_->dataDir(), pieces) == 0)
    return tr("No %1-piece cover files in %2: minimize the %1-piece balances first (Runs panel, or "
              "egtmin-cli minimize --pieces %1)")
        .arg(pieces)
        .arg(QDir(ctx_->dataDir()).filePath(QStringLiteral("covers")));
  return {};
}

void ProbeTimesChart::setMessage(const QString& message) {
  message_ = message;
  showChartMessage(view_, message);
}

void ProbeTimesChart::refresh() {
  if (busy()) return;
  const QString why = missing();
  run_->setEnabled(why.isEmpty());
  run_->setToolTip(why.isEmpty() ? tr("Time random positions with both cover methods and Fathom") : why);
  if (!hasResult_)
    setMessage(!why.isEmpty() ? why
               : !outcomeMessage_.isEmpty()
                   ? outcomeMessage_
                   : tr("Press Run to time our covers (indexed, linear) and Fathom on random positions"));
}

void ProbeTimesChart::start() {
  if (busy()) return;
  const QString why = missing();
  if (!why.isEmpty()) {
    refresh();
    return;
  }
  const QString dataDir = ctx_->dataDir();
  const Syzygy* syzygy = ctx_->syzygy();
  const int pieces = pieces_->currentData().toInt();
  const quint64 positions = quint64(positions_->value());
  hasResult_ = false;
  outcomeMessage_.clear();
  summary_->clear();
  run_->setEnabled(false);
  positions_->setEnabled(false);
  pieces_->setEnabled(false);
  setMessage(tr("Probing %1 random %2-piece positions…").arg(QLocale().toString(positions)).arg(pieces));
  runner_->start(std::make_shared<Shared>(), [this, dataDir, syzygy, pieces, positions](ChartRun::State& state) {
    ChartRun::State* sh = &state;
    Outcome o;
    {
      // The Syzygy pointer stays valid for the process; the benchmark holds its directory fixed
      // while it runs (Syzygy::Hold), so a new directory from the settings waits for it.
      sh->progress.report(Stage::LoadCovers, 0);
      auto covers = probe::Covers::open(std::filesystem::path(dataDir.toStdString()));
      if (sh->progress.cancelled()) {
        o.cancelled = true;
      } else if (!covers) {
        o.error = QString::fromStdString(covers.error().message);
      } else {
        bench::ProbeBenchOptions opts;
        opts.pieces = pieces;
        opts.positions = positions;
        opts.keep_times = true;
        auto r = bench::run_probe_bench(covers->prober(), *syzygy, opts, sh->progress);
        if (sh->progress.cancelled()) {
          o.cancelled = true;
        } else if (!r) {
          o.error = QString::fromStdString(r.error().message);
        } else {
          sh->progress.report(Stage::Summarize, 0);
          ProbeTimesResult& out = o.result;
          out.positions = r->positions;
          out.candidates = r->candidates;
          out.mismatches = r->mismatches;
          for (const std::string& e : r->mismatch_examples) out.mismatchExamples << QString::fromStdString(e);
          out.timerOverheadNs = r->timer_overhead_ns;
          out.pieces = pieces;
          uint32_t lo = UINT32_MAX, hi = 0;
          for (const bench::MethodTiming& m : r->methods)
            for (uint32_t t : m.times_ns) {
              lo = std::min(lo, t);
              hi = std::max(hi, t);
            }
          // In the registry's order: our default method leading, the anchor (Fathom) last. A
          // method whose probes overlap has no per-probe times of its own.
          std::vector<const bench::MethodTiming*> order;
          for (const probe::ProbeMethodInfo& pm : probe::probe_methods())
            for (const bench::MethodTiming& m : r->methods)
              if (m.method == pm.id && !pm.overlaps_probes) order.push_back(&m);
          const bench::MethodTiming *indexed = nullptr, *fathom = nullptr;
          for (const bench::MethodTiming* m : order) {
            if (m->method == probe::ProbeMethodId::Indexed) indexed = m;
            if (m->method == probe::ProbeMethodId::Fathom) fathom = m;
            ProbeTimeHistogram h = binProbeTimes(m->times_ns, lo, hi);
            h.method = m->method;
            h.meanNs = m->per_probe.mean_ns;
            h.medianNs = m->per_probe.median_ns;
            h.p99Ns = m->per_probe.p99_ns;
            h.batchMeanNs = m->batch_mean_ns;
            h.memoryBytes = m->memory_bytes;
            out.methods << h;
          }
          // Both time every position in the same order (neither is a scan method on a subsample).
          if (indexed && fathom) {
            out.density = binJointProbeTimes(indexed->times_ns, fathom->times_ns);
            out.density.xMethod = probe::ProbeMethodId::Indexed;
            out.density.yMethod = probe::ProbeMethodId::Fathom;
          }
          o.ok = true;
        }
      }
    }
    return ChartRun::Finish([this, o] { done(o); });
  });
}

void ProbeTimesChart::cancel() { runner_->cancel(); }

bool ProbeTimesChart::wait(int timeoutMs) { return runner_->wait(timeoutMs); }

void ProbeTimesChart::done(const Outcome& o) {
  positions_->setEnabled(true);
  pieces_->setEnabled(true);
  runner_->showEnd(o.ok, o.cancelled);
  if (o.ok) {
    setResult(o.result);
  } else {
    outcomeMessage_ = o.cancelled ? tr("Probe benchmark cancelled") : tr("Probe benchmark failed: %1").arg(o.error);
    setMessage(outcomeMessage_);
  }
  refresh();
  Q_EMIT finished();
}

void ProbeTimesChart::setResult(const ProbeTimesResult& r) {
  result_ = r;
  hasResult_ = true;
  message_.clear();
  draw();
}

void ProbeTimesChart::draw() {
  const ProbeTimesResult& r = result_;
  if (currentView() == JointDensity) {
    const ProbeTimeDensity& d = r.density;
    if (d.empty()) {
      // Said in the chart, the result kept: the histograms view still has it.
      auto* chart = new QChart;
      chart->setAnimationOptions(QChart::NoAnimation);
      chart->setTitle(tr("No joint density: this run has no indexed and Fathom times of the same positions"));
      view_->setChart(chart);
    } else {
      view_->setChart(makeProbeDensityChart(
          d, tr("Indexed vs Fathom per position, %1 random %2-piece positions (joint density, log time axes)")
                 .arg(QLocale().toString(d.positions))
                 .arg(r.pieces)));
    }
  } else if (currentView() == BytesAndTime) {
    drawBytesAndTime();
  } else {
    drawHistograms();
  }
  summary_->setText(summaryText());
  summary_->setToolTip(r.mismatchExamples.join(QLatin1Char('\n')));
}

void ProbeTimesChart::drawHistograms() {
  const ProbeTimesResult& r = result_;
  auto* chart = new QChart;
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->setTitle(tr("Time per probe, %1 random %2-piece positions (histogram, log time axis)")
                      .arg(QLocale().toString(r.positions))
                      .arg(r.pieces));
  // The x axis shows every bin up to the one holding the 99.9th percentile of the slowest
  // method: the rare slow probes (interrupts, page faults) are counted but would flatten the rest.
  double xlo = 1e300, xhi = 1;
  quint64 ymax = 1;
  for (const ProbeTimeHistogram& h : r.methods) {
    quint64 total = 0;
    for (quint64 c : h.counts) total += c;
    quint64 seen = 0;
    int first = -1, last = 0;
    for (int i = 0; i < h.counts.size(); ++i) {
      if (h.counts[i] && first < 0) first = i;
      seen += h.counts[i];
      ymax = std::max(ymax, h.counts[i]);
      last = i;
      if (double(seen) >= 0.999 * double(total)) break;
    }
    if (first >= 0) {
      xlo = std::min(xlo, h.edges[first]);
      xhi = std::max(xhi, h.edges[last + 1]);
    }
  }
  if (xlo > xhi) xlo = 1;
  auto* x = new QLogValueAxis;
  x->setBase(10);
  x->setLabelFormat(QStringLiteral("%g"));
  x->setMinorTickCount(8);
  x->setRange(std::pow(10.0, std::floor(std::log10(xlo))), std::pow(10.0, std::ceil(std::log10(xhi))));
  x->setTitleText(tr("time per probe (ns, clock overhead of %1 ns included)").arg(r.timerOverheadNs, 0, 'f', 0));
  auto* y = new QValueAxis;
  y->setRange(0, double(ymax) * 1.05);
  y->applyNiceNumbers();
  y->setLabelFormat(QStringLiteral("%.0f"));
  y->setTitleText(tr("probes per bin"));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (const ProbeTimeHistogram& h : r.methods) {
    auto* s = new QLineSeries;
    const QString who = probeMethodLabel(h.method);
    s->setName(tr("%1: median %2, mean %3").arg(who, ns(h.medianNs), ns(h.meanNs)));
    // A point at each bin's geometric centre.
    for (int i = 0; i < h.counts.size(); ++i) s->append(std::sqrt(h.edges[i] * h.edges[i + 1]), double(h.counts[i]));
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
    QPen pen = s->pen();
    pen.setWidthF(2);
    s->setPen(pen);
  }
  chart->legend()->setAlignment(Qt::AlignTop);
  view_->setChart(chart);
}

namespace {

// Fathom's histogram in a result: the anchor every method's bytes and time are read against.
const ProbeTimeHistogram* fathomOf(const ProbeTimesResult& r) {
  for (const ProbeTimeHistogram& h : r.methods)
    if (h.method == probe::ProbeMethodId::Fathom && h.memoryBytes > 0 && h.batchMeanNs > 0) return &h;
  return nullptr;
}

// The goal of the probe-ready form: under half of Syzygy's bytes and of Fathom's time at once.
constexpr double kGoalRatio = 0.5;

}  // namespace

void ProbeTimesChart::drawBytesAndTime() {
  const ProbeTimesResult& r = result_;
  const ProbeTimeHistogram* fathom = fathomOf(r);
  if (!fathom) return showChartMessage(view_, tr("No bytes and time against Syzygy: this run has no Fathom figures"));
  auto* chart = new QChart;
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->setTitle(tr("Memory and batch mean against Syzygy's files through Fathom, %1 random %2-piece positions "
                     "(log axes)")
                      .arg(QLocale().toString(r.positions))
                      .arg(r.pieces));
  // Each log axis spans its points and the goal's corner.
  double xlo = kGoalRatio, xhi = 1, ylo = kGoalRatio, yhi = 1;
  QList<QPair<const ProbeTimeHistogram*, QPointF>> points;
  for (const ProbeTimeHistogram& h : r.methods) {
    if (h.memoryBytes == 0 || h.batchMeanNs <= 0) continue;
    const QPointF p(double(h.memoryBytes) / double(fathom->memoryBytes), h.batchMeanNs / fathom->batchMeanNs);
    xlo = std::min(xlo, p.x());
    xhi = std::max(xhi, p.x());
    ylo = std::min(ylo, p.y());
    yhi = std::max(yhi, p.y());
    points << qMakePair(&h, p);
  }
  auto* x = logAxis(xlo, xhi, tr("bytes / Syzygy's (what each method keeps in memory)"));
  auto* y = logAxis(ylo, yhi, tr("batch mean / Fathom's"));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  // The goal's edges: a method in the lower left corner beats Syzygy on both at once.
  for (const QList<QPointF>& edge : {QList<QPointF>{{x->min(), kGoalRatio}, {kGoalRatio, kGoalRatio}},
                                     QList<QPointF>{{kGoalRatio, y->min()}, {kGoalRatio, kGoalRatio}}}) {
    auto* s = new QLineSeries;
    s->append(edge);
    QPen pen(Qt::gray);
    pen.setStyle(Qt::DashLine);
    s->setPen(pen);
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
    for (QLegendMarker* m : chart->legend()->markers(s)) m->setVisible(false);  // drawn, not listed
  }
  for (const auto& [h, p] : points) {
    auto* s = new QScatterSeries;
    s->setMarkerSize(12);
    s->setName(h->method == probe::ProbeMethodId::Fathom ? tr("Syzygy through Fathom (1, 1)")
                                                         : tr("%1: %2x the bytes, %3x the time")
                                                               .arg(probeMethodLabel(h->method))
                                                               .arg(p.x(), 0, 'g', 3)
                                                               .arg(p.y(), 0, 'g', 3));
    s->append(p);
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
  }
  chart->legend()->setAlignment(Qt::AlignTop);
  view_->setChart(chart);
}

QString ProbeTimesChart::summaryText() const {
  const ProbeTimesResult& r = result_;
  QString text = tr("%1 positions (%2 drawn, illegal or uncovered ones discarded). ")
                     .arg(QLocale().toString(r.positions), QLocale().toString(r.candidates));
  text += r.mismatches == 0 ? tr("<b>0 mismatches</b> against Fathom.")
                            : tr("<b style='color:#b01010'>%1 mismatches</b> against Fathom, e.g. %2")
                                  .arg(QLocale().toString(r.mismatches), r.mismatchExamples.value(0).toHtmlEscaped());
  text += QStringLiteral("<br>");
  QStringList rows;
  for (const ProbeTimeHistogram& h : r.methods)
    rows << tr("%1: median %2, mean %3, p99 %4, batch mean %5, %6 KiB")
                .arg(probeMethodName(h.method), ns(h.medianNs), ns(h.meanNs), ns(h.p99Ns), ns(h.batchMeanNs))
                .arg(QLocale().toString(double(h.memoryBytes) / 1024.0, 'f', 0));
  text += rows.join(QStringLiteral(" · "));
  if (const ProbeTimeDensity& d = r.density; !d.empty())
    text += QStringLiteral("<br>") + tr("Fathom slower on %1% of the positions (above the diagonal), indexed slower on "
                                        "%2% (below); means: indexed %3, Fathom %4.")
                                         .arg(100.0 * double(d.above) / double(d.positions), 0, 'f', 1)
                                         .arg(100.0 * double(d.below) / double(d.positions), 0, 'f', 1)
                                         .arg(ns(d.xMeanNs), ns(d.yMeanNs));
  return text;
}

bool ProbeTimesChart::exportCsv(const QString& path, QString* error) const {
  if (!hasResult_) {
    if (error) *error = tr("No probe benchmark result to export");
    return false;
  }
  if (currentView() == JointDensity && result_.density.empty()) {
    if (error) *error = tr("This result has no joint density to export");
    return false;
  }
  const ProbeTimeHistogram* fathom = fathomOf(result_);
  if (currentView() == BytesAndTime && !fathom) {
    if (error) *error = tr("This result has no Fathom figures to read bytes and time against");
    return false;
  }
  return exportCsvFile(path, error, [&](QTextStream& out) {
    if (currentView() == BytesAndTime) {
      out << "method,bytes,bytes_over_syzygy,batch_mean_ns,time_over_fathom\n";
      for (const ProbeTimeHistogram& h : result_.methods)
        out << probeMethodName(h.method) << ',' << h.memoryBytes << ','
            << double(h.memoryBytes) / double(fathom->memoryBytes) << ',' << h.batchMeanNs << ','
            << h.batchMeanNs / fathom->batchMeanNs << '\n';
    } else if (currentView() == JointDensity) {
      const ProbeTimeDensity& d = result_.density;
      const QString x = probeMethodName(d.xMethod), y = probeMethodName(d.yMethod);
      out << x << "_from_ns," << x << "_to_ns," << y << "_from_ns," << y << "_to_ns,positions\n";
      for (const ProbeTimeDensity::Cell& c : d.cells)
        out << d.edges[c.x] << ',' << d.edges[c.x + 1] << ',' << d.edges[c.y] << ',' << d.edges[c.y + 1] << ','
            << c.count << '\n';
    } else {
      out << "method,bin_from_ns,bin_to_ns,probes\n";
      for (const ProbeTimeHistogram& h : result_.methods)
        for (int i = 0; i < h.counts.size(); ++i)
          out << probeMethodName(h.method) << ',' << h.edges[i] << ',' << h.edges[i + 1] << ',' << h.counts[i] << '\n';
    }
  });
}

}  // namespace egtmin::ui
