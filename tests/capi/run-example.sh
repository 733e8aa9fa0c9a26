#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes the 3-piece covers with egtmin-cli (once per build tree), then runs the C example on
# 100,000 random 3-piece positions against Fathom. Exit 77 (skipped) without Syzygy's files.
#   tests/capi/run-example.sh EGTMIN_CLI PROBE_VS_FATHOM DATA_DIR SOURCE_DIR
set -euo pipefail
cli=$1 example=$2 data=$3 source=$4
syzygy=${EGTMIN_SYZYGY:-$source/../shared/syzygy}
if ! ls "$syzygy"/*.rtbw >/dev/null 2>&1; then
  echo "no Syzygy WDL files in $syzygy (set EGTMIN_SYZYGY): skipped"
  exit 77
fi
"$cli" minimize KQvK KRvK KBvK KNvK KPvK --data "$data" --quiet >/dev/null
exec "$example" "$data/covers" "$syzygy" 100000 3 3 7
