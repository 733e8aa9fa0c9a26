#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the Debian packages and a tarball of egtmin (Release) in ./build:
#   build/egtmin_<version>_amd64.deb               the programs (dpkg-shlibdeps computes the dependencies)
#   build/libegtmin-probe0_<version>_amd64.deb     the engines' shared library
#   build/libegtmin-probe-dev_<version>_amd64.deb  its header, pkg-config and CMake files
#   build/egtmin-<version>-Linux-x86_64.tar.gz
# Usage: scripts/package.sh [BUILD_DIR]   (default: build; JOBS=N limits parallelism)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
jobs=${JOBS:-$(nproc)}
# Prefix /usr: the library goes to Debian's multiarch directory (/usr/lib/x86_64-linux-gnu), as
# GNUInstallDirs chooses for that prefix, and the .pc and CMake files say so.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr >/dev/null
cmake --build "$build" --parallel "$jobs"
(cd "$build" && cpack -G DEB && cpack -G TGZ)
ls -l "$build"/egtmin_*.deb "$build"/libegtmin-probe*.deb "$build"/egtmin-fathom_*.deb "$build"/egtmin-*.tar.gz
