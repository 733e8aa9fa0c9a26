#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the Debian package and a tarball of egtmin (Release) in ./build:
#   build/egtmin_<version>_amd64.deb   (dpkg-shlibdeps computes the library dependencies)
#   build/egtmin-<version>-Linux-x86_64.tar.gz
# Usage: scripts/package.sh [BUILD_DIR]   (default: build; JOBS=N limits parallelism)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
jobs=${JOBS:-$(nproc)}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --parallel "$jobs"
(cd "$build" && cpack -G DEB && cpack -G TGZ)
ls -l "$build"/egtmin_*.deb "$build"/egtmin-*.tar.gz
