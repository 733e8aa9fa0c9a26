// SPDX-License-Identifier: GPL-3.0-or-later
// ValueSource over the cover files of a data directory (probe::Covers): the value comes from
// the first cube containing the position, and that cube is reported as the detail. Covers are
// loaded on the first probe, on the worker thread, so opening a data directory (or choosing
// another memory level, which reads the covers again) never blocks the window.
#pragma once

#include <filesystem>
#include <mutex>
#include <optional>

#include "probe/probe.hpp"
#include "probe/value_source.hpp"

namespace egtmin::ui {

class CoverValueSource : public ValueSource {
 public:
  explicit CoverValueSource(std::filesystem::path dataDir, probe::ProbeMemory memory = probe::kDefaultProbeMemory)
      : dir_(std::move(dataDir)), memory_(memory) {}

  QString name() const override { return QStringLiteral("cover"); }
  bool available(const Balance& b) const override;
  Result<Wdl> probe(const Position& pos, ProbeDetail* detail = nullptr) override;
  std::optional<SourceMemory> memory() override;

 private:
  // Loads the covers once; the error is kept and reported by every probe.
  const probe::Covers* covers(QString* error);

  std::filesystem::path dir_;
  probe::ProbeMemory memory_;
  std::mutex mutex_;
  bool tried_ = false;
  std::optional<probe::Covers> covers_;
  QString error_;
};

}  // namespace egtmin::ui
