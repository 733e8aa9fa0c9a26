#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Proves libegtmin-probe's packages on a clean Debian 12: installs libegtmin-probe0 and
# libegtmin-probe-dev in a fresh minimal bookworm root (as packaging/test-in-clean-root.sh makes
# it), then, as an engine author would:
#   1. pkg-config --cflags --libs egtmin-probe;
#   2. compiles the installed example (probe_vs_fathom.c) against the installed header with cc and
#      pkg-config, and a CMake project with find_package(EgtminProbe) and target egtmin::probe;
#   3. runs the example on POSITIONS random 3-4-piece positions against Fathom, with the covers
#      of COVER_DIR and the Syzygy files of SYZYGY_DIR copied into the root; 0 mismatches wanted.
#
#   packaging/test-dev-in-clean-root.sh BUILD_DIR COVER_DIR SYZYGY_DIR [POSITIONS]
#
# BUILD_DIR holds the .debs of scripts/package.sh. Needs root and debootstrap (for the first run).
# Environment: ROOT_DIR (default /tmp/egtmin-dev-root), BASE_TAR (default /tmp/egtmin-deb-base.tar).
set -euo pipefail

build=$(realpath "${1:?usage: $0 BUILD_DIR COVER_DIR SYZYGY_DIR [POSITIONS]}")
covers=$(realpath "${2:?cover directory}")
syzygy=$(realpath "${3:?Syzygy directory}")
positions=${4:-1000000}
R=${ROOT_DIR:-/tmp/egtmin-dev-root}
base=${BASE_TAR:-/tmp/egtmin-deb-base.tar}
lib_deb=$(ls "$build"/libegtmin-probe0_*.deb) dev_deb=$(ls "$build"/libegtmin-probe-dev_*.deb)

source "$(dirname "$0")/clean-root.sh"
start_clean_root
cp "$lib_deb" "$dev_deb" "$R/"
# Only the 2-4-piece files: what the example probes.
mkdir -p "$R/covers" "$R/syzygy"
for f in "$covers"/*.egtc "$covers"/*.egtl; do
  [ -e "$f" ] || continue
  n=$(basename "$f"); n=${n%.*}
  [ "$(printf %s "$n" | tr -d v | wc -c)" -le 4 ] && cp "$f" "$R/covers/"
done
for f in "$syzygy"/*.rtbw; do
  n=$(basename "$f" .rtbw)
  [ "$(printf %s "$n" | tr -d v | wc -c)" -le 4 ] && cp "$f" "$R/syzygy/"
done

in_root "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  /$(basename "$lib_deb") /$(basename "$dev_deb") gcc libc6-dev pkg-config cmake make libfathom-dev >/tmp/apt.log 2>&1 \
  || { tail -n 30 /tmp/apt.log; exit 1; }; dpkg-query -W libegtmin-probe0 libegtmin-probe-dev"
in_root "dpkg -L libegtmin-probe0 libegtmin-probe-dev | grep -E '\.so|\.h$|\.pc$|\.cmake$|\.c$'"
in_root "pkg-config --modversion egtmin-probe && pkg-config --cflags --libs egtmin-probe"
in_root "cc -O2 -Wall -Wextra -o /tmp/probe_vs_fathom /usr/share/doc/libegtmin-probe-dev/examples/probe_vs_fathom.c \
  \$(pkg-config --cflags --libs egtmin-probe) -lfathom && ldd /tmp/probe_vs_fathom | grep egtmin"
in_root "mkdir -p /tmp/cm && cd /tmp/cm && cp /usr/share/doc/libegtmin-probe-dev/examples/probe_vs_fathom.c . && \
  printf '%s\n' 'cmake_minimum_required(VERSION 3.25)' 'project(engine C)' 'find_package(EgtminProbe 0.1 REQUIRED)' \
  'add_executable(engine probe_vs_fathom.c)' 'target_link_libraries(engine PRIVATE egtmin::probe fathom)' > CMakeLists.txt && \
  cmake -S . -B b >/dev/null && cmake --build b >/dev/null && ./b/engine /covers /syzygy 1000 3 4 5 | tail -n 2"
in_root "ls /covers | wc -l | xargs echo 'cover and layout files:'; ls /syzygy | wc -l | xargs echo 'Syzygy WDL files:'"
in_root "time /tmp/probe_vs_fathom /covers /syzygy $positions 3 4 1"
echo "== all checks passed in the clean Debian 12 root ($R)"
