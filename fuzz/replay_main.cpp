// SPDX-License-Identifier: GPL-3.0-or-later
// A fuzz target's short run in any build, libFuzzer or not: feeds LLVMFuzzerTestOneInput every
// file of a seed corpus as it is, then a fixed number of mutants of them (bit flips, byte
// overwrites, cuts, insertions, splices of two files), drawn from a seeded generator so that a
// failure repeats. A crash or a target's trap fails the run; the input that made it is written
// to the working directory (replay-crash) so it can be fed to the libFuzzer target.
//   fuzz_replay_NAME SEED_CORPUS_DIR MUTANTS [SEED]
// The default GCC build has no libFuzzer; this keeps the targets' code built and exercised by
// the ordinary test suite, and the sanitizer build runs it instrumented beside the real fuzzer.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

using Bytes = std::vector<uint8_t>;

Bytes read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

// The input being run, written out by a fatal signal's handler (a trap cannot be caught any
// other way), with only async-signal-safe calls.
const Bytes* g_current = nullptr;

extern "C" void write_crash_input(int sig) {
  if (g_current) {
    const int fd = ::open("replay-crash", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      [[maybe_unused]] const ssize_t written = ::write(fd, g_current->data(), g_current->size());
      ::close(fd);
    }
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

Bytes mutate(const std::vector<Bytes>& corpus, std::mt19937_64& rng) {
  auto pick = [&](std::size_t n) { return std::size_t(rng() % std::max<std::size_t>(n, 1)); };
  Bytes b = corpus[pick(corpus.size())];
  const int edits = 1 + int(pick(4));
  for (int e = 0; e < edits; ++e) {
    switch (pick(6)) {
      case 0:  // one bit
        if (!b.empty()) b[pick(b.size())] ^= uint8_t(1u << pick(8));
        break;
      case 1:  // one byte, often a boundary value
        if (!b.empty()) {
          static constexpr uint8_t kSpecial[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
          b[pick(b.size())] = pick(2) ? kSpecial[pick(std::size(kSpecial))] : uint8_t(rng());
        }
        break;
      case 2:  // cut the tail
        b.resize(pick(b.size() + 1));
        break;
      case 3: {  // insert random bytes
        Bytes extra(1 + pick(16));
        for (auto& x : extra) x = uint8_t(rng());
        b.insert(b.begin() + std::ptrdiff_t(pick(b.size() + 1)), extra.begin(), extra.end());
        break;
      }
      case 4: {  // splice: this file's head, another's tail
        const Bytes& other = corpus[pick(corpus.size())];
        const std::size_t at = pick(b.size() + 1), from = pick(other.size() + 1);
        b.resize(at);
        b.insert(b.end(), other.begin() + std::ptrdiff_t(from), other.end());
        break;
      }
      default:  // duplicate a slice in place
        if (b.size() > 1) {
          const std::size_t from = pick(b.size()), len = 1 + pick(std::min<std::size_t>(b.size() - from, 64));
          const Bytes slice(b.begin() + std::ptrdiff_t(from), b.begin() + std::ptrdiff_t(from + len));
          b.insert(b.begin() + std::ptrdiff_t(pick(b.size() + 1)), slice.begin(), slice.end());
        }
        break;
    }
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s SEED_CORPUS_DIR MUTANTS [SEED]\n", argv[0]);
    return 2;
  }
  std::vector<Bytes> corpus;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(argv[1], ec))
    if (entry.is_regular_file()) corpus.push_back(read_file(entry.path()));
  if (ec || corpus.empty()) {
    std::fprintf(stderr, "%s: no seed inputs in %s\n", argv[0], argv[1]);
    return 2;
  }
  char* end = nullptr;
  const unsigned long long mutants = std::strtoull(argv[2], &end, 10);
  if (*end) {
    std::fprintf(stderr, "%s: MUTANTS must be a count, not '%s'\n", argv[0], argv[2]);
    return 2;
  }
  std::mt19937_64 rng(argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1);
  for (int sig : {SIGSEGV, SIGILL, SIGBUS, SIGFPE, SIGABRT}) std::signal(sig, write_crash_input);
  for (const Bytes& seed : corpus) {
    g_current = &seed;
    LLVMFuzzerTestOneInput(seed.data(), seed.size());
  }
  for (unsigned long long n = 0; n < mutants; ++n) {
    const Bytes input = mutate(corpus, rng);
    g_current = &input;
    LLVMFuzzerTestOneInput(input.data(), input.size());
  }
  std::printf("%zu seed inputs and %llu mutants: no crash\n", corpus.size(), mutants);
  return 0;
}
