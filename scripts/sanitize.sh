#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer (any report fails the
# test that made it), built with clang in BUILD_DIR (default build-san) with the fuzz targets,
# whose short runs are part of the suite there. Without the GUI (Qt itself is not instrumented).
#   scripts/sanitize.sh [BUILD_DIR]       JOBS=N limits parallelism
# Each test gets 8 times its usual time limit (EGTMIN_TEST_TIMEOUT_SCALE): the instrumented code is
# that much slower on a shared 2-core machine.
# EGTMIN_TEST_DATA=DIR reuses the tables and covers a plain build's tests made (BUILD/test-data)
# instead of generating them under the sanitizers.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-san}
jobs=${JOBS:-$(nproc)}
bash scripts/setup.sh
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DEGTMIN_BUILD_GUI=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DEGTMIN_SANITIZE=ON -DEGTMIN_FUZZ=ON -DEGTMIN_TEST_TIMEOUT_SCALE=8 >/dev/null
cmake --build "$build" --parallel "$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:check_initialization_order=1:strict_init_order=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir "$build" --output-on-failure -j "$jobs"
