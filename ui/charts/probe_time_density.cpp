// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/probe_time_density.hpp"

#include <QChart>
#include <QColor>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>

#include "probe/probe.hpp"

namespace egtmin::ui {

QString probeMethodName(probe::ProbeMethodId id) {
  const std::string_view name = probe::probe_method_name(id);
  return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

QString probeMethodLabel(probe::ProbeMethodId id) {
  const std::string_view label = probe::probe_method(id).label;
  return QString::fromUtf8(label.data(), qsizetype(label.size()));
}

quint64 ProbeTimeDensity::maxCount() const {
  quint64 m = 0;
  for (const Cell& c : cells) m = std::max(m, c.count);
  return m;
}

ProbeTimeDensity binJointProbeTimes(const std::vector<uint32_t>& x, const std::vector<uint32_t>& y, int perDecade) {
  ProbeTimeDensity d;
  d.perDecade = std::max(1, perDecade);
  const size_t n = std::min(x.size(), y.size());
  if (n == 0) return d;
  uint32_t lo = UINT32_MAX, hi = 0;
  double xSum = 0, ySum = 0;
  for (size_t i = 0; i < n; ++i) {
    lo = std::min({lo, x[i], y[i]});
    hi = std::max({hi, x[i], y[i]});
    xSum += x[i];
    ySum += y[i];
    d.above += y[i] > x[i];
    d.below += x[i] > y[i];
  }
  // The same edges as the histograms' (binProbeTimes): whole decades around every time.
  const int k0 = int(std::floor(std::log10(double(std::max<uint32_t>(1, lo)))));
  const int k1 = int(std::floor(std::log10(double(std::max<uint32_t>(1, hi))))) + 1;
  const int bins = (k1 - k0) * d.perDecade;
  for (int i = 0; i <= bins; ++i) d.edges << std::pow(10.0, k0 + double(i) / d.perDecade);
  auto cell = [&](uint32_t t) {
    const double at = (std::log10(double(std::max<uint32_t>(1, t))) - k0) * d.perDecade;
    return std::clamp(int(std::floor(at)), 0, bins - 1);
  };
  // Sparse: of the bins² cells, a run fills a narrow band around its typical times.
  std::map<std::pair<int, int>, quint64> counts;
  for (size_t i = 0; i < n; ++i) counts[{cell(x[i]), cell(y[i])}]++;
  for (const auto& [xy, count] : counts) d.cells << ProbeTimeDensity::Cell{xy.first, xy.second, count};
  d.positions = n;
  d.xMeanNs = xSum / double(n);
  d.yMeanNs = ySum / double(n);
  return d;
}

namespace {

// The last bin index holding `share` of a marginal's positions, and the first non-empty one.
std::pair<int, int> marginalSpan(const QList<quint64>& marginal, double share) {
  quint64 total = 0;
  for (quint64 c : marginal) total += c;
  quint64 seen = 0;
  int first = -1, last = 0;
  for (int i = 0; i < marginal.size(); ++i) {
    if (marginal[i] && first < 0) first = i;
    seen += marginal[i];
    last = i;
    if (double(seen) >= share * double(total)) break;
  }
  return {std::max(first, 0), last};
}

}  // namespace

QChart* makeProbeDensityChart(const ProbeTimeDensity& d, const QString& title) {
  auto* chart = new QChart;
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->setTitle(title);
  if (d.empty() || d.edges.size() < 2) return chart;

  // One range for both axes, so the diagonal is the diagonal and every cell is square in log units.
  const int bins = int(d.edges.size()) - 1;
  QList<quint64> xMarginal(bins, 0), yMarginal(bins, 0);
  for (const ProbeTimeDensity::Cell& c : d.cells) {
    xMarginal[c.x] += c.count;
    yMarginal[c.y] += c.count;
  }
  const auto [xFirst, xLast] = marginalSpan(xMarginal, 0.999);
  const auto [yFirst, yLast] = marginalSpan(yMarginal, 0.999);
  const double lo = std::pow(10.0, std::floor(std::log10(d.edges[std::min(xFirst, yFirst)])));
  const double hi = std::pow(10.0, std::ceil(std::log10(d.edges[std::max(xLast, yLast) + 1]) - 1e-9));
  auto axis = [&](const QString& text) {
    auto* a = new QLogValueAxis;
    a->setBase(10);
    a->setLabelFormat(QStringLiteral("%g"));
    a->setMinorTickCount(8);
    a->setRange(lo, hi);
    a->setTitleText(text);
    return a;
  };
  auto* x = axis(QObject::tr("%1: time per probe (ns)").arg(probeMethodLabel(d.xMethod)));
  auto* y = axis(QObject::tr("%1: time per probe (ns)").arg(probeMethodLabel(d.yMethod)));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  auto attach = [&](QAbstractSeries* s) {
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
  };

  // Counts span orders of magnitude (a dense core, a sparse halo), so shades are log-spaced:
  // shade s holds counts up to maxCount^((s+1)/kDensityShades). Light is sparse, dark is dense.
  static constexpr std::array<const char*, kDensityShades> kShades = {"#c6dbef", "#9ecae1", "#6baed6",
                                                                      "#4292c6", "#2171b5", "#08306b"};
  const double logMax = std::log(double(std::max<quint64>(1, d.maxCount())));
  auto shadeOf = [&](quint64 count) {
    if (logMax <= 0) return 0;
    return std::min(kDensityShades - 1, int(std::floor(kDensityShades * std::log(double(count)) / logMax)));
  };
  std::array<QScatterSeries*, kDensityShades> shades{};
  std::array<quint64, kDensityShades> least{}, most{};
  for (const ProbeTimeDensity::Cell& c : d.cells) {
    const int s = shadeOf(c.count);
    if (!shades[s]) {
      shades[s] = new QScatterSeries;
      shades[s]->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
      shades[s]->setColor(QColor(QString::fromLatin1(kShades[size_t(s)])));
      shades[s]->setPen(Qt::NoPen);
      least[s] = c.count;
    }
    least[s] = std::min(least[s], c.count);
    most[s] = std::max(most[s], c.count);
    // At each cell's geometric centre, which is its centre on the log axes.
    shades[s]->append(std::sqrt(d.edges[c.x] * d.edges[c.x + 1]), std::sqrt(d.edges[c.y] * d.edges[c.y + 1]));
  }
  QList<QScatterSeries*> cells;
  const QLocale locale;
  for (int s = 0; s < kDensityShades; ++s) {
    if (!shades[s]) continue;
    shades[s]->setName(
        least[s] == 1 && most[s] == 1 ? QObject::tr("1 position per cell")
        : least[s] == most[s]
            ? QObject::tr("%1 positions per cell").arg(locale.toString(least[s]))
            : QObject::tr("%1–%2 positions per cell").arg(locale.toString(least[s]), locale.toString(most[s])));
    attach(shades[s]);
    cells << shades[s];
  }

  auto* diagonal = new QLineSeries;
  diagonal->setName(QObject::tr("y = x"));
  diagonal->append(lo, lo);
  diagonal->append(hi, hi);
  QPen pen(Qt::gray);
  pen.setStyle(Qt::DashLine);
  diagonal->setPen(pen);
  attach(diagonal);
  auto* mean = new QScatterSeries;
  mean->setName(QObject::tr("mean"));
  mean->setMarkerShape(QScatterSeries::MarkerShapeCircle);
  mean->setMarkerSize(11);
  mean->setColor(QColor(0xd6, 0x27, 0x28));
  mean->setBorderColor(Qt::white);
  mean->append(d.xMeanNs, d.yMeanNs);
  attach(mean);

  // A marker's size is in pixels: a cell spans the plot's side over the cells across it.
  const double cellsAcross = std::log10(hi / lo) * d.perDecade;
  QObject::connect(chart, &QChart::plotAreaChanged, chart, [cells, cellsAcross](const QRectF& area) {
    const double side = std::max(2.0, std::min(area.width(), area.height()) / std::max(1.0, cellsAcross));
    for (QScatterSeries* s : cells) s->setMarkerSize(side);
  });
  chart->legend()->setAlignment(Qt::AlignRight);
  return chart;
}

}  // namespace egtmin::ui
