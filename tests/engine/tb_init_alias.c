/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Gives Debian's libfathom1 the tb_init_impl that Debian's ethereal-chess imports and it lacks. */
#include <stdbool.h>
bool tb_init(const char* path);
bool tb_init_impl(const char* path) { return tb_init(path); }
