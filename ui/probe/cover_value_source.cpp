// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/cover_value_source.hpp"

#include "probe/probe_layout.hpp"
#include "store/cover_file.hpp"

namespace egtmin::ui {

namespace {
QString levelName(probe::ProbeMemory level) {
  const std::string_view name = probe::probe_memory_level(level).name;
  return QString::fromLatin1(name.data(), qsizetype(name.size()));
}
}  // namespace

bool CoverValueSource::available(const Balance& b) const {
  // Asked by the panel before loading; the files' presence is the answer. Either kind of cover
  // answers (the prober takes the standalone one where a balance has both), from its file or its
  // layout alone.
  return probe::probeable(store::cover_path(dir_, b.canonical())) ||
         probe::probeable(store::cover_path(dir_, b.canonical(), store::CoverKind::CaptureResolved));
}

const probe::Covers* CoverValueSource::covers(QString* error) {
  std::lock_guard lock(mutex_);
  if (!tried_) {
    tried_ = true;
    probe::OpenOptions options;
    options.memory = memory_;
    auto r = probe::Covers::open(dir_, options);
    if (r)
      covers_ = std::move(*r);
    else
      error_ = QString::fromStdString(r.error().message);
  }
  if (!covers_ && error) *error = error_;
  return covers_ ? &*covers_ : nullptr;
}

std::optional<SourceMemory> CoverValueSource::memory() {
  std::lock_guard lock(mutex_);
  if (!covers_) return std::nullopt;
  const probe::CoverStats stats = covers_->stats();
  return SourceMemory{stats.memory_bytes, levelName(stats.memory)};
}

Result<Wdl> CoverValueSource::probe(const Position& pos, ProbeDetail* detail) {
  QString error;
  const probe::Covers* p = covers(&error);
  if (!p) return Error{error.toStdString()};
  const Balance b = Balance::of(pos);
  if (!p->has(b))
    return Error{"no cover for " + b.canonical().name() + " in " + (dir_ / "covers").string() +
                 "; make one in the Runs panel (or egtmin-cli minimize " + b.canonical().name() + ")"};
  auto r = p->probe(pos);
  if (!r) return r.error();
  if (detail && r->cube)
    *detail = {QString::fromStdString(logic::to_text(r->cube, r->inputs)) +
                   QStringLiteral(" (%1 literals)").arg(logic::literals(r->cube)),
               r->cube};
  else if (detail)
    *detail = {r->naming == probe::CubeNaming::Implied
                   ? QStringLiteral("no stored cube: the cover's implied value")
                   : QStringLiteral("cube not named: only the cover's probe layout is on disk"),
               0};
  return r->wdl;
}

}  // namespace egtmin::ui
