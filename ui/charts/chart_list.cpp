// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/chart_list.hpp"

#include <QtGlobal>
#include <type_traits>

#include "charts/ablation_chart.hpp"
#include "charts/iteration_chart.hpp"
#include "charts/probe_times_chart.hpp"
#include "charts/scatter_charts.hpp"
#include "charts/sizes_chart.hpp"

namespace egtmin::ui {

namespace {

// Builds a chart, handing it the context when its constructor takes one.
template <class Chart>
QWidget* make(AppContext* ctx, QWidget* parent) {
  if constexpr (std::is_constructible_v<Chart, AppContext*, QWidget*>)
    return new Chart(ctx, parent);
  else
    return new Chart(parent);
}

// The titles are translated in ChartsPanel's context, where the tabs are made.
constexpr ChartTab kChartTabs[] = {
    {"time", QT_TRANSLATE_NOOP("egtmin::ui::ChartsPanel", "Time vs cubes"), make<TimeChart>},
    {"iteration", QT_TRANSLATE_NOOP("egtmin::ui::ChartsPanel", "Iterated passes"), make<IterationChart>},
    {"sizes", QT_TRANSLATE_NOOP("egtmin::ui::ChartsPanel", "File sizes"), make<SizesChart>},
    {"syzygy", QT_TRANSLATE_NOOP("egtmin::ui::ChartsPanel", "Cover vs Syzygy"), make<SyzygySizeChart>},
    {"probe-times", QT_TRANSLATE_NOOP("egtmin::ui::ChartsPanel", "Probe times"), make<ProbeTimesChart>},
    {"ablation", QT_TRANSLATE_NOOP("egtmin::ui::ChartsPanel", "Ablation"), make<AblationChart>},
};

}  // namespace

std::span<const ChartTab> chartTabs() { return kChartTabs; }

}  // namespace egtmin::ui
