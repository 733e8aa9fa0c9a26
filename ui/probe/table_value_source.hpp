// SPDX-License-Identifier: GPL-3.0-or-later
// ValueSource over the generated tables of a data directory (TableStore::probe_stm).
#pragma once

#include <filesystem>
#include <memory>

#include "probe/value_source.hpp"
#include "table/table_store.hpp"

namespace egtmin::ui {

class TableValueSource : public ValueSource {
 public:
  explicit TableValueSource(std::filesystem::path dataDir) : store_(std::move(dataDir)) {}

  QString name() const override { return QStringLiteral("table"); }
  bool available(const Balance& b) const override { return store_.on_disk(b); }
  Result<Wdl> probe(const Position& pos, ProbeDetail* = nullptr) override { return store_.probe_stm(pos); }

  TableStore& store() { return store_; }

 private:
  TableStore store_;
};

}  // namespace egtmin::ui
