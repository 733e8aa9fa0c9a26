/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tbprobe.h: Fathom's C API, answered from egtmin's endgame covers (egtmin's libfathom.so.1).
 *
 * The declarations, values and macros are Fathom's (the tbprobe.h of Debian's libfathom-dev and of
 * jdart1/Fathom), so that an engine written against Fathom compiles and links against this library
 * unchanged, and an engine already linked with libfathom.so.1 runs with it in place of Fathom's
 * (egtmin-cli engine -- ENGINE sets that up). tb_init's path names directories of egtmin cover
 * files (NAME.egtc, or capture-resolved NAME.egtcr) or of their probe layouts alone (NAME.egtl,
 * NAME.egtlr), separated by ':' as in Fathom; an egtmin data directory is read from its covers/
 * subdirectory.
 *
 * What differs from Fathom, all for want of DTZ (docs/fathom-library.md):
 * - tb_probe_root (tb_probe_root_impl) answers TB_RESULT_CHECKMATE and TB_RESULT_STALEMATE, and
 *   TB_RESULT_FAILED for every other position: a move chosen without DTZ may make no progress, so
 *   the engine searches instead, probing WDL in its tree, as it does when Fathom lacks DTZ files.
 * - tb_probe_root_dtz returns 0 (no DTZ); tb_probe_root_wdl ranks the root moves by WDL exactly as
 *   Fathom's own fallback does.
 * - The DTM functions (TB_probe_dtm, tb_expand_mate) and Fathom's internals that libfathom1 happens
 *   to export are not provided: they take Fathom's private structures.
 */
#ifndef TBPROBE_H
#define TBPROBE_H

#ifndef TB_NO_STDINT
#include <stdint.h>
#else
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned uint32_t;
typedef long long unsigned uint64_t;
typedef char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
#endif

#ifndef TB_NO_STDBOOL
#include <stdbool.h>
#else
#ifndef __cplusplus
typedef uint8_t bool;
#define true 1
#define false 0
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Fathom's tbconfig.h scoring constants (tb_probe_root_wdl's scores are made of them). */
#ifndef TB_VALUE_PAWN
#define TB_VALUE_PAWN 100
#endif
#ifndef TB_VALUE_MATE
#define TB_VALUE_MATE 32000
#endif
#ifndef TB_VALUE_INFINITE
#define TB_VALUE_INFINITE 32767
#endif
#ifndef TB_VALUE_DRAW
#define TB_VALUE_DRAW 0
#endif
#ifndef TB_MAX_MATE_PLY
#define TB_MAX_MATE_PLY 255
#endif

/* The functions the inline wrappers below call: the library's ABI, as engines built against either
 * generation of Fathom's header import it (tb_init_impl from the older one, tb_init from the newer). */
extern bool tb_init_impl(const char *_path);
extern unsigned tb_probe_wdl_impl(uint64_t _white, uint64_t _black, uint64_t _kings, uint64_t _queens,
                                  uint64_t _rooks, uint64_t _bishops, uint64_t _knights, uint64_t _pawns,
                                  unsigned _ep, bool _turn);
extern unsigned tb_probe_root_impl(uint64_t _white, uint64_t _black, uint64_t _kings, uint64_t _queens,
                                   uint64_t _rooks, uint64_t _bishops, uint64_t _knights, uint64_t _pawns,
                                   unsigned _rule50, unsigned _ep, bool _turn, unsigned *_results);

#define TB_MAX_MOVES (192 + 1)
#define TB_MAX_CAPTURES 64
#define TB_MAX_PLY 256
#define TB_CASTLING_K 0x1 /* White king-side. */
#define TB_CASTLING_Q 0x2 /* White queen-side. */
#define TB_CASTLING_k 0x4 /* Black king-side. */
#define TB_CASTLING_q 0x8 /* Black queen-side. */

#define TB_LOSS 0         /* loss */
#define TB_BLESSED_LOSS 1 /* loss, but a draw under the 50-move rule */
#define TB_DRAW 2         /* draw */
#define TB_CURSED_WIN 3   /* win, but a draw under the 50-move rule */
#define TB_WIN 4          /* win */

#define TB_PROMOTES_NONE 0
#define TB_PROMOTES_QUEEN 1
#define TB_PROMOTES_ROOK 2
#define TB_PROMOTES_BISHOP 3
#define TB_PROMOTES_KNIGHT 4

#define TB_RESULT_WDL_MASK 0x0000000F
#define TB_RESULT_TO_MASK 0x000003F0
#define TB_RESULT_FROM_MASK 0x0000FC00
#define TB_RESULT_PROMOTES_MASK 0x00070000
#define TB_RESULT_EP_MASK 0x00080000
#define TB_RESULT_DTZ_MASK 0xFFF00000
#define TB_RESULT_WDL_SHIFT 0
#define TB_RESULT_TO_SHIFT 4
#define TB_RESULT_FROM_SHIFT 10
#define TB_RESULT_PROMOTES_SHIFT 16
#define TB_RESULT_EP_SHIFT 19
#define TB_RESULT_DTZ_SHIFT 20

#define TB_GET_WDL(_res) (((_res) & TB_RESULT_WDL_MASK) >> TB_RESULT_WDL_SHIFT)
#define TB_GET_TO(_res) (((_res) & TB_RESULT_TO_MASK) >> TB_RESULT_TO_SHIFT)
#define TB_GET_FROM(_res) (((_res) & TB_RESULT_FROM_MASK) >> TB_RESULT_FROM_SHIFT)
#define TB_GET_PROMOTES(_res) (((_res) & TB_RESULT_PROMOTES_MASK) >> TB_RESULT_PROMOTES_SHIFT)
#define TB_GET_EP(_res) (((_res) & TB_RESULT_EP_MASK) >> TB_RESULT_EP_SHIFT)
#define TB_GET_DTZ(_res) (((_res) & TB_RESULT_DTZ_MASK) >> TB_RESULT_DTZ_SHIFT)

#define TB_SET_WDL(_res, _wdl) (((_res) & ~TB_RESULT_WDL_MASK) | (((_wdl) << TB_RESULT_WDL_SHIFT) & TB_RESULT_WDL_MASK))
#define TB_SET_TO(_res, _to) (((_res) & ~TB_RESULT_TO_MASK) | (((_to) << TB_RESULT_TO_SHIFT) & TB_RESULT_TO_MASK))
#define TB_SET_FROM(_res, _from) \
  (((_res) & ~TB_RESULT_FROM_MASK) | (((_from) << TB_RESULT_FROM_SHIFT) & TB_RESULT_FROM_MASK))
#define TB_SET_PROMOTES(_res, _promotes) \
  (((_res) & ~TB_RESULT_PROMOTES_MASK) | (((_promotes) << TB_RESULT_PROMOTES_SHIFT) & TB_RESULT_PROMOTES_MASK))
#define TB_SET_EP(_res, _ep) (((_res) & ~TB_RESULT_EP_MASK) | (((_ep) << TB_RESULT_EP_SHIFT) & TB_RESULT_EP_MASK))
#define TB_SET_DTZ(_res, _dtz) (((_res) & ~TB_RESULT_DTZ_MASK) | (((_dtz) << TB_RESULT_DTZ_SHIFT) & TB_RESULT_DTZ_MASK))

#define TB_RESULT_CHECKMATE TB_SET_WDL(0, TB_WIN)
#define TB_RESULT_STALEMATE TB_SET_WDL(0, TB_DRAW)
#define TB_RESULT_FAILED 0xFFFFFFFF

/* The most pieces of any cover found by tb_init (0 before, after tb_free, or when none was found).
 * Engines probe only positions with at most this many pieces. */
extern unsigned TB_LARGEST;
/* The same number, as Fathom's later versions also export it; DTM: always 0 (no DTM). */
extern int TB_MaxCardinality, TB_MaxCardinalityDTM;

/* Reads the covers of the directories in `path` (':'-separated; "" or "<empty>": none), after
 * freeing what an earlier call read, and sets TB_LARGEST. Directories that do not exist are passed
 * over, as Fathom passes over a path without tables; the environment variable EGTMIN_COVERS (set by
 * egtmin-cli engine --covers) names more. The 3-piece covers are read at once, the others on their
 * first probe. Returns false only when `path` is NULL or memory runs out (TB_LARGEST is then 0).
 * Not to be called while another thread probes. */
bool tb_init(const char *_path);

/* Frees what tb_init read; TB_LARGEST becomes 0. tb_init may be called again afterwards. */
void tb_free(void);

/* The position's WDL value for the side to move (TB_LOSS .. TB_WIN), or TB_RESULT_FAILED: castling
 * rights, a halfmove clock other than 0, more pieces than TB_LARGEST or a balance without a cover,
 * a malformed position, or a cover that cannot be read. Thread-safe; no lock. */
static inline unsigned tb_probe_wdl(uint64_t _white, uint64_t _black, uint64_t _kings, uint64_t _queens,
                                    uint64_t _rooks, uint64_t _bishops, uint64_t _knights, uint64_t _pawns,
                                    unsigned _rule50, unsigned _castling, unsigned _ep, bool _turn) {
  if (_castling != 0) return TB_RESULT_FAILED;
  if (_rule50 != 0) return TB_RESULT_FAILED;
  return tb_probe_wdl_impl(_white, _black, _kings, _queens, _rooks, _bishops, _knights, _pawns, _ep, _turn);
}

/* Fathom's DTZ root probe. Without DTZ this library answers TB_RESULT_CHECKMATE when the side to
 * move is mated, TB_RESULT_STALEMATE when it is stalemated (results, when not NULL, then holds just
 * the terminating TB_RESULT_FAILED), and TB_RESULT_FAILED otherwise (results untouched). */
static inline unsigned tb_probe_root(uint64_t _white, uint64_t _black, uint64_t _kings, uint64_t _queens,
                                     uint64_t _rooks, uint64_t _bishops, uint64_t _knights, uint64_t _pawns,
                                     unsigned _rule50, unsigned _castling, unsigned _ep, bool _turn,
                                     unsigned *_results) {
  if (_castling != 0) return TB_RESULT_FAILED;
  return tb_probe_root_impl(_white, _black, _kings, _queens, _rooks, _bishops, _knights, _pawns, _rule50, _ep,
                            _turn, _results);
}

typedef uint16_t TbMove;

#define TB_MOVE_FROM(move) (((move) >> 6) & 0x3F)
#define TB_MOVE_TO(move) ((move) & 0x3F)
#define TB_MOVE_PROMOTES(move) (((move) >> 12) & 0x7)

struct TbRootMove {
  TbMove move;
  TbMove pv[TB_MAX_PLY];
  unsigned pvSize;
  int32_t tbScore, tbRank;
};

struct TbRootMoves {
  unsigned size;
  struct TbRootMove moves[TB_MAX_MOVES];
};

/* Ranks the root moves by DTZ: always 0 here (no DTZ), so that the engine falls back to
 * tb_probe_root_wdl, as with Fathom missing DTZ files. */
int tb_probe_root_dtz(uint64_t _white, uint64_t _black, uint64_t _kings, uint64_t _queens, uint64_t _rooks,
                      uint64_t _bishops, uint64_t _knights, uint64_t _pawns, unsigned _rule50, unsigned _castling,
                      unsigned _ep, bool _turn, bool hasRepeated, bool useRule50, struct TbRootMoves *_results);

/* Ranks and scores every legal root move by the WDL value it leads to, as Fathom's fallback does
 * (rank -1000, -899, 0, 899, 1000 and score -TB_VALUE_MATE + TB_MAX_MATE_PLY + 1, -2, 0, 2,
 * TB_VALUE_MATE - TB_MAX_MATE_PLY - 1 for a loss, blessed loss, draw, cursed win, win; without
 * useRule50 cursed wins and blessed losses count as wins and losses). Each move's pv holds the move
 * alone. Returns 1, or 0 when a probe failed (castling rights, an illegal position, a balance
 * without a cover). */
int tb_probe_root_wdl(uint64_t _white, uint64_t _black, uint64_t _kings, uint64_t _queens, uint64_t _rooks,
                      uint64_t _bishops, uint64_t _knights, uint64_t _pawns, unsigned _rule50, unsigned _castling,
                      unsigned _ep, bool _turn, bool useRule50, struct TbRootMoves *_results);

/* Fathom's helper API: bit tricks and attack sets, squares and bitboards numbered from a1 = 0. A
 * square above 63 gives no attacks; tb_lsb(0) gives UINT_MAX as Fathom's does. */
#ifndef TB_NO_HELPER_API

extern unsigned tb_pop_count(uint64_t _bb);
extern unsigned tb_lsb(uint64_t _bb);
extern uint64_t tb_pop_lsb(uint64_t _bb);
extern uint64_t tb_king_attacks(unsigned _square);
extern uint64_t tb_queen_attacks(unsigned _square, uint64_t _occ);
extern uint64_t tb_rook_attacks(unsigned _square, uint64_t _occ);
extern uint64_t tb_bishop_attacks(unsigned _square, uint64_t _occ);
extern uint64_t tb_knight_attacks(unsigned _square);
extern uint64_t tb_pawn_attacks(unsigned _square, bool _color); /* _color: true = White */

#endif

#ifdef __cplusplus
}
#endif

#endif /* TBPROBE_H */
