/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * egtmin/probe.h: probing egtmin's endgame covers from a chess engine (libegtmin-probe).
 *
 * egtmin stores a material balance's win/draw/loss table as a minimized list of cubes (a cover
 * file, NAME.egtc). This library answers WDL probes from a directory of such files, the way
 * Fathom's tbprobe.h answers them from Syzygy's files:
 *
 *     egtmin_tb* tb;
 *     egtmin_options opt = EGTMIN_OPTIONS_INIT;  // or NULL for the defaults
 *     if (egtmin_open("/path/to/covers", &opt, &tb) != EGTMIN_OK)
 *       fprintf(stderr, "%s\n", egtmin_last_error());
 *     egtmin_position pos = {white, black, kings, queens, rooks, bishops, knights, pawns,
 *                            ep, rule50, castling, white_to_move};
 *     int v = egtmin_probe_wdl(tb, &pos);  // EGTMIN_LOSS .. EGTMIN_WIN, or an error (< 0)
 *     egtmin_close(tb);
 *
 * Link with `pkg-config --cflags --libs egtmin-probe`, or in CMake with
 * `find_package(EgtminProbe)` and the target `egtmin::probe`.
 *
 * Files. Opening lists the cover files (NAME.egtc, or capture-resolved NAME.egtcr when a balance
 * has no NAME.egtc) of the directory, or of its covers/ subdirectory when the directory itself has
 * none (an egtmin data directory). A balance's cover is read when a position of that balance is
 * first probed, using its probe layout (NAME.egtl, NAME.egtlr) when one made from the same cover
 * file lies beside it, else building the index in memory. A layout without its cover file is read
 * on its own (its checksum is the check): a directory of layouts alone is all an engine needs,
 * and the smallest footprint that probes at speed. A capture-resolved cover's probe also
 * probes the positions its captures and promotions reach, through the same handle. The
 * library never writes files. A missing, truncated, corrupted, wrong-version or wrong-balance
 * cover makes the probes of that balance fail with an error code; the library never aborts,
 * exits or prints.
 *
 * Threads. Any number of threads may probe one handle at once. The probe takes no lock; the
 * first probe of a balance loads it under that balance's own lock, so that threads racing to
 * load it load it once and all see it. Opening and closing are not concurrent with probing the
 * same handle: close a handle only when no thread is probing it. Separate handles are
 * independent; a process may open and close handles any number of times.
 *
 * Memory. With a memory cap (egtmin_options.memory_cap), the least recently used balances are
 * unloaded when loading another would pass the cap, and loaded again when next probed. An
 * unloaded balance's memory is freed once no probe that may still read it is running (probes in
 * flight are tracked per thread, without a lock). A balance bigger than the cap alone is still
 * loaded. Without a cap, balances stay loaded until close, and probes skip the tracking.
 * The cap is the library's one memory setting: each balance is probed through its index, mapped
 * from its probe layout, so loading it again after an unload costs a mapping and a checksum, not
 * an index build. (egtmin-cli and the workbench can also keep the cubes alone, in half the memory,
 * but every probe then scans the cover: too slow inside a search.)
 *
 * Squares and bitboards follow Fathom and Stockfish: square 0 is a1, 7 is h1, 63 is h8; bit s of
 * a bitboard is square s.
 *
 * Errors. Functions return EGTMIN_OK (0) or a value, or a negative error code. The calling
 * thread's egtmin_last_error() then says what went wrong (naming the file or the square);
 * egtmin_strerror() names a code.
 */
#ifndef EGTMIN_PROBE_H
#define EGTMIN_PROBE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define EGTMIN_API __attribute__((visibility("default")))
#else
#define EGTMIN_API
#endif

#define EGTMIN_PROBE_VERSION_MAJOR 0
#define EGTMIN_PROBE_VERSION_MINOR 1
#define EGTMIN_PROBE_VERSION_PATCH 0

/* Values for the side to move, numbered as Fathom's TB_LOSS .. TB_WIN. A cursed win is a win
 * that the 50-move rule turns into a draw, a blessed loss a loss that it saves. */
#define EGTMIN_LOSS 0
#define EGTMIN_BLESSED_LOSS 1
#define EGTMIN_DRAW 2
#define EGTMIN_CURSED_WIN 3
#define EGTMIN_WIN 4

/* Error codes (negative). */
#define EGTMIN_OK 0
#define EGTMIN_ERR_ARGUMENT (-1)  /* a null pointer, a bad option, or a call the handle does not allow */
#define EGTMIN_ERR_DIRECTORY (-2) /* the directory cannot be listed */
#define EGTMIN_ERR_POSITION (-3)  /* the position is malformed or illegal */
#define EGTMIN_ERR_CASTLING (-4)  /* castling rights: endgame tables have none */
#define EGTMIN_ERR_RULE50 (-5)    /* egtmin_probe_wdl with a halfmove clock other than 0 */
#define EGTMIN_ERR_NO_COVER (-6)  /* no cover file for the position's balance */
#define EGTMIN_ERR_FILE (-7)      /* the balance's cover file is unreadable, damaged or of another version */
#define EGTMIN_ERR_MEMORY (-8)    /* out of memory */
#define EGTMIN_ERR_BUFFER (-9)    /* the moves array is too small */
#define EGTMIN_ERR_INTERNAL (-10) /* anything else (a bug: please report it) */
/* egtmin_options.struct_size below the first version's size (the options were not initialized
 * with EGTMIN_OPTIONS_INIT), or above this library's with an option it does not know set */
#define EGTMIN_ERR_OPTIONS_SIZE (-11)

/* Enough room for the moves of any legal position (218 at most). */
#define EGTMIN_MAX_MOVES 256

/* Promotion pieces in egtmin_root_move.promotion (Fathom's TB_PROMOTES_* numbering). */
#define EGTMIN_PROMOTES_NONE 0
#define EGTMIN_PROMOTES_QUEEN 1
#define EGTMIN_PROMOTES_ROOK 2
#define EGTMIN_PROMOTES_BISHOP 3
#define EGTMIN_PROMOTES_KNIGHT 4

/* A position as engines hold it. Every piece is in exactly one of white/black and exactly one
 * of the six piece-type bitboards. */
typedef struct egtmin_position {
  uint64_t white, black; /* the squares of each colour's pieces */
  uint64_t kings, queens, rooks, bishops, knights, pawns;
  unsigned ep;       /* the en-passant target square (the one a capturing pawn moves to), 0 for none */
  unsigned rule50;   /* the halfmove clock */
  unsigned castling; /* castling rights: any nonzero value is refused */
  int white_to_move; /* nonzero: White to move */
} egtmin_position;

/* The options of egtmin_open. Initialize them with EGTMIN_OPTIONS_INIT, which sets struct_size
 * and every option to its default, then set the options wanted:
 *
 *     egtmin_options opt = EGTMIN_OPTIONS_INIT;
 *     opt.memory_cap = 64u << 20;
 *
 * struct_size lets the struct grow without breaking programs built against an older header: new
 * options are only ever added at the end, and the library reads only the fields the caller's
 * struct_size covers, the others keeping their defaults. A struct_size below the first version's
 * (struct_size and memory_cap) gives EGTMIN_ERR_OPTIONS_SIZE; so does one above this library's
 * sizeof(egtmin_options) (a newer header) when a byte past it is not zero: an option this library
 * does not have was set. */
typedef struct egtmin_options {
  size_t struct_size; /* sizeof(egtmin_options) as the caller's header declares it */
  /* Bytes of loaded covers to keep at most (0: no cap, nothing is unloaded). */
  uint64_t memory_cap;
} egtmin_options;

/* Every option at its default, struct_size set: the only right way to start an egtmin_options. */
#define EGTMIN_OPTIONS_INIT \
  { sizeof(egtmin_options), 0 }

typedef struct egtmin_root_move {
  unsigned from, to;  /* squares, 0 = a1 */
  unsigned promotion; /* EGTMIN_PROMOTES_* */
  int wdl;            /* the value of the move for the side to move: EGTMIN_LOSS .. EGTMIN_WIN */
} egtmin_root_move;

typedef struct egtmin_stats {
  uint64_t balances_available; /* cover files found when opening */
  uint64_t balances_loaded;    /* balances loaded now */
  uint64_t resident_bytes;     /* memory of the loaded balances and of unloaded ones not yet freed */
  uint64_t memory_cap;         /* 0: none */
  uint64_t loads;              /* balances loaded since opening (reloads included) */
  uint64_t unloads;            /* balances unloaded to stay under the cap */
} egtmin_stats;

typedef struct egtmin_tb egtmin_tb;

/* "0.1.0". */
EGTMIN_API const char* egtmin_version(void);

/* Opens the cover files of `directory` (see Files above); `options` may be NULL (every option at
 * its default), else it must have been initialized with EGTMIN_OPTIONS_INIT (see egtmin_options).
 * On success stores a new handle in *tb and returns EGTMIN_OK; else *tb is set to NULL. A
 * directory without cover files opens, and every probe then gives EGTMIN_ERR_NO_COVER. */
EGTMIN_API int egtmin_open(const char* directory, const egtmin_options* options, egtmin_tb** tb);

/* Frees the handle and everything it loaded. NULL is ignored. No thread may be probing it. */
EGTMIN_API void egtmin_close(egtmin_tb* tb);

/* The most pieces of any cover found (0 when none), as Fathom's TB_LARGEST. */
EGTMIN_API int egtmin_largest(const egtmin_tb* tb);

/* The position's value for the side to move (EGTMIN_LOSS .. EGTMIN_WIN), or an error code.
 * The position must be legal; malformed ones (pieces on two bitboards, not one king a side,
 * pawns on the first or last rank) are refused, but the side not to move being in check is not
 * looked for (the answer is then meaningless; egtmin_check_position finds it). As with Fathom,
 * the halfmove clock must be 0: a WDL table cannot tell what a running clock does to a value.
 * The hot path of the library: no lock, no allocation. */
EGTMIN_API int egtmin_probe_wdl(egtmin_tb* tb, const egtmin_position* pos);

/* egtmin_probe_wdl of positions[0 .. count) into values[0 .. count): each value as
 * egtmin_probe_wdl returns it for that position, error codes included (egtmin_last_error() then
 * says why for the last of them). For callers that hold many positions at once (labelling
 * positions in bulk, training data, analysis), not for a search that waits for each value: the
 * values are the same, and a probe that reads a five-piece cover's regions from memory is started
 * before the probes ahead of it have finished, so that their waits on memory overlap. Returns
 * EGTMIN_OK, or EGTMIN_ERR_ARGUMENT for a null handle, or null arrays with a nonzero count. Safe
 * under threads as egtmin_probe_wdl is. */
EGTMIN_API int egtmin_probe_wdl_many(egtmin_tb* tb, const egtmin_position* positions, size_t count, int* values);

/* Every legal move of the position and its value for the side to move (the value of the
 * position after it, negated), in `moves` (room for `capacity` of them; EGTMIN_MAX_MOVES is
 * always enough). Returns the number of moves (0 for checkmate or stalemate) or an error code.
 * The position is checked in full. The halfmove clock is accepted: each move's value is the
 * table's, whose cursed wins and blessed losses are told apart from a fresh clock; with a
 * running clock a win may still be a draw in the game. */
EGTMIN_API int egtmin_probe_root(egtmin_tb* tb, const egtmin_position* pos, egtmin_root_move* moves, size_t capacity);

/* EGTMIN_OK when the position is legal (and has no castling rights), else EGTMIN_ERR_POSITION or
 * EGTMIN_ERR_CASTLING, egtmin_last_error() saying why. Needs no handle. */
EGTMIN_API int egtmin_check_position(const egtmin_position* pos);

/* Fills *stats. */
EGTMIN_API int egtmin_get_stats(egtmin_tb* tb, egtmin_stats* stats);

/* Changes the memory cap of a handle opened with one (to any nonzero number of bytes), unloading
 * balances at once when the new cap is lower than what is resident. A handle opened without a cap
 * gives EGTMIN_ERR_ARGUMENT: its probes do not track what they read, so it cannot unload safely. */
EGTMIN_API int egtmin_set_memory_cap(egtmin_tb* tb, uint64_t bytes);

/* A short description of an error code ("no cover for the balance"). Never NULL. */
EGTMIN_API const char* egtmin_strerror(int code);

/* What the calling thread's last failed call found, in detail (the file and the problem, the
 * square), or "" when none failed. Valid until the thread's next call into the library. */
EGTMIN_API const char* egtmin_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* EGTMIN_PROBE_H */
