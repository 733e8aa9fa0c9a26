/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine check's mutation: preloaded into an engine, answers one position wrongly. The first
 * position whose WDL probe succeeds is remembered, and every probe of it, then and later, gets the
 * opposite value (a draw becomes a win), as if one cover held one wrong cube for it. Every other
 * probe goes through unchanged to the library behind (RTLD_NEXT). For single-threaded engines. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef unsigned (*probe_fn)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, unsigned,
                             bool);

static uint64_t wrong[10];
static bool chosen;

unsigned tb_probe_wdl_impl(uint64_t white, uint64_t black, uint64_t kings, uint64_t queens, uint64_t rooks,
                           uint64_t bishops, uint64_t knights, uint64_t pawns, unsigned ep, bool turn) {
  static probe_fn real;
  if (!real) real = (probe_fn)dlsym(RTLD_NEXT, "tb_probe_wdl_impl");
  const unsigned v = real(white, black, kings, queens, rooks, bishops, knights, pawns, ep, turn);
  if (v > 4) return v; /* failed: left alone */
  const uint64_t key[10] = {white, black, kings, queens, rooks, bishops, knights, pawns, ep, turn};
  if (!chosen) {
    memcpy(wrong, key, sizeof key);
    chosen = true;
  }
  if (memcmp(wrong, key, sizeof key) != 0) return v;
  return v == 2 ? 4 : 4 - v;
}
