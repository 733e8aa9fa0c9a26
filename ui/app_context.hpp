// SPDX-License-Identifier: GPL-3.0-or-later
// Settings and the shared back ends (value source, Syzygy) that the panels use. Settings live in
// QSettings; changing a directory swaps the back end and tells the panels to re-probe.
#pragma once

#include <QObject>
#include <QString>
#include <filesystem>
#include <memory>

#include "probe/probe.hpp"
#include "probe/value_source.hpp"

namespace egtmin::ui {

class AppContext : public QObject {
  Q_OBJECT
 public:
  // Reads QSettings; dataDir/syzygyDir given here (tests) override them and are not saved.
  explicit AppContext(QObject* parent = nullptr);
  AppContext(const QString& dataDir, const QString& syzygyDir, QObject* parent = nullptr);

  // Where "our" values come from: the generated tables, or the minimized covers.
  enum class Source { Tables = 0, Covers = 1 };
  Source source() const { return sourceKind_; }
  void setSource(Source s);

  QString dataDir() const { return dataDir_; }
  QString syzygyDir() const { return syzygyDir_; }
  int threads() const { return threads_; }
  // What the covers keep in memory when our values come from them (core/probe/probe_memory.hpp).
  probe::ProbeMemory probeMemory() const { return probeMemory_; }
  bool firstStart() const { return firstStart_; }

  // Shared with workers: a worker keeps its own reference, so swapping the source while a probe
  // runs is safe.
  std::shared_ptr<ValueSource> valueSource() const { return source_; }
  const Syzygy* syzygy() const { return syzygy_; }
  QString syzygyError() const { return syzygyError_; }

  // Persists (unless constructed with explicit directories) and emits changed().
  void setDataDir(const QString& dir);
  void setSyzygyDir(const QString& dir);
  void setThreads(int n);
  // Persists; with covers as the source, they are opened again at the new level, on the next
  // probe's worker thread (reading every cover's cubes is slow at five pieces).
  void setProbeMemory(probe::ProbeMemory level);
  void markStarted();

  // The data directory's tables or covers changed (a run made some): drop cached "missing" answers
  // and open the covers again.
  void notifyDataChanged();

 Q_SIGNALS:
  void changed();

 private:
  void openSource();
  void openSyzygy();

  QString dataDir_, syzygyDir_;
  int threads_ = 0;
  probe::ProbeMemory probeMemory_ = probe::kDefaultProbeMemory;
  Source sourceKind_ = Source::Tables;
  bool persist_ = true;
  bool firstStart_ = false;
  std::shared_ptr<ValueSource> source_;
  const Syzygy* syzygy_ = nullptr;
  QString syzygyError_;
};

}  // namespace egtmin::ui
