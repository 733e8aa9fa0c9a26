// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/ablation_chart.hpp"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTextStream>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "app_context.hpp"
#include "charts/chart_run.hpp"
#include "charts/scatter_charts.hpp"
#include "chess/balance.hpp"
#include "util/progress.hpp"

namespace egtmin::ui {

namespace {

// The idea the others are measured against.
constexpr const char* kBaseline = "default";

bool isMinimizeStage(Stage s) {
  switch (s) {
    case Stage::Generate:
    case Stage::Verify:
    case Stage::SelfCheck:
    case Stage::CareSet:
    case Stage::Pass:
    case Stage::Save:
    case Stage::Check: return true;
    default: return false;
  }
}

const bench::AblationRow* baselineOf(const std::vector<bench::AblationRow>& rows) {
  auto it = std::find_if(rows.begin(), rows.end(), [](const bench::AblationRow& r) { return r.idea == kBaseline; });
  return it == rows.end() ? nullptr : &*it;
}

bool probeMeasured(const bench::AblationRow& r) { return r.probe_ns > 0 && r.fathom_ns > 0; }

QString ns(double v) {
  if (v >= 1e4) return QStringLiteral("%1 µs").arg(v / 1e3, 0, 'g', 3);
  return QStringLiteral("%1 ns").arg(QLocale().toString(v, 'f', 0));
}

}  // namespace

// The run's shared state (charts/chart_run.hpp) and which idea it is at, for the bar's mapping.
struct AblationChart::Shared : ChartRun::State {
  // The idea being run (the worker runs them one by one), so the bar covers every idea.
  size_t idea = 0, ideas = 1;
  std::string ideaName;
  // With Syzygy each idea ends with the probe benchmark; its rough share of an idea's time (the
  // minimization dominates at 4 pieces, both are short at 3).
  double minimizeShare = 1.0;
  Shared()
      : State([this](const ProgressEvent& e) {
          // The probe benchmark's stages, in order, mapped onto its part of the idea.
          struct Span {
            Stage stage;
            double from, to;
          };
          static constexpr Span kBenchSpans[] = {
              {Stage::Sample, 0.0, 0.3}, {Stage::CompareAnchor, 0.3, 0.5}, {Stage::Time, 0.5, 1.0}};
          std::lock_guard lock(mutex);
          // run_ablation names the idea in each detail ("espresso (1/1): ..."); the bar's label
          // says which of all the ideas it is instead.
          std::string_view detail = e.detail;
          const std::string prefix = ideaName + " (1/1): ";
          if (detail.substr(0, prefix.size()) == prefix) detail.remove_prefix(prefix.size());
          stage = QStringLiteral("%1 (idea %2 of %3): %4")
                      .arg(QString::fromStdString(ideaName))
                      .arg(idea + 1)
                      .arg(ideas)
                      .arg(QString::fromStdString(progress_label(ProgressEvent{e.stage, e.fraction, detail})));
          const double f = std::clamp(e.fraction, 0.0, 1.0);
          double within = -1;
          if (isMinimizeStage(e.stage)) within = minimizeShare * f;
          for (const Span& s : kBenchSpans)
            if (e.stage == s.stage) within = minimizeShare + (1 - minimizeShare) * (s.from + (s.to - s.from) * f);
          if (within >= 0) fraction = std::max(fraction, (double(idea) + within) / double(std::max<size_t>(1, ideas)));
        }) {}
};

struct AblationChart::Outcome {
  bool ok = false;
  bool cancelled = false;
  QString error;
  size_t finishedIdeas = 0, ideas = 0;
  std::vector<bench::AblationRow> rows;
};

AblationChart::AblationChart(AppContext* ctx, QWidget* parent) : QWidget(parent), ctx_(ctx) {
  view_ = new QChartView(new QChart, this);
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setMinimumHeight(200);
  pieces_ = new QComboBox(this);
  pieces_->setObjectName("ablation-pieces");
  for (int p : {3, 4}) pieces_->addItem(tr("up to %1 pieces").arg(p), p);
  pieces_->setToolTip(tr("Every balance with up to this many pieces is minimized once per idea"));
  positions_ = new QSpinBox(this);
  positions_->setObjectName("ablation-positions");
  positions_->setRange(100, 10'000'000);
  positions_->setSingleStep(50'000);
  positions_->setValue(200'000);
  positions_->setGroupSeparatorShown(true);
  positions_->setToolTip(tr("Random legal positions on which each idea's indexed probe is timed against Fathom"));
  run_ = new QPushButton(tr("Run"), this);
  run_->setObjectName("ablation-run");
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->setObjectName("ablation-cancel");
  cancel_->setEnabled(false);
  bar_ = new QProgressBar(this);
  bar_->setTextVisible(false);
  bar_->setMaximumWidth(220);
  stage_ = new QLabel(this);
  // Stage texts are long ("espresso (idea 6 of 6): table 2 of 5, KRvK: …"): they must not widen the dock.
  stage_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  summary_->setTextFormat(Qt::RichText);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* top = new QHBoxLayout;
  top->addWidget(pieces_);
  top->addWidget(new QLabel(tr("Probe positions:"), this));
  top->addWidget(positions_);
  top->addWidget(run_);
  top->addWidget(cancel_);
  top->addWidget(bar_);
  top->addWidget(stage_, 1);
  addExportButtons(this, top, view_, QStringLiteral("ablation"),
                   [this](const QString& path, QString* error) { return exportCsv(path, error); });
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(view_, 1);
  layout->addWidget(summary_);

  runner_ = new ChartRun(bar_, stage_, cancel_, this);
  connect(run_, &QPushButton::clicked, this, &AblationChart::start);
  if (ctx_) connect(ctx_, &AppContext::changed, this, &AblationChart::refresh);
  refresh();
}

AblationChart::~AblationChart() { delete runner_; }  // cancels and waits before the widgets go

bool AblationChart::busy() const { return runner_->busy(); }

QChart* AblationChart::chart() const { return view_->chart(); }

bool AblationChart::exportPng(const QString& path) const { return exportChartPng(view_, path); }

bool AblationChart::exportSvg(const QString& path) const { return exportChartSvg(view_, path); }

QString AblationChart::missing() const {
  if (!ctx_) return tr("No settings: the ablation needs a data directory");
  if (ctx_->dataDir().isEmpty()) return tr("No data directory set: choose one in File → Settings");
  return {};
}

void AblationChart::setMessage(const QString& message) {
  message_ = message;
  showChartMessage(view_, message);
}

void AblationChart::refresh() {
  if (busy()) return;
  const QString why = missing();
  run_->setEnabled(why.isEmpty());
  run_->setToolTip(why.isEmpty() ? tr("Minimize the balances once per idea into DATA/ablation and compare") : why);
  if (!hasResult())
    setMessage(!why.isEmpty() ? why
               : !outcomeMessage_.isEmpty()
                   ? outcomeMessage_
                   : tr("Press Run to minimize the balances once per idea (%1) and compare the covers with the "
                        "default ones")
                         .arg(QString::fromStdString([] {
                           std::string names;
                           for (const std::string& n : bench::default_ablation_ideas())
                             names += (names.empty() ? "" : ", ") + n;
                           return names;
                         }())));
}

bench::AblationRequest AblationChart::request() const {
  bench::AblationRequest r;
  const int pieces = pieces_->currentData().toInt();
  // Every balance up to the size, as `bench ablation --pieces N`: what captures reach is included.
  r.balances = Balance::all_up_to(pieces);
  if (ctx_) {
    r.data_dir = std::filesystem::path(ctx_->dataDir().toStdString());
    r.threads = ctx_->threads();
    if (ctx_->syzygy()) r.syzygy = std::filesystem::path(ctx_->syzygyDir().toStdString());
  }
  r.work_dir = r.data_dir / "ablation";
  r.ideas = bench::default_ablation_ideas();
  r.probe_pieces = pieces;
  r.probe_positions = uint64_t(positions_->value());
  return r;
}

void AblationChart::start() {
  if (busy()) return;
  if (!missing().isEmpty()) {
    refresh();
    return;
  }
  run(request());
}

void AblationChart::run(const bench::AblationRequest& request) {
  if (busy()) return;
  const std::vector<std::string> ideas = request.ideas.empty() ? bench::default_ablation_ideas() : request.ideas;
  auto shared = std::make_shared<Shared>();
  shared->ideas = ideas.size();
  shared->minimizeShare = request.syzygy ? 0.7 : 1.0;
  syzygyNote_.clear();
  if (!request.syzygy)
    syzygyNote_ = tr("No Syzygy tables (%1): the covers are compared by size only. Set the Syzygy directory in "
                     "File → Settings to time each idea's probe against Fathom.")
                      .arg(ctx_ && !ctx_->syzygyError().isEmpty() ? ctx_->syzygyError() : tr("none given"));
  rows_.clear();
  outcomeMessage_.clear();
  summary_->clear();
  run_->setEnabled(false);
  pieces_->setEnabled(false);
  positions_->setEnabled(false);
  setMessage(tr("Minimizing %n balance(s) once per idea…", nullptr, int(request.balances.size())));
  runner_->start(shared, [this, request, ideas](ChartRun::State& state) -> ChartRun::Finish {
    auto& sh = static_cast<Shared&>(state);
    Outcome o;
    o.ideas = ideas.size();
    // One idea per call, so the bar and the label know which of them runs: run_ablation's rows
    // are the same whether it gets the ideas together or one by one.
    for (size_t k = 0; k < ideas.size(); ++k) {
      {
        std::lock_guard lock(sh.mutex);
        sh.idea = k;
        sh.ideaName = ideas[k];
      }
      bench::AblationRequest one = request;
      one.ideas = {ideas[k]};
      auto rows = bench::run_ablation(one, sh.progress);
      if (sh.progress.cancelled()) {
        o.cancelled = true;
        break;
      }
      if (!rows) {
        o.error = QString::fromStdString(rows.error().message);
        break;
      }
      for (bench::AblationRow& r : *rows) o.rows.push_back(std::move(r));
      o.finishedIdeas = k + 1;
    }
    o.ok = !o.cancelled && o.error.isEmpty();
    return [this, o] { done(o); };
  });
}

void AblationChart::cancel() { runner_->cancel(); }

bool AblationChart::wait(int timeoutMs) { return runner_->wait(timeoutMs); }

void AblationChart::done(const Outcome& o) {
  pieces_->setEnabled(true);
  positions_->setEnabled(true);
  runner_->showEnd(o.ok, o.cancelled);
  if (o.ok) {
    setRows(o.rows);
  } else {
    const QString kept = tr("%1 of %2 ideas had finished; their covers stay in the ablation directory")
                             .arg(o.finishedIdeas)
                             .arg(o.ideas);
    outcomeMessage_ =
        o.cancelled ? tr("Ablation cancelled (%1)").arg(kept) : tr("Ablation failed: %1 (%2)").arg(o.error, kept);
    setMessage(outcomeMessage_);
  }
  refresh();
  Q_EMIT finished();
}

void AblationChart::setRows(const std::vector<bench::AblationRow>& rows) {
  rows_ = rows;
  summary_->clear();
  summary_->setToolTip({});
  if (rows_.empty()) {
    setMessage(tr("The ablation returned no ideas: nothing to compare"));
    Q_EMIT resultChanged();
    return;
  }
  const bench::AblationRow* base = baselineOf(rows_);
  if (!base || base->bytes == 0) {
    setMessage(tr("The result has no \"%1\" idea with covers: there is nothing to measure the others against")
                   .arg(QString::fromLatin1(kBaseline)));
  } else {
    message_.clear();
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    int pieces = 0;
    for (const bench::AblationBalance& b : base->balances) pieces = std::max(pieces, b.balance.pieces());
    chart->setTitle(tr("Size ablation, balances up to %1 pieces: each idea against the default covers").arg(pieces));
    auto* bytes = new QBarSet(tr("cover bytes ÷ the default's"));
    auto* probe = new QBarSet(tr("indexed probe ÷ Fathom (batch means)"));
    QStringList ideas;
    bool anyProbe = false;
    double hi = 1;
    for (const bench::AblationRow& r : rows_) {
      ideas << QString::fromStdString(r.idea);
      const double relBytes = double(r.bytes) / double(base->bytes);
      // An idea whose probe was not timed (no Syzygy) has no probe bar: 0 draws nothing.
      const double relProbe = probeMeasured(r) ? r.probe_ns / r.fathom_ns : 0;
      *bytes << relBytes;
      *probe << relProbe;
      anyProbe = anyProbe || probeMeasured(r);
      hi = std::max({hi, relBytes, relProbe});
    }
    auto* series = new QBarSeries;
    series->append(bytes);
    if (anyProbe)
      series->append(probe);
    else
      delete probe;
    series->setLabelsVisible(true);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(3);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    // Above the bars the theme's label colour (white, for inside them) would not show.
    for (QBarSet* set : series->barSets()) set->setLabelColor(chart->titleBrush().color());
    auto* y = new QValueAxis;
    y->setRange(0, hi * 1.15);
    y->applyNiceNumbers();
    y->setLabelFormat(QStringLiteral("%.2f"));
    y->setTitleText(tr("relative to the default covers / to Fathom"));
    QBarCategoryAxis* x = addBars(chart, series, ideas, y);
    // The line at 1: below it an idea's covers are smaller than the default's, or its probe faster
    // than Fathom's.
    auto* one = new QLineSeries;
    one->setName(tr("1 (as large as the default, as fast as Fathom)"));
    one->append(-0.5, 1);
    one->append(double(ideas.size()) - 0.5, 1);
    QPen pen(Qt::gray);
    pen.setStyle(Qt::DashLine);
    one->setPen(pen);
    chart->addSeries(one);
    one->attachAxis(x);
    one->attachAxis(y);
    chart->legend()->setAlignment(Qt::AlignTop);
    view_->setChart(chart);
  }

  // The numbers behind the bars, one row per idea.
  const QLocale locale;
  QString table = QStringLiteral(
      "<table cellspacing='0' cellpadding='4'><tr><th align='left'>idea</th><th align='right'>bytes</th>"
      "<th align='right'>× default</th><th align='right'>cubes</th><th align='right'>minimize</th>"
      "<th align='right'>indexed</th><th align='right'>Fathom</th><th align='right'>mismatches</th></tr>");
  QStringList descriptions;
  for (const bench::AblationRow& r : rows_) {
    const bool measured = probeMeasured(r);
    table += QStringLiteral(
                 "<tr><td>%1</td><td align='right'>%2</td><td align='right'>%3</td><td align='right'>%4</td>"
                 "<td align='right'>%5 s</td><td align='right'>%6</td><td align='right'>%7</td>"
                 "<td align='right'>%8</td></tr>")
                 .arg(QString::fromStdString(r.idea).toHtmlEscaped(), locale.toString(r.bytes),
                      base && base->bytes ? locale.toString(double(r.bytes) / double(base->bytes), 'f', 3)
                                          : QStringLiteral("–"),
                      locale.toString(r.cubes), locale.toString(r.minimize_seconds, 'f', 2),
                      measured ? ns(r.probe_ns) : QStringLiteral("–"), measured ? ns(r.fathom_ns) : QStringLiteral("–"),
                      !measured ? QStringLiteral("–")
                      : r.probe_mismatches == 0
                          ? QStringLiteral("0")
                          : QStringLiteral("<b style='color:#b01010'>%1</b>").arg(locale.toString(r.probe_mismatches)));
    descriptions << QStringLiteral("%1: %2").arg(QString::fromStdString(r.idea), QString::fromStdString(r.description));
  }
  table += QStringLiteral("</table>");
  if (!syzygyNote_.isEmpty() && std::none_of(rows_.begin(), rows_.end(), probeMeasured))
    table += QStringLiteral("<p>%1</p>").arg(syzygyNote_.toHtmlEscaped());
  summary_->setText(table);
  summary_->setToolTip(descriptions.join(QLatin1Char('\n')));
  Q_EMIT resultChanged();
}

bool AblationChart::exportCsv(const QString& path, QString* error) const {
  if (rows_.empty()) {
    if (error) *error = tr("No ablation result to export");
    return false;
  }
  return exportCsvFile(path, error, [&](QTextStream& out) {
    const bench::AblationRow* base = baselineOf(rows_);
    auto baseBytes = [&](const Balance& b) -> uint64_t {
      if (!base) return 0;
      for (const bench::AblationBalance& x : base->balances)
        if (x.balance == b) return x.bytes;
      return 0;
    };
    out << "idea,balance,bytes,cubes,minimize_seconds,bytes_vs_default,indexed_batch_ns,fathom_batch_ns,"
           "probe_positions,probe_mismatches\n";
    for (const bench::AblationRow& r : rows_) {
      const QString idea = QString::fromStdString(r.idea);
      for (const bench::AblationBalance& b : r.balances) {
        const uint64_t against = baseBytes(b.balance);
        out << idea << ',' << QString::fromStdString(b.balance.name()) << ',' << b.bytes << ',' << b.cubes << ','
            << b.minimize_seconds << ',' << (against ? QString::number(double(b.bytes) / double(against)) : QString())
            << ",,,,\n";
      }
      // The idea's totals, with the probe times (measured over all its balances at once).
      out << idea << ",all," << r.bytes << ',' << r.cubes << ',' << r.minimize_seconds << ','
          << (base && base->bytes ? QString::number(double(r.bytes) / double(base->bytes)) : QString()) << ',';
      if (probeMeasured(r))
        out << r.probe_ns << ',' << r.fathom_ns << ',' << r.probe_positions << ',' << r.probe_mismatches;
      else
        out << ",,,";
      out << '\n';
    }
  });
}

}  // namespace egtmin::ui
