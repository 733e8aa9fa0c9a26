// SPDX-License-Identifier: GPL-3.0-or-later
// The charts area's tabs after "Passes" (the panel's own view), in the order they are shown: one
// row per chart. A new chart is its own files under ui/charts/, a row here and its test.
#pragma once

#include <span>

class QWidget;

namespace egtmin::ui {

class AppContext;

struct ChartTab {
  const char* name;   // what ChartsPanel::showTab takes, and the tab's objectName
  const char* title;  // untranslated; ChartsPanel::tr translates it (QT_TRANSLATE_NOOP marks it)
  QWidget* (*make)(AppContext* ctx, QWidget* parent);
};

std::span<const ChartTab> chartTabs();

}  // namespace egtmin::ui
