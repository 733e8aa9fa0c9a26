#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The workbench's tests under ThreadSanitizer: every QTest program (background minimization runs
# started, cancelled and finished; the probe benchmark's and the ablation's chart runs; the probe
# panel; the responsiveness checks), with egtmin's own code built with clang's -fsanitize=thread
# in BUILD_DIR (default build-tsan-gui). A race report fails the test that made it (halt_on_error).
#   scripts/tsan-gui.sh [BUILD_DIR]        JOBS=N limits parallelism
# Qt's libraries are not instrumented. ignore_noninstrumented_modules keeps TSan from judging what
# Qt does inside itself (its allocations and copies, synchronized through locks TSan cannot see);
# every access made by egtmin's code, and by the Qt templates compiled into it, is checked. The
# workbench hands work between threads only through std::thread (ui/background_task.hpp) and std::mutex,
# which TSan sees.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-tsan-gui}
bash scripts/setup.sh
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DEGTMIN_BUILD_GUI=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEGTMIN_TEST_TIMEOUT_SCALE=8 \
  -DCMAKE_C_FLAGS=-fsanitize=thread -DCMAKE_CXX_FLAGS=-fsanitize=thread \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread >/dev/null
cmake --build "$build" --parallel "${JOBS:-$(nproc)}" --target egtmin_ui_tests
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ignore_noninstrumented_modules=1"
ctest --test-dir "$build" --output-on-failure -j "${JOBS:-$(nproc)}" -R '^ui\.'
echo "tsan-gui: no data race reported"
