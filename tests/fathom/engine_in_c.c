/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An engine's use of Fathom, in C, built against egtmin's tbprobe.h and linked with its
 * libfathom.so.1: the header compiles as C, and the probes answer from the covers of argv[1].
 * Exit 0 when every answer is right. */
#include <stdio.h>
#include <tbprobe.h>

#define SQ(file, rank) ((uint64_t)1 << ((rank)*8 + (file)))

int main(int argc, char** argv) {
  if (argc != 2 || !tb_init(argv[1])) return 2;
  int bad = 0;
  /* KRvK, White to move: a win; Black to move: a loss. */
  const uint64_t wk = SQ(0, 0), wr = SQ(1, 0), bk = SQ(3, 4);
  const unsigned w = tb_probe_wdl(wk | wr, bk, wk | bk, 0, wr, 0, 0, 0, 0, 0, 0, true);
  const unsigned b = tb_probe_wdl(wk | wr, bk, wk | bk, 0, wr, 0, 0, 0, 0, 0, 0, false);
  bad += w != TB_WIN;
  bad += b != TB_LOSS;
  bad += tb_probe_wdl(wk | wr, bk, wk | bk, 0, wr, 0, 0, 0, 0, TB_CASTLING_K, 0, true) != TB_RESULT_FAILED;
  bad += TB_LARGEST < 3;
  static struct TbRootMoves moves;
  bad += tb_probe_root_wdl(wk | wr, bk, wk | bk, 0, wr, 0, 0, 0, 0, 0, 0, true, true, &moves) != 1 || moves.size == 0;
  bad += tb_pop_count(wk | wr | bk) != 3 || tb_lsb(wr) != 1 || tb_king_attacks(0) != (SQ(1, 0) | SQ(0, 1) | SQ(1, 1));
  printf("KRvK: %u (White to move), %u (Black to move); TB_LARGEST %u; %u root moves; %d wrong\n", w, b, TB_LARGEST,
         moves.size, bad);
  tb_free();
  return bad ? 1 : 0;
}
