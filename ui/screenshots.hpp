// SPDX-License-Identifier: GPL-3.0-or-later
// Renders the main window in a few typical states to PNG files (docs/screenshots). Needs tables
// for KQvK/KRvK in the window's data directory; generates them when missing.
#pragma once

#include <QString>

namespace egtmin::ui {

class MainWindow;

bool takeScreenshots(MainWindow& w, const QString& dir);

}  // namespace egtmin::ui
