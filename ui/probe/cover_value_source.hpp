// SPDX-License-Identifier: GPL-3.0-or-later
// ValueSource over the cover files of a data directory (probe::CoverProber): the value comes from
// the first cube containing the position, and that cube is reported as the detail. Covers are
// loaded on the first probe, on the worker thread, so opening a data directory never blocks the
// window.
#pragma once

#include <QMutex>
#include <filesystem>
#include <memory>

#include "probe/cover_prober.hpp"
#include "probe/value_source.hpp"

namespace egtmin::ui {

class CoverValueSource : public ValueSource {
 public:
  explicit CoverValueSource(std::filesystem::path dataDir) : dir_(std::move(dataDir)) {}

  QString name() const override { return QStringLiteral("cover"); }
  bool available(const Balance& b) const override;
  Result<Wdl> probe(const Position& pos, QString* detail = nullptr) override;

 private:
  // Loads the covers once; the error is kept and reported by every probe.
  const probe::CoverProber* prober(QString* error);

  std::filesystem::path dir_;
  QMutex mutex_;
  bool tried_ = false;
  std::unique_ptr<probe::CoverProber> prober_;
  QString error_;
};

}  // namespace egtmin::ui
