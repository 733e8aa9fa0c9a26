// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/cover_value_source.hpp"

#include "store/cover_file.hpp"

namespace egtmin::ui {

bool CoverValueSource::available(const Balance& b) const {
  // Asked by the panel before loading; the file's presence is the answer.
  std::error_code ec;
  return std::filesystem::exists(store::cover_path(dir_, b.canonical()), ec);
}

const probe::CoverProber* CoverValueSource::prober(QString* error) {
  QMutexLocker lock(&mutex_);
  if (!tried_) {
    tried_ = true;
    auto r = probe::CoverProber::open(dir_);
    if (r)
      prober_ = std::move(*r);
    else
      error_ = QString::fromStdString(r.error().message);
  }
  if (!prober_ && error) *error = error_;
  return prober_.get();
}

Result<Wdl> CoverValueSource::probe(const Position& pos, QString* detail) {
  QString error;
  const probe::CoverProber* p = prober(&error);
  if (!p) return Error{error.toStdString()};
  const Balance b = Balance::of(pos);
  if (!p->has(b))
    return Error{"no cover for " + b.canonical().name() + " in " + (dir_ / "covers").string() +
                 "; make one in the Runs panel (or egtmin-cli minimize " + b.canonical().name() + ")"};
  auto r = p->probe_checked(pos, probe::Method::Indexed);
  if (!r) return r.error();
  if (detail && r->cube)
    *detail = QString::fromStdString(logic::to_text(r->cube, r->inputs)) +
              QStringLiteral(" (%1 literals)").arg(logic::literals(r->cube));
  return r->wdl;
}

}  // namespace egtmin::ui
