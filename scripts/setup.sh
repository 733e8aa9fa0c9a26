#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs egtmin's build and test dependencies from Debian's archive. Safe to re-run: it only
# installs what is missing, and does nothing at all when everything is present.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev qt6-charts-dev qt6-qpa-plugins qt6-svg-dev libqt6opengl6-dev
  liblzma-dev xz-utils libfathom-dev googletest libgtest-dev
  # Probe layouts whose region cubes are framed (core/probe/region_frames.hpp).
  libzstd-dev
  # The real-engine check (tests/engine, egtmin-cli bench engine): Debian's Ethereal, linked with
  # libfathom.so.1, searches through egtmin's drop-in and through the system's libfathom1.
  ethereal-chess libfathom1
  libcli11-dev nlohmann-json3-dev
  # scripts/results.py: the results pages from docs/data, and the test that they are up to date.
  python3
  desktop-file-utils appstream file
  # clang and its runtimes (libclang-rt-14-dev: libFuzzer, ASan, UBSan, TSan) for scripts/fuzz.sh,
  # scripts/sanitize.sh and scripts/tsan.sh; debootstrap for the packages' clean-root proofs
  # (packaging/test-in-clean-root.sh, packaging/test-dev-in-clean-root.sh).
  clang libclang-rt-14-dev
  debootstrap
  # The cluster test's one-node Slurm (scripts/cluster-test.sh): its daemons are started only by
  # that script, in a private network namespace (iproute2 brings it the loopback interface).
  slurmctld slurmd slurm-client munge iproute2
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
SUDO=
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
