#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Proves egtmin-fathom on a clean Debian 12: installs egtmin and egtmin-fathom (.debs of
# scripts/package.sh) and Debian's ethereal-chess in a fresh minimal bookworm root (as
# packaging/test-in-clean-root.sh makes it), then, as a user would:
#   1. makes the covers of KRvKR and KRRvK with egtmin-cli (or copies those of COVER_DIR);
#   2. runs ethereal-chess through egtmin-cli engine, with SyzygyPath naming the covers, on a
#      five-piece position (KRRvKR): its search must report tbhits, on one thread and on two;
#   3. checks that the system's libfathom is untouched: ethereal-chess alone still loads it, and
#      through the launcher loads egtmin's, from its private directory.
#
#   packaging/test-engine-in-clean-root.sh BUILD_DIR [COVER_DIR]
#
# Needs root and debootstrap (for the first run).
# Environment: ROOT_DIR (default /tmp/egtmin-engine-root), BASE_TAR (default /tmp/egtmin-deb-base.tar).
set -euo pipefail

build=$(realpath "${1:?usage: $0 BUILD_DIR [COVER_DIR]}")
covers=${2:+$(realpath "$2")}
R=${ROOT_DIR:-/tmp/egtmin-engine-root}
base=${BASE_TAR:-/tmp/egtmin-deb-base.tar}
app_deb=$(ls "$build"/egtmin_*.deb) fathom_deb=$(ls "$build"/egtmin-fathom_*.deb)

source "$(dirname "$0")/clean-root.sh"
start_clean_root
cp "$app_deb" "$fathom_deb" "$R/"
in_root "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /$(basename "$app_deb") \
  /$(basename "$fathom_deb") ethereal-chess >/tmp/apt.log 2>&1 || { tail -n 30 /tmp/apt.log; exit 1; }; \
  dpkg-query -W egtmin egtmin-fathom ethereal-chess libfathom1"
in_root "dpkg -L egtmin-fathom"
if [ -n "$covers" ]; then
  mkdir -p "$R/covers"
  cp "$covers"/*.egt* "$R/covers/"
else
  in_root "egtmin-cli minimize KRvKR KRRvK --data /tmp/x --quiet && mkdir -p /covers && cp /tmp/x/covers/* /covers/"
fi
in_root "ls -l /covers"

# A KRRvKR position, searched to depth 12: the captures of its search reach the covers. The
# engine reads a FIFO, so that it is told to quit only once it has given its best move.
cat >"$R/tmp/search.sh" <<'SCRIPT'
set -euo pipefail
threads=$1
rm -f /tmp/in && mkfifo /tmp/in
egtmin-cli engine -- ethereal-chess </tmp/in >/tmp/search.log 2>&1 &
exec 3>/tmp/in
printf 'uci\nsetoption name Threads value %s\nsetoption name SyzygyPath value /covers\nisready\nucinewgame\n' "$threads" >&3
printf 'position fen 8/4k3/8/8/8/2r5/1R6/3RK3 w - - 0 1\ngo depth 12\n' >&3
for _ in $(seq 300); do grep -q '^bestmove' /tmp/search.log && break; sleep 1; done
echo quit >&3
exec 3>&-
wait
grep '^info depth' /tmp/search.log | tail -n 1
grep '^bestmove' /tmp/search.log
tbhits=$(grep '^info depth' /tmp/search.log | tail -n 1 | sed -n 's/.* tbhits \([0-9]*\).*/\1/p')
[ "${tbhits:-0}" -gt 0 ] || { echo "no tbhits"; cat /tmp/search.log; exit 1; }
echo "Threads $threads: tbhits from covers: $tbhits"
SCRIPT
search() { in_root "bash /tmp/search.sh $1"; }
search 1
search 2

in_root "ldd /usr/games/ethereal-chess | grep libfathom"
in_root "egtmin-cli engine -- ldd /usr/games/ethereal-chess | grep libfathom | tee /tmp/ldd.log && grep -q /usr/lib/x86_64-linux-gnu/egtmin/libfathom.so.1 /tmp/ldd.log"
in_root "egtmin-cli engine --covers /nonexistent -- ethereal-chess; test \$? -eq 2 && echo 'a missing cover directory exits 2'"
echo "== all engine checks passed in the clean Debian 12 root ($R)"
