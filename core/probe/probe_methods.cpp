// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/probe_methods.hpp"

#include <algorithm>
#include <array>
#include <filesystem>

#include "probe/cover_prober.hpp"
#include "probe/syzygy.hpp"

namespace egtmin::probe {

namespace {

template <Method M>
uint64_t cover_batch(const ProbeTargets& t, const Position* positions, size_t n) {
  uint64_t sink = 0;
  for (size_t i = 0; i < n; ++i) sink += uint64_t(t.covers.probe_wdl(positions[i], M));
  return sink;
}

// `fast`, a hot path's value, when the full path agrees with it.
std::optional<Wdl> agreed(const ProbeTargets& t, const Position& pos, Method m, Wdl fast) {
  auto full = t.covers.probe(pos, m, false);  // the value; naming the cube may scan the cover
  if (!full || full->wdl != fast) return std::nullopt;
  return fast;
}

template <Method M>
std::optional<Wdl> cover_checked(const ProbeTargets& t, const Position& pos) {
  return agreed(t, pos, M, t.covers.probe_wdl(pos, M));
}

template <Method M>
size_t cover_memory(const ProbeTargets& t, std::span<const Balance>) {
  return t.covers.memory_bytes(M);
}

// The indexed probe given the whole batch (CoverProber::probe_wdl_many), in slices whose values
// fit in the caches.
uint64_t many_batch(const ProbeTargets& t, const Position* positions, size_t n) {
  uint64_t sink = 0;
  std::array<Wdl, 1024> values;
  for (size_t i = 0; i < n; i += values.size()) {
    const size_t k = std::min(values.size(), n - i);
    t.covers.probe_wdl_many(positions + i, k, values.data(), Method::Indexed);
    for (size_t j = 0; j < k; ++j) sink += uint64_t(values[j]);
  }
  return sink;
}

std::optional<Wdl> many_checked(const ProbeTargets& t, const Position& pos) {
  Wdl many = Wdl::Illegal;
  t.covers.probe_wdl_many(&pos, 1, &many, Method::Indexed);
  return agreed(t, pos, Method::Indexed, many);
}

// The capture-resolved covers, indexed: the same probe on ProbeTargets::resolved.
uint64_t resolved_batch(const ProbeTargets& t, const Position* positions, size_t n) {
  uint64_t sink = 0;
  for (size_t i = 0; i < n; ++i) sink += uint64_t(t.resolved->probe_wdl(positions[i], Method::Indexed));
  return sink;
}

std::optional<Wdl> resolved_checked(const ProbeTargets& t, const Position& pos) {
  return cover_checked<Method::Indexed>(ProbeTargets{*t.resolved, t.syzygy, t.hold}, pos);
}

size_t resolved_memory(const ProbeTargets& t, std::span<const Balance>) {
  return t.resolved->memory_bytes(Method::Indexed);
}

uint64_t fathom_batch(const ProbeTargets& t, const Position* positions, size_t n) {
  uint64_t sink = 0;
  if (!t.hold) {
    const Syzygy::Hold hold = t.syzygy.hold();
    return fathom_batch(ProbeTargets{t.covers, t.syzygy, &hold, t.resolved}, positions, n);
  }
  for (size_t i = 0; i < n; ++i) {
    auto v = t.syzygy.wdl(*t.hold, positions[i]);
    sink += v ? uint64_t(*v) : 9;
  }
  return sink;
}

std::optional<Wdl> fathom_checked(const ProbeTargets& t, const Position& pos) {
  auto v = t.hold ? t.syzygy.wdl(*t.hold, pos) : t.syzygy.wdl(pos);
  if (!v) return std::nullopt;
  return to_wdl(*v);
}

// Fathom maps each table file it probes: their sizes are what it reads.
size_t fathom_memory(const ProbeTargets& t, std::span<const Balance> balances) {
  size_t bytes = 0;
  const std::filesystem::path dir = t.hold ? t.syzygy.dir(*t.hold) : t.syzygy.dir();
  for (const Balance& b : balances) {
    std::error_code ec;
    auto size = std::filesystem::file_size(dir / (b.name() + ".rtbw"), ec);
    if (!ec) bytes += size;
  }
  return bytes;
}

constexpr ProbeMethodInfo kMethods[] = {
    {ProbeMethodId::Indexed, "indexed", "cover, indexed", "the cover's index: front line, then tree or region index",
     MethodRole::Cover, false, false, false, cover_batch<Method::Indexed>, cover_checked<Method::Indexed>,
     cover_memory<Method::Indexed>},
    {ProbeMethodId::Batched, "batched", "cover, indexed, batched",
     "the index given many positions at once: consecutive probes' waits on memory overlap", MethodRole::Cover, false,
     false, true, many_batch, many_checked, cover_memory<Method::Indexed>},
    {ProbeMethodId::Linear, "linear", "cover, linear", "the paper's probe: scan the cover's cubes in file order",
     MethodRole::Cover, true, false, false, cover_batch<Method::Linear>, cover_checked<Method::Linear>,
     cover_memory<Method::Linear>},
    {ProbeMethodId::CaptureResolved, "capture-resolved", "capture-resolved cover, indexed",
     "the capture-resolved cover's index, the better of its value and a one-ply capture search", MethodRole::Cover,
     false, true, false, resolved_batch, resolved_checked, resolved_memory},
    {ProbeMethodId::Fathom, "fathom", "Fathom (Syzygy)", "Fathom's tb_probe_wdl on the Syzygy WDL files",
     MethodRole::Anchor, false, false, false, fathom_batch, fathom_checked, fathom_memory},
};

// The list is in id order, so that an id is its entry's place.
constexpr bool in_id_order() {
  for (size_t i = 0; i < std::size(kMethods); ++i)
    if (size_t(kMethods[i].id) != i) return false;
  return true;
}
static_assert(in_id_order() && std::size(kMethods) == size_t(ProbeMethodId::Fathom) + 1);

}  // namespace

std::span<const ProbeMethodInfo> probe_methods() { return kMethods; }

const ProbeMethodInfo& probe_method(ProbeMethodId id) { return kMethods[size_t(id)]; }

std::string_view probe_method_name(ProbeMethodId id) { return probe_method(id).name; }

std::vector<const ProbeMethodInfo*> probe_methods_for(const ProbeTargets& targets) {
  std::vector<const ProbeMethodInfo*> out;
  // A cover opened from its layout alone has no cubes to scan.
  const bool scannable = !targets.covers.cover_without_cubes();
  for (const ProbeMethodInfo& m : kMethods)
    if ((!m.reads_resolved || targets.resolved) && (!m.scans_cover || scannable)) out.push_back(&m);
  return out;
}

const ProbeMethodInfo* find_probe_method(std::string_view name) {
  for (const ProbeMethodInfo& m : kMethods)
    if (m.name == name) return &m;
  return nullptr;
}

const ProbeMethodInfo& anchor_method() {
  for (const ProbeMethodInfo& m : kMethods)
    if (m.role == MethodRole::Anchor) return m;
  return kMethods[std::size(kMethods) - 1];
}

ProbeMethodId probe_method_of(Method m) { return m == Method::Linear ? ProbeMethodId::Linear : ProbeMethodId::Indexed; }

std::string_view method_name(Method m) { return probe_method_name(probe_method_of(m)); }

Result<Method> parse_method(std::string_view name) {
  if (const ProbeMethodInfo* named = find_probe_method(name))
    for (Method m : {Method::Linear, Method::Indexed})
      if (probe_method_of(m) == named->id) return m;
  return Error{"unknown probe method '" + std::string(name) + "' (" + std::string(method_name(Method::Linear)) +
               " or " + std::string(method_name(Method::Indexed)) + ")"};
}

}  // namespace egtmin::probe
