#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# libegtmin-probe's tests under ThreadSanitizer: 8 threads probing one handle while balances load
# on first use (and, under a memory cap, unload), repeated open and close, built with clang in
# BUILD_DIR (default build-tsan); then egtmin's libfathom.so.1, 8 threads probing through Fathom's
# API right after tb_init (its covers are engine.make_covers', made by the TSan build's egtmin-cli
# when EGTMIN_TEST_DATA names none). A race report fails the run (halt_on_error).
#   scripts/tsan.sh [BUILD_DIR] [REPEAT]
# The whole test program runs once (the capped thread test, whose every probe may reload a
# balance, takes minutes under TSan), then the racing-loads test REPEAT more times (default 20).
# EGTMIN_TEST_DATA=DIR reuses the tables and covers a plain build's tests made (BUILD/test-data).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-tsan}
repeat=${2:-20}
bash scripts/setup.sh
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DEGTMIN_BUILD_GUI=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS=-fsanitize=thread -DCMAKE_CXX_FLAGS=-fsanitize=thread \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread >/dev/null
cmake --build "$build" --parallel "${JOBS:-$(nproc)}" --target egtmin_probe_lib_tests egtmin_fathom_tests egtmin-cli
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
"$build/tests/egtmin_probe_lib_tests"
"$build/tests/egtmin_probe_lib_tests" --gtest_filter='ProbeLibThreads.EightThreadsRacingLoads*' --gtest_repeat="$repeat"
data=${EGTMIN_TEST_DATA:-$build/test-data}
tests/engine/make-covers.sh "$build/app/egtmin-cli" "$data/engine-data" >/dev/null
EGTMIN_TEST_DATA=$data "$build/tests/egtmin_fathom_tests" --gtest_filter='FathomThreads.*' --gtest_repeat="$repeat"
echo "tsan: no data race reported"
