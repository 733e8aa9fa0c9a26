#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs one libFuzzer target for SECONDS from its seed corpus; exits non-zero on a crash, a leak,
# a sanitizer report, a timeout (10 s for one input) or running out of memory (2 GiB).
#   fuzz/run-fuzz.sh FUZZER SEED_CORPUS WORK_DIR SECONDS [extra libFuzzer flags]
set -euo pipefail
fuzzer=$1 seeds=$2 work=$3 seconds=$4
shift 4
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
cp -r "$seeds"/. "$work/corpus/" 2>/dev/null || true
exec "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$@" "$work/corpus"
