// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/probe.hpp"

#include "probe/cover_prober.hpp"

namespace egtmin::probe {

Covers::Covers(std::unique_ptr<CoverProber> impl) : impl_(std::move(impl)) {}
Covers::Covers(Covers&&) noexcept = default;
Covers& Covers::operator=(Covers&&) noexcept = default;
Covers::~Covers() = default;

Result<Covers> Covers::open(const std::filesystem::path& data_dir, const OpenOptions& options) {
  auto p = CoverProber::open(data_dir, CoverProber::kDefaultCopies, RegionPolicy::Auto, options.threads);
  if (!p) return p.error();
  return Covers(std::move(*p));
}

bool Covers::has(const Balance& b) const { return impl_->has(b); }

Result<CoverAnswer> Covers::probe(const Position& pos) const {
  auto r = impl_->probe_checked(pos, Method::Indexed);
  if (!r) return r.error();
  return CoverAnswer{r->wdl, r->cube, r->inputs, r->balance};
}

Wdl Covers::probe_wdl(const Position& pos) const { return impl_->probe_wdl(pos, Method::Indexed); }

CoverStats Covers::stats() const { return {impl_->balances(), impl_->memory_bytes(Method::Indexed)}; }

}  // namespace egtmin::probe
