#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a test program against a real one-node Slurm cluster (scripts/local-slurm.sh) started for
# it and stopped after it, whatever the outcome:
#   cluster-test.sh PROGRAM [ARGS...]
# The cluster lives in a private network namespace with only the loopback interface, so its
# daemons are reachable from this machine's processes in that namespace alone. Where it cannot be
# started (not root, Slurm or munge not installed, no network namespaces) the script says why and
# exits 77, which CTest reports as skipped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

skip() {
  echo "SKIPPED: the local Slurm cluster cannot be started: $*"
  exit 77
}

[ $# -ge 1 ] || { echo "usage: $0 PROGRAM [ARGS...]" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || skip "starting munged, slurmctld and slurmd needs root"
for c in munged slurmctld slurmd sbatch squeue scancel sinfo unshare ip; do
  command -v "$c" >/dev/null || skip "$c is not installed (bash scripts/setup.sh installs Slurm and munge)"
done

if [ -z "${EGTMIN_SLURM_NETNS:-}" ]; then
  # Propagation unchanged: in a chroot, / is no mount point whose propagation could be changed.
  unshare --net --mount --propagation unchanged true 2>/dev/null ||
    skip "no private network and mount namespaces (unshare --net --mount) to keep the cluster off the network"
  EGTMIN_SLURM_NETNS=1 exec unshare --net --mount --propagation unchanged "$0" "$@"
fi

# slurmd needs the cgroup filesystem, which a bare root (a chroot, a container) may not have
# mounted: it is mounted as the kernel runs it, the unified hierarchy, or the v1 hierarchies this
# process is in (slurmd refuses a mix). /sys is made private in this mount namespace first, so the
# mounts stay in it.
mount_cgroups() {
  mount --make-rprivate /sys || return 1
  if grep -q -v '^0::' /proc/self/cgroup; then
    mount -t tmpfs cgroup /sys/fs/cgroup || return 1
    local c
    for c in $(awk -F: '$1 != 0 {print $2}' /proc/self/cgroup); do  # "cpu", "cpu,cpuacct", "name=systemd"
      mkdir -p "/sys/fs/cgroup/${c#name=}" && mount -t cgroup -o "$c" cgroup "/sys/fs/cgroup/${c#name=}" || return 1
    done
  else
    mount -t cgroup2 cgroup2 /sys/fs/cgroup
  fi
}
if ! mountpoint -q /sys/fs/cgroup; then
  mount_cgroups 2>/dev/null || skip "no cgroup filesystem at /sys/fs/cgroup for slurmd"
fi

# Inside the namespace: loopback up, and one more loopback address, since the daemons resolve
# names with AI_ADDRCONFIG, which finds no IPv4 where 127.0.0.1 is the only address.
ip link set lo up
ip addr add 127.0.0.2/8 dev lo

dir=$(mktemp -d /tmp/egtmin-slurm.XXXXXX)
cleanup() {
  bash "$here/local-slurm.sh" stop "$dir" || true
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

bash "$here/local-slurm.sh" start "$dir"
export SLURM_CONF=$dir/slurm.conf
export EGTMIN_LOCAL_SLURM=1
status=0
nice -n 19 "$@" || status=$?
if [ $status -ne 0 ]; then
  echo "cluster-test: $1 exited $status; the scheduler's logs:" >&2
  tail -n 15 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
fi
exit $status
