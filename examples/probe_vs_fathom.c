/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * probe_vs_fathom: an engine's use of libegtmin-probe, checked against Fathom.
 *
 * Draws random legal positions of 3 to 4 pieces (as egtmin's benchmark draws them: the kings on
 * any squares, each further piece a random queen, rook, bishop, knight or pawn of a random
 * colour, a random side to move), probes each with egtmin_probe_wdl and with Fathom's
 * tb_probe_wdl, and reports the positions where they disagree. The same positions are probed
 * again many at a time with egtmin_probe_wdl_many, as a tool labelling positions in bulk would.
 *
 *   probe_vs_fathom COVER_DIR SYZYGY_DIR [POSITIONS [MIN_PIECES [MAX_PIECES [SEED]]]]
 *
 * Build against an installed libegtmin-probe-dev and Debian's libfathom-dev:
 *
 *   cc -O2 probe_vs_fathom.c $(pkg-config --cflags --libs egtmin-probe) -lfathom -o probe_vs_fathom
 *
 * Positions whose balance has no cover or no Syzygy file are skipped and counted. Exit status:
 * 0 when every probed position agreed, 1 on a mismatch or an error, 2 on bad arguments, 77 when
 * no position could be probed by both.
 */
#include <egtmin/probe.h>
#include <tbprobe.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* splitmix64: a small, seedable generator (the C library's rand() is too short). */
static uint64_t rng_state;
static uint64_t next_random(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* A random placement of `pieces` pieces; 0 when two pieces share a square. Legality is left to
 * egtmin_check_position. */
static int random_position(int pieces, egtmin_position* p) {
  uint64_t* types[5];
  p->white = p->black = p->kings = p->queens = p->rooks = p->bishops = p->knights = p->pawns = 0;
  types[0] = &p->queens, types[1] = &p->rooks, types[2] = &p->bishops, types[3] = &p->knights, types[4] = &p->pawns;
  p->ep = 0, p->rule50 = 0, p->castling = 0;
  for (int i = 0; i < pieces; ++i) {
    const uint64_t sq = UINT64_C(1) << (next_random() & 63);
    if ((p->white | p->black) & sq) return 0;
    const int white = i == 0 ? 1 : i == 1 ? 0 : (int)(next_random() & 1);
    *(white ? &p->white : &p->black) |= sq;
    if (i < 2)
      p->kings |= sq;
    else
      *types[next_random() % 5] |= sq;
  }
  p->white_to_move = (int)(next_random() & 1);
  return 1;
}

static void print_position(const egtmin_position* p) {
  static const char letters[] = "KQRBNP";
  const uint64_t types[6] = {p->kings, p->queens, p->rooks, p->bishops, p->knights, p->pawns};
  for (int sq = 0; sq < 64; ++sq)
    for (int t = 0; t < 6; ++t)
      if (types[t] >> sq & 1)
        printf(" %c%c%d", (p->white >> sq & 1) ? letters[t] : letters[t] + 32, 'a' + sq % 8, 1 + sq / 8);
  printf(" (%s to move)", p->white_to_move ? "white" : "black");
}

/* Probes the batch's *size positions at once and empties it: the number whose value is an error
 * or differs from Fathom's. */
static long long probe_batch(egtmin_tb* tb, const egtmin_position* batch, const unsigned* want, int* got,
                             size_t* size) {
  long long bad = 0;
  if (egtmin_probe_wdl_many(tb, batch, *size, got) != EGTMIN_OK) {
    bad = (long long)*size;
  } else {
    for (size_t i = 0; i < *size; ++i)
      if (got[i] < 0 || (unsigned)got[i] != want[i]) ++bad;
  }
  *size = 0;
  return bad;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s COVER_DIR SYZYGY_DIR [POSITIONS [MIN_PIECES [MAX_PIECES [SEED]]]]\n", argv[0]);
    return 2;
  }
  const long long positions = argc > 3 ? atoll(argv[3]) : 1000000;
  const int min_pieces = argc > 4 ? atoi(argv[4]) : 3, max_pieces = argc > 5 ? atoi(argv[5]) : 4;
  rng_state = argc > 6 ? strtoull(argv[6], NULL, 10) : 1;
  if (positions <= 0 || min_pieces < 3 || max_pieces > 5 || min_pieces > max_pieces) {
    fprintf(stderr, "%s: positions must be positive and 3 <= MIN_PIECES <= MAX_PIECES <= 5\n", argv[0]);
    return 2;
  }

  egtmin_tb* tb;
  egtmin_options options = EGTMIN_OPTIONS_INIT; /* every option at its default: no memory cap */
  if (egtmin_open(argv[1], &options, &tb) != EGTMIN_OK) {
    fprintf(stderr, "egtmin_open %s: %s\n", argv[1], egtmin_last_error());
    return 1;
  }
  if (!tb_init(argv[2]) || TB_LARGEST == 0) {
    fprintf(stderr, "no Syzygy tables in %s\n", argv[2]);
    egtmin_close(tb);
    return 77;
  }

  long long probed = 0, mismatches = 0, errors = 0, no_cover = 0, no_syzygy = 0, drawn = 0, batch_mismatches = 0;
  /* The batch: positions and Fathom's values, probed together when full and at the end. */
  enum { kBatch = 4096 };
  egtmin_position* batch = malloc(kBatch * sizeof *batch);
  unsigned* batch_want = malloc(kBatch * sizeof *batch_want);
  int* batch_got = malloc(kBatch * sizeof *batch_got);
  size_t batch_size = 0;
  if (!batch || !batch_want || !batch_got) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  while (probed < positions && drawn < 100 * positions) {
    egtmin_position p;
    const int pieces = min_pieces + (int)(next_random() % (uint64_t)(max_pieces - min_pieces + 1));
    ++drawn;
    if (!random_position(pieces, &p) || egtmin_check_position(&p) != EGTMIN_OK) continue;
    const unsigned want = tb_probe_wdl(p.white, p.black, p.kings, p.queens, p.rooks, p.bishops, p.knights, p.pawns,
                                       p.rule50, p.castling, p.ep, p.white_to_move != 0);
    if (want == TB_RESULT_FAILED) {
      ++no_syzygy;
      continue;
    }
    const int got = egtmin_probe_wdl(tb, &p);
    if (got == EGTMIN_ERR_NO_COVER) {
      ++no_cover;
      continue;
    }
    ++probed;
    batch[batch_size] = p;
    batch_want[batch_size++] = want;
    if (batch_size == kBatch) batch_mismatches += probe_batch(tb, batch, batch_want, batch_got, &batch_size);
    if (got < 0) {
      if (++errors <= 10) {
        printf("error:");
        print_position(&p);
        printf(": %s (%s)\n", egtmin_strerror(got), egtmin_last_error());
      }
    } else if ((unsigned)got != want) {
      if (++mismatches <= 10) {
        printf("mismatch:");
        print_position(&p);
        printf(": egtmin %d, Fathom %u\n", got, want);
      }
    }
  }

  batch_mismatches += probe_batch(tb, batch, batch_want, batch_got, &batch_size);

  egtmin_stats s;
  egtmin_get_stats(tb, &s);
  printf(
      "probed %lld positions of %d-%d pieces: %lld mismatches, %lld errors; skipped %lld without a cover, "
      "%lld without a Syzygy file\n",
      probed, min_pieces, max_pieces, mismatches, errors, no_cover, no_syzygy);
  printf("the same positions %d at a time (egtmin_probe_wdl_many): %lld mismatches or errors\n", (int)kBatch,
         batch_mismatches);
  free(batch);
  free(batch_want);
  free(batch_got);
  printf("balances loaded %" PRIu64 " of %" PRIu64 ", resident %" PRIu64 " bytes\n", s.balances_loaded,
         s.balances_available, s.resident_bytes);
  egtmin_close(tb);
  /* Fathom's tables are left to the process's exit: Debian's Fathom's tb_free() prints munmap
   * errors for tables it never mapped. */
  if (probed == 0) return 77;
  return mismatches == 0 && errors == 0 && batch_mismatches == 0 ? 0 : 1;
}
