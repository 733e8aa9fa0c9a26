#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The long fuzzing runs: each libFuzzer target (cover files, table files, probe layouts, FEN, PLA) for SECONDS
# (default 600) under AddressSanitizer + UndefinedBehaviorSanitizer, PARALLEL targets at a time
# (default 2), built with clang in BUILD_DIR (default build-san). Each target starts from its seed
# corpus (fuzz/corpus/NAME); its log, grown corpus and any crashing input are in
# BUILD_DIR/fuzz/long-NAME. Exits non-zero when any target crashed, leaked or tripped a sanitizer.
#   scripts/fuzz.sh [SECONDS [PARALLEL [BUILD_DIR]]]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600} parallel=${2:-2} build=${3:-build-san}
bash scripts/setup.sh
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DEGTMIN_BUILD_GUI=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DEGTMIN_SANITIZE=ON -DEGTMIN_FUZZ=ON >/dev/null
targets=(cover_file table_file layout fen pla)
cmake --build "$build" --parallel "${JOBS:-$(nproc)}" --target "${targets[@]/#/fuzz_}"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run() {
  local name=$1 work="$build/fuzz/long-$1"
  if fuzz/run-fuzz.sh "$build/fuzz/fuzz_$name" "fuzz/corpus/$name" "$work" "$seconds" >"$build/fuzz/long-$name.log" 2>&1; then
    echo "fuzz_$name: ok, $(grep -E '^stat::number_of_executed_units' "$build/fuzz/long-$name.log" | awk '{print $2}') inputs in ${seconds} s"
  else
    echo "fuzz_$name: FAILED, see $build/fuzz/long-$name.log and $work/artifacts"
    return 1
  fi
}
status=0
pids=()
for name in "${targets[@]}"; do
  run "$name" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$parallel" ]; then wait "${pids[0]}" || status=1; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
