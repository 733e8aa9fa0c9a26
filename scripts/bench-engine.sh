#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The real-engine benchmark: Debian's ethereal-chess searches POSITIONS positions (default 500)
# at a fixed depth, once through egtmin's libfathom.so.1 over the covers of DATA and once through
# the system's libfathom1 over the Syzygy WDL files of the same balances, and the two must agree on
# every node count, score, best move and tbhits. Prints both search times, their ratio and the CPU.
#   scripts/bench-engine.sh DATA [POSITIONS [DEPTH]] [-- more egtmin-cli bench engine options]
# DATA: a directory of covers or an egtmin data directory (5-piece covers and the 3-4-piece ones
# their captures reach). Syzygy: $EGTMIN_SYZYGY, else ../shared/syzygy. BUILD (default build):
# the build directory with egtmin-cli.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data=${1:?usage: $0 DATA [POSITIONS [DEPTH]] [-- options]}
shift
positions=500 depth=10
if [ $# -gt 0 ] && [ "$1" != "--" ]; then positions=$1; shift; fi
if [ $# -gt 0 ] && [ "$1" != "--" ]; then depth=$1; shift; fi
[ "${1:-}" = "--" ] && shift
build=${BUILD:-$root/build}
syzygy=${EGTMIN_SYZYGY:-$root/../shared/syzygy}
# Debian's ethereal-chess imports tb_init_impl, which Debian's libfathom1 lacks: a three-line
# library supplies it over libfathom1's tb_init, preloaded into the engine on the libfathom side.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -shared -fPIC -O2 -o "$work/tb_init_alias.so" "$root/tests/engine/tb_init_alias.c" -lfathom
"$build/app/egtmin-cli" bench engine --covers "$data" --syzygy "$syzygy" \
  --fathom-preload "$work/tb_init_alias.so" --positions "$positions" --depth "$depth" "$@"
