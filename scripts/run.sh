#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The main job: set up, build, then generate every 2-4 piece table, check it against Syzygy,
# minimize every 3-4 piece table into a cover file, check the covers, and run the paper's size and
# probe benchmarks. Data goes to ./data (override with EGTMIN_DATA), Syzygy is read from
# ../shared/syzygy (override with EGTMIN_SYZYGY).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
cli=./build/app/egtmin-cli
data=${EGTMIN_DATA:-./data}
syzygy=${EGTMIN_SYZYGY:-../shared/syzygy}

$cli gen --pieces 4 --data "$data"
if [ -d "$syzygy" ]; then
  $cli verify --syzygy "$syzygy" --data "$data" --pieces 4
else
  echo "run: no Syzygy directory at $syzygy: skipping the comparison with Syzygy" >&2
fi
$cli minimize --pieces 4 --data "$data"
$cli check --pieces 4 --data "$data"
if [ -d "$syzygy" ]; then
  $cli bench size --syzygy "$syzygy" --data "$data"
  $cli bench probe --syzygy "$syzygy" --data "$data" --pieces 4 --positions 1000000
fi
