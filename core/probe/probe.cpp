// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/probe.hpp"

namespace egtmin::probe {

Covers::Covers(std::unique_ptr<CoverProber> impl, ProbeMemory memory) : impl_(std::move(impl)), memory_(memory) {}
Covers::Covers(Covers&&) noexcept = default;
Covers& Covers::operator=(Covers&&) noexcept = default;
Covers::~Covers() = default;

Result<Covers> Covers::open(const std::filesystem::path& data_dir, const OpenOptions& options) {
  const ProbeMemoryLevel& level = probe_memory_level(options.memory);
  auto p = CoverProber::open(data_dir, level.max_copies, level.regions, options.threads);
  if (!p) return p.error();
  return Covers(std::move(*p), options.memory);
}

bool Covers::has(const Balance& b) const { return impl_->has(b); }

Result<CoverAnswer> Covers::probe(const Position& pos) const {
  return impl_->probe_checked(pos, probe_memory_level(memory_).method);
}

Wdl Covers::probe_wdl(const Position& pos) const { return impl_->probe_wdl(pos, probe_memory_level(memory_).method); }

CoverStats Covers::stats() const { return {impl_->balances(), impl_->resident_bytes(), memory_}; }

}  // namespace egtmin::probe
