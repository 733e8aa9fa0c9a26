// SPDX-License-Identifier: GPL-3.0-or-later
// Where an indexed probe's time goes: memory or work. Times the indexed probe alone (as `bench
// probe` times it: a batch of independent probes, the mean per probe) on random legal positions of
// one balance (or of every balance of a piece count, as `bench probe --pieces N` draws them), twice:
// over all of them, and over the first WORKING_SET of them again and again,
// whose layout lines then stay in the caches. The first is what the benchmark measures; the second
// is the probe's work without its waits on memory; the gap is the memory. Run it under callgrind
// for the probe's instructions (the inclusive count of CoverProber::probe_standalone per call).
//
//   egtmin_probe_study DATA_DIR BALANCE|PIECES [POSITIONS [WORKING_SET [ROUNDS [SEED]]]] [--answers]
//
// --answers (one balance with a region index): instead of timing, where the positions' answers
// lie: the front line, the region's first cube, its 2nd-16th, 17th-64th, later ones, or its
// fallback (no cube holds the position), and for the fallback's positions, whether a set of the
// free pieces' squares per region would have told the fallback without reading the cubes.
//
// Defaults: 200,000 positions, a working set of 1,000, 3 rounds, seed 11. DATA_DIR holds the
// balance's cover (covers/NAME.egtc) and, for the stored index, its layout. PIECES (3, 4 or 5):
// every cover of DATA_DIR is opened and the positions are the benchmark's (bench::PaperSampler),
// those of balances without a cover left out.
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "bench/sampler.hpp"
#include "chess/balance.hpp"
#include "probe/probe.hpp"

using namespace egtmin;

namespace {

// Nanoseconds per probe of `positions[i % working_set]` for i below positions.size().
double time_probes(const probe::CoverProber& prober, const std::vector<Position>& positions, size_t working_set,
                   uint64_t& sink) {
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0, j = 0; i < positions.size(); ++i, j = j + 1 == working_set ? 0 : j + 1)
    sink += uint64_t(prober.probe_wdl(positions[j], probe::Method::Indexed));
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / double(positions.size());
}

// Where the answers of `sample` lie in the balance's index (--answers).
int print_answers(const probe::CoverProber& prober, const Balance& balance, const std::vector<Position>& sample) {
  const probe::LoadedCover* lc = prober.cover(balance);
  if (!lc || lc->file.balance != balance || !lc->region.built()) {
    std::fprintf(stderr, "--answers needs a canonical balance whose cover has a region index\n");
    return 2;
  }
  // Front line; region cube 1, 2-16, 17-64, 65 on; fallback, of which a square set would tell.
  enum { kFront, kFirst, kTo16, kTo64, kLater, kFallback, kFallbackSquares, kKinds };
  std::array<uint64_t, kKinds> n{};
  uint64_t region_cubes = 0;
  for (const Position& pos : sample) {
    // The positions are of the balance as named: no colour swap (LoadedCover::find).
    const Placement p = lc->encoding.placement_of_own(pos);
    const uint64_t idx = lc->encoding.encode(lc->canon.canonical(p).placement);
    if (lc->index.find_output(idx) != logic::Output::None) {
      ++n[kFront];
      continue;
    }
    const probe::RegionIndex::Answer a = lc->region.answer(idx);
    region_cubes += a.region_cubes;
    if (a.cube < 0) {
      ++n[kFallback];
      n[kFallbackSquares] += !(a.first_square_held && a.second_square_held);
    } else {
      ++n[a.cube == 0 ? kFirst : a.cube < 16 ? kTo16 : a.cube < 64 ? kTo64 : kLater];
    }
  }
  const double all = double(sample.size()), regions = all - double(n[kFront]);
  auto pct = [](uint64_t k, double of) { return of > 0 ? 100.0 * double(k) / of : 0.0; };
  std::printf("%s, %zu positions: front line (%d cubes) %.1f %%, a region %.1f %% (its mean cube count %.1f)\n",
              balance.name().c_str(), sample.size(), lc->index.front_size(), pct(n[kFront], all),
              pct(uint64_t(regions), all), regions > 0 ? double(region_cubes) / regions : 0.0);
  std::printf(
      "of the region probes: answered by its first cube %.1f %%, 2nd-16th %.1f %%, 17th-64th %.1f %%, "
      "later %.1f %%, the fallback %.1f %%\n",
      pct(n[kFirst], regions), pct(n[kTo16], regions), pct(n[kTo64], regions), pct(n[kLater], regions),
      pct(n[kFallback], regions));
  std::printf("of the fallback's: a free piece's square that no cube of the region holds %.1f %%\n",
              pct(n[kFallbackSquares], double(n[kFallback])));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const bool answers = argc > 1 && std::string(argv[argc - 1]) == "--answers";
  if (answers) --argc;
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s DATA_DIR BALANCE|PIECES [POSITIONS [WORKING_SET [ROUNDS [SEED]]]] [--answers]\n",
                 argv[0]);
    return 2;
  }
  const std::string what = argv[2];
  const bool mixed = what.size() == 1 && what[0] >= '3' && what[0] <= '5';
  const auto balance = mixed ? Result<Balance>(Balance()) : Balance::parse(what);
  if (!balance) {
    std::fprintf(stderr, "%s\n", balance.error().message.c_str());
    return 2;
  }
  if (answers && mixed) {
    std::fprintf(stderr, "--answers takes one balance, not a piece count\n");
    return 2;
  }
  const long positions = argc > 3 ? std::atol(argv[3]) : 200'000, working_set = argc > 4 ? std::atol(argv[4]) : 1'000;
  const int rounds = argc > 5 ? std::atoi(argv[5]) : 3;
  const uint64_t seed = argc > 6 ? std::strtoull(argv[6], nullptr, 10) : 11;
  if (positions <= 0 || working_set <= 0 || working_set > positions || rounds <= 0) {
    std::fprintf(stderr, "POSITIONS, WORKING_SET (at most POSITIONS) and ROUNDS must be positive\n");
    return 2;
  }
  std::unique_ptr<probe::CoverProber> prober;
  if (mixed) {
    auto opened = probe::CoverProber::open(argv[1]);
    if (!opened) {
      std::fprintf(stderr, "%s\n", opened.error().message.c_str());
      return 1;
    }
    prober = std::move(*opened);
    if (prober->balances().empty()) {
      std::fprintf(stderr, "no covers in %s/covers\n", argv[1]);
      return 1;
    }
  } else {
    prober = std::make_unique<probe::CoverProber>();
    const std::filesystem::path cover = std::filesystem::path(argv[1]) / "covers" / (balance->name() + ".egtc");
    if (const Status s = prober->add_file(cover); !s) {
      std::fprintf(stderr, "%s\n", s.error().message.c_str());
      return 1;
    }
  }

  std::vector<Position> sample;
  sample.reserve(size_t(positions));
  if (mixed) {
    // The benchmark's positions, those with a cover.
    bench::PaperSampler sampler(what[0] - '0', seed);
    for (long tries = 0; sample.size() < size_t(positions); ++tries) {
      if (tries > 100 * positions) {
        std::fprintf(stderr, "too few positions of balances with a cover in %s\n", argv[1]);
        return 1;
      }
      bench::Sample s;
      if (!sampler.next(s)) continue;
      const Position pos = bench::to_position(s);
      if (prober->has(Balance::of(pos))) sample.push_back(pos);
    }
  } else {
    // Random legal positions of the balance: each piece on a random free square, either side to move.
    const std::vector<Piece> pieces = balance->piece_order();
    std::mt19937_64 rng(seed);
    while (sample.size() < size_t(positions)) {
      Position pos;
      uint64_t occupied = 0;
      bool ok = true;
      for (Piece p : pieces) {
        const unsigned sq = unsigned(rng() & 63);
        ok = ok && !(occupied >> sq & 1);
        occupied |= uint64_t{1} << sq;
        if (ok) pos.put(Square(sq), p);
      }
      pos.set_side_to_move(Color(rng() & 1));
      if (ok && !pos.illegal_reason()) sample.push_back(pos);
    }
  }

  if (answers) return print_answers(*prober, *balance, sample);

  uint64_t sink = 0;
  const std::string name = mixed ? what + " pieces" : balance->name();
  std::printf("%s, %ld positions, indexed probe, ns per probe (batch mean)\n", name.c_str(), positions);
  for (int r = 0; r < rounds; ++r) {
    const double all = time_probes(*prober, sample, sample.size(), sink);
    const double cached = time_probes(*prober, sample, size_t(working_set), sink);
    std::printf("round %d: all positions %.1f, the first %ld again and again %.1f\n", r + 1, all, working_set, cached);
  }
  return sink == 1 ? 1 : 0;  // keeps the probes observable
}
