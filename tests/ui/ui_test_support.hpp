// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the ui tests: a data directory of generated tables (made once per build tree through
// TableStore, so every test executable reuses them) and the Syzygy directory, if any.
#pragma once

#include <QDir>
#include <QString>
#include <QtGlobal>
#include <filesystem>

#include "chess/balance.hpp"
#include "table/table_store.hpp"

namespace egtmin::ui::test {

// A time limit or a speed bound of `m` milliseconds, multiplied by $EGTMIN_TEST_TIMEOUT_SCALE
// (CMake's EGTMIN_TEST_TIMEOUT_SCALE, set for every test): instrumented builds run several times
// slower (scripts/tsan-gui.sh).
inline int ms(int m) {
  const int scale = qEnvironmentVariableIntValue("EGTMIN_TEST_TIMEOUT_SCALE");
  return m * (scale > 1 ? scale : 1);
}

inline QString dataDir() {
  const QString dir = QString::fromUtf8(EGTMIN_UI_TEST_DATA);
  QDir().mkpath(dir);
  return dir;
}

// Generates the balance's table (and its dependencies) into dataDir() unless present.
inline bool ensureTable(const char* balance) {
  auto b = Balance::parse(balance);
  if (!b) return false;
  TableStore store(dataDir().toStdString());
  return store.ensure(*b).ok();
}

// $EGTMIN_SYZYGY, else ../shared/syzygy beside the source tree; empty when neither exists.
inline QString syzygyDir() {
  const QString env = qEnvironmentVariable("EGTMIN_SYZYGY");
  if (!env.isEmpty() && QDir(env).exists()) return env;
  const QString beside = QDir(QString::fromUtf8(EGTMIN_SOURCE_DIR)).absoluteFilePath("../shared/syzygy");
  return QDir(beside).exists() ? QDir::cleanPath(beside) : QString();
}

inline const char* syzygyMissing() {
  return "Syzygy tables not found: set EGTMIN_SYZYGY or put them in ../shared/syzygy; skipping Syzygy checks";
}

}  // namespace egtmin::ui::test
