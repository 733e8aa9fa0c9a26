// SPDX-License-Identifier: GPL-3.0-or-later
#include "app_context.hpp"

#include <QSettings>

#include "probe/cover_value_source.hpp"
#include "probe/probe_engine.hpp"
#include "probe/table_value_source.hpp"
#include "util/paths.hpp"

namespace egtmin::ui {

AppContext::AppContext(QObject* parent) : QObject(parent) {
  QSettings s;
  firstStart_ = !s.value("started", false).toBool();
  dataDir_ = s.value("dataDir", QString::fromStdString(default_data_dir().string())).toString();
  // $EGTMIN_SYZYGY as the default, like the CLI.
  syzygyDir_ = s.value("syzygyDir", QString::fromStdString(syzygy_dir_from_env({}).string())).toString();
  threads_ = s.value("threads", 0).toInt();
  sourceKind_ = s.value("source", 0).toInt() == 1 ? Source::Covers : Source::Tables;
  // Saved by name, so that the list of levels may change; an unknown name means the default.
  if (auto level = probe::parse_probe_memory(s.value("probeMemory").toString().toStdString())) probeMemory_ = *level;
  openSource();
  openSyzygy();
}

AppContext::AppContext(const QString& dataDir, const QString& syzygyDir, QObject* parent)
    : QObject(parent), dataDir_(dataDir), syzygyDir_(syzygyDir), persist_(false) {
  openSource();
  openSyzygy();
}

void AppContext::openSource() {
  if (sourceKind_ == Source::Covers)
    source_ = std::make_shared<CoverValueSource>(dataDir_.toStdString(), probeMemory_);
  else
    source_ = std::make_shared<TableValueSource>(dataDir_.toStdString());
}

void AppContext::setSource(Source s) {
  if (s == sourceKind_) return;
  sourceKind_ = s;
  if (persist_) QSettings().setValue("source", int(s));
  openSource();
  Q_EMIT changed();
}

void AppContext::openSyzygy() {
  syzygy_ = nullptr;
  syzygyError_.clear();
  if (syzygyDir_.isEmpty()) {
    syzygyError_ = tr("no Syzygy directory set");
    return;
  }
  // Syzygy::open waits for probes in progress on other threads before it replaces Fathom's state.
  auto r = Syzygy::open(syzygyDir_.toStdString());
  if (r)
    syzygy_ = *r;
  else
    syzygyError_ = QString::fromStdString(r.error().message);
}

void AppContext::setDataDir(const QString& dir) {
  if (dir == dataDir_) return;
  dataDir_ = dir;
  if (persist_) QSettings().setValue("dataDir", dir);
  openSource();
  Q_EMIT changed();
}

void AppContext::setSyzygyDir(const QString& dir) {
  if (dir == syzygyDir_ && syzygy_) return;
  syzygyDir_ = dir;
  if (persist_) QSettings().setValue("syzygyDir", dir);
  openSyzygy();
  Q_EMIT changed();
}

void AppContext::setThreads(int n) {
  threads_ = std::max(0, n);
  if (persist_) QSettings().setValue("threads", threads_);
  Q_EMIT changed();
}

void AppContext::setProbeMemory(probe::ProbeMemory level) {
  if (level == probeMemory_) return;
  probeMemory_ = level;
  if (persist_)
    QSettings().setValue("probeMemory", QString::fromStdString(std::string(probe::probe_memory_level(level).name)));
  if (sourceKind_ == Source::Covers) openSource();
  Q_EMIT changed();
}

void AppContext::markStarted() {
  firstStart_ = false;
  if (persist_) QSettings().setValue("started", true);
}

void AppContext::notifyDataChanged() {
  // TableStore answers "missing" by looking at the disk each time, so tables only need a re-probe.
  // Covers are loaded all at once, so new or remade covers need them opened again.
  if (sourceKind_ == Source::Covers) openSource();
  Q_EMIT changed();
}

}  // namespace egtmin::ui
