#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Proves a built egtmin .deb on a clean Debian 12: makes a minimal bookworm root with debootstrap
# (cached as a tarball), installs the package there with apt (which must resolve every dependency
# from Debian's archive), then runs the installed programs.
#
#   packaging/test-in-clean-root.sh build/egtmin_0.1.0_amd64.deb
#
# Needs root (debootstrap, chroot, mounts) and the Debian archive this machine's apt uses.
# Environment: ROOT_DIR (default /tmp/egtmin-deb-root), BASE_TAR (default /tmp/egtmin-deb-base.tar).
set -euo pipefail

deb=$(realpath "${1:?usage: $0 path/to/egtmin_VERSION_ARCH.deb}")
R=${ROOT_DIR:-/tmp/egtmin-deb-root}
base=${BASE_TAR:-/tmp/egtmin-deb-base.tar}
source "$(dirname "$0")/clean-root.sh"
start_clean_root
cp "$deb" "$R/"

name=$(basename "$deb")
in_root "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /$name >/tmp/apt.log 2>&1 \
  || { tail -n 30 /tmp/apt.log; exit 1; }; echo installed: \$(dpkg-query -W egtmin)"
in_root "dpkg -L egtmin"
in_root "egtmin-cli --version"
in_root "egtmin-cli gen KQvK --data /tmp/x"
in_root "ls -l /tmp/x/tables"
in_root "egtmin-cli minimize KQvK --data /tmp/x"
in_root "egtmin-cli check KQvK --data /tmp/x"
in_root "egtmin-cli probe '8/8/8/8/8/2k5/8/KQ6 w - - 0 1' --data /tmp/x"
in_root "egtmin-cli bogus-subcommand; test \$? -eq 2 && echo 'usage error exits 2'"
in_root "QT_QPA_PLATFORM=offscreen timeout 5 egtmin --version"
# Start and quit: --screenshot shows the real main window, renders it in a few states and exits.
in_root "QT_QPA_PLATFORM=offscreen timeout 120 egtmin --screenshot /tmp/shots --data /tmp/x && ls /tmp/shots && echo 'GUI started, rendered and quit: exit 0'"
in_root "test -f /usr/share/man/man1/egtmin-cli.1.gz && zcat /usr/share/man/man1/egtmin-cli.1.gz | grep -c '^\.SS' | xargs echo 'man page subcommand sections:'"
echo "== all checks passed in the clean Debian 12 root ($R)"
