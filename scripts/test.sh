#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Sets up, builds and runs the whole test suite (GoogleTest + QTest offscreen) under CTest.
# Syzygy comparisons use ../shared/syzygy (or $EGTMIN_SYZYGY) and are skipped, saying so, when absent.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
export QT_QPA_PLATFORM=offscreen
ctest --test-dir build --output-on-failure -j "$(nproc)" --timeout 900
