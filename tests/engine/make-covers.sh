#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The covers of the engine check and of the Fathom API's tests (once per build tree): every
# 3-piece balance, KPvKP (en passant) and four quick pawnless 4-piece ones, standalone, and two
# of these capture-resolved too. Balances whose covers exist are not made again; their layouts
# are made again when stale (a build tree kept across a change of the layout's version), since
# the library reads layouts and never writes them.
#   tests/engine/make-covers.sh EGTMIN_CLI DATA_DIR
set -euo pipefail
cli=$1 data=$2
# The tables are the suite's shared ones (DATA/../tables), as tests/logic's CLI tests share them.
mkdir -p "$data" "$data/../tables"
[ -e "$data/tables" ] || ln -s ../tables "$data/tables"
todo=() todo_cr=()
for b in KQvK KRvK KBvK KNvK KPvK KPvKP KQvKR KRvKR KQvKQ KRvKB; do
  [ -f "$data/covers/$b.egtc" ] || todo+=("$b")
done
for b in KQvKR KRvKR; do
  [ -f "$data/covers/$b.egtcr" ] || todo_cr+=("$b")
done
if [ ${#todo[@]} -gt 0 ]; then "$cli" minimize "${todo[@]}" --data "$data" --quiet >/dev/null; fi
if [ ${#todo_cr[@]} -gt 0 ]; then "$cli" minimize --capture-resolved "${todo_cr[@]}" --data "$data" --quiet >/dev/null; fi
"$cli" layouts --data "$data" --quiet >/dev/null
"$cli" layouts --capture-resolved --data "$data" --quiet >/dev/null
ls "$data/covers"
