// SPDX-License-Identifier: GPL-3.0-or-later
// How many cubes a decision list needs against today's cover. A cover leaves one output implied
// (a position no cube holds has it) and stores the other two, whose cubes may hold no position of
// another output. A decision list reads its stored outputs in order, the first output's cubes
// before the second's, so the second output's cubes may also hold the first output's positions:
// those are don't-cares for it, and it can need fewer cubes. The region scan already answers with
// the first cube that matches, so a list costs a probe nothing if each region keeps the order.
//
// For each table named, the standalone function (every legal representative a care minterm, as
// `minimize` at the normal effort takes it, on one thread): today's cover, with the output of the
// most cubes implied; then, for each output in turn, the function with that output's positions
// made don't-cares, whose cubes for each other output are that output's cubes as the list's
// second. Prints every order of the three outputs, and the best against today's stored cubes.
//
//   egtmin_decision_list_study DATA_DIR BALANCE...
#include <algorithm>
#include <array>
#include <cstdio>

#include "logic/pass_sequence.hpp"
#include "logic/pipeline.hpp"
#include "table/table_store.hpp"
#include "util/enum_names.hpp"

using namespace egtmin;
using namespace egtmin::logic;

namespace {

std::array<size_t, kOutputs> cubes_per_output(const Cover& cover) {
  std::array<size_t, kOutputs> n{};
  for (CubeWord c : cover) ++n[size_t(output_slot(output_of(c)))];
  return n;
}

// The output's name (kOutputNames: string literals, so the view's data ends in a zero).
const char* name(int slot) { return name_of(slot_output(slot)).data(); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: egtmin_decision_list_study DATA_DIR BALANCE...\n");
    return 2;
  }
  TableStore store(argv[1]);
  MinimizeOptions options;
  options.threads = 1;
  for (int a = 2; a < argc; ++a) {
    const auto balance = Balance::parse(argv[a]);
    if (!balance) {
      std::fprintf(stderr, "%s: not a balance\n", argv[a]);
      return 2;
    }
    auto table = store.get(*balance);
    if (!table || !*table) {
      std::fprintf(stderr, "%s: no table under %s\n", argv[a], argv[1]);
      return 1;
    }
    CareFunction f = CareFunction::from_table(**table, CanonScheme::Full, 1);
    const int inputs = f.inputs();
    std::array<std::vector<uint64_t>, kOutputs> on;
    for (int s = 0; s < kOutputs; ++s) on[size_t(s)] = f.on_slot(s).words();
    auto today = minimize_function(std::move(f), default_passes(), options);
    if (!today) {
      std::fprintf(stderr, "%s: %s\n", argv[a], today.error().message.c_str());
      return 1;
    }
    const auto c = cubes_per_output(today->cover);
    const int implied = int(std::max_element(c.begin(), c.end()) - c.begin());
    const size_t stored = c[0] + c[1] + c[2] - c[size_t(implied)];
    std::printf("%s: win %zu, draw %zu, loss %zu cubes; today %s implied, %zu stored\n", argv[a], c[0], c[1], c[2],
                name(implied), stored);
    size_t best = stored;
    for (int first = 0; first < kOutputs; ++first) {
      if (c[size_t(first)] == 0) continue;
      auto words = on;
      std::fill(words[size_t(first)].begin(), words[size_t(first)].end(), 0);
      auto later = minimize_function(CareFunction::from_words(inputs, CanonScheme::Full, std::move(words)),
                                     default_passes(), options);
      if (!later) {
        std::fprintf(stderr, "%s: %s\n", argv[a], later.error().message.c_str());
        return 1;
      }
      const auto d = cubes_per_output(later->cover);
      for (int second = 0; second < kOutputs; ++second) {
        if (second == first) continue;
        const size_t total = c[size_t(first)] + d[size_t(second)];
        std::printf("  %s then %s, %s implied: %zu + %zu = %zu\n", name(first), name(second),
                    name(kOutputs - first - second), c[size_t(first)], d[size_t(second)], total);
        best = std::min(best, total);
      }
    }
    std::printf("  best %zu of today's %zu (%.3fx)\n", best, stored, double(best) / double(stored));
  }
}
