# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the clean-root proofs (test-in-clean-root.sh, test-dev-in-clean-root.sh): a fresh
# minimal Debian 12 root at $R, made from a cached debootstrap tarball ($base), with /dev, /proc
# and /sys mounted until the calling script exits, and in_root to run a command inside it.

start_clean_root() {
  [ "$(id -u)" -eq 0 ] || { echo "$0: needs root" >&2; exit 2; }
  if [ ! -f "$base" ]; then
    command -v debootstrap >/dev/null || { echo "$0: install debootstrap first" >&2; exit 2; }
    # A missing sources.list (deb822 sources only) makes grep exit 2: not an error here.
    mirror=$({ grep -rhoE 'https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null \
      || true; } | head -1 | tr -d ' ')
    [ -n "$mirror" ] || { echo "$0: no Debian mirror in /etc/apt sources" >&2; exit 2; }
    echo "== debootstrap --variant=minbase bookworm $mirror"
    rm -rf "$R.tmp"
    debootstrap --variant=minbase bookworm "$R.tmp" "$mirror" >/tmp/egtmin-debootstrap.log
    tar -C "$R.tmp" -cf "$base" . && rm -rf "$R.tmp"
  fi
  unmount_clean_root
  rm -rf "$R" && mkdir -p "$R" && tar -C "$R" -xf "$base"
  trap unmount_clean_root EXIT
  cp /etc/resolv.conf "$R/etc/resolv.conf"
  mount --bind /dev "$R/dev"
  mount -t proc proc "$R/proc"
  mount -t sysfs sys "$R/sys"
}

unmount_clean_root() {
  for m in dev/pts dev proc sys; do mountpoint -q "$R/$m" 2>/dev/null && umount -l "$R/$m"; done
  true
}

in_root() {
  echo "== $*"
  chroot "$R" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 bash -c "$*"
}
