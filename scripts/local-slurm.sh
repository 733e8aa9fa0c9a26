#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A one-node Slurm cluster on this machine, for testing egtmin's cluster commands against the
# real scheduler: munged, slurmctld and slurmd from Debian's packages, configured and kept in DIR
# (config, keys, state, logs, pid files), started niced so the jobs inherit it.
#   local-slurm.sh start DIR   writes DIR/slurm.conf and starts the three daemons; waits for the node
#   local-slurm.sh stop DIR    cancels every job, stops what `start` started (by the pids in DIR)
# Clients reach it with SLURM_CONF=DIR/slurm.conf. The daemons listen on every address of the
# network namespace they run in: scripts/cluster-test.sh runs them in a private one that has only
# the loopback interface, so nothing is reachable from outside this machine.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
dir=$(cd "$dir" && pwd)
conf=$dir/slurm.conf
# Ports of their own, away from a real cluster's 6817/6818.
ctld_port=${EGTMIN_SLURMCTLD_PORT:-16817}
slurmd_port=${EGTMIN_SLURMD_PORT:-16818}

pid_of() { [ -s "$dir/$1.pid" ] && cat "$dir/$1.pid"; }
alive() { local p; p=$(pid_of "$1") && kill -0 "$p" 2>/dev/null; }

daemon_failed() {
  echo "local-slurm: $1 did not start; its log ($dir/$1.log):" >&2
  tail -n 20 "$dir/$1.log" >&2 || true
}

start() {
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
  chmod 700 "$dir"
  chmod 711 "$dir/munge"  # munged wants its socket's directory searchable by every client
  mungekey --create --keyfile="$dir/munge/munge.key" --force 2>/dev/null ||
    { dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none; }
  chmod 600 "$dir/munge/munge.key"
  nice -n 19 munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed"
  local cpus mem
  cpus=$(nproc)
  # Half the machine's memory: jobs are scheduled against it, and the rest is left to others.
  mem=$(awk '/MemTotal/ {print int($2 / 1024 / 2)}' /proc/meminfo)
  cat > "$conf" <<CONF
ClusterName=egtmintest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
SwitchType=switch/none
KillWait=10
MinJobAge=600
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=60
NodeName=egtminnode NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=egtminnode Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$conf
  # Addresses are given with the names: a bare root may have no /etc/hosts to resolve localhost.
  nice -n 19 slurmctld -f "$conf" || { daemon_failed slurmctld; return 1; }
  nice -n 19 slurmd -f "$conf" -N egtminnode || { daemon_failed slurmd; return 1; }
  for _ in $(seq 60); do
    state=$(timeout 5 sinfo -h -n egtminnode -o %T 2>/dev/null || true)
    case "$state" in idle*|mixed*|allocated*) echo "local-slurm: node egtminnode $state ($dir)"; return 0 ;; esac
    sleep 1
  done
  echo "local-slurm: the node did not come up (state '${state:-none}'); logs in $dir:" >&2
  tail -n 20 "$dir/slurmctld.log" "$dir/slurmd.log" "$dir/munged.log" >&2 || true
  return 1
}

stop() {
  export SLURM_CONF=$conf
  # Every job first, so no job step outlives its slurmd.
  if alive slurmctld; then
    jobs=$(timeout 10 squeue -h -o %i 2>/dev/null || true)
    [ -n "$jobs" ] && timeout 10 scancel $jobs 2>/dev/null || true
    for _ in $(seq 30); do [ -z "$(timeout 10 squeue -h -o %i 2>/dev/null)" ] && break; sleep 1; done
  fi
  for daemon in slurmd slurmctld munged; do
    p=$(pid_of $daemon) || continue
    kill "$p" 2>/dev/null || continue
    for _ in $(seq 30); do kill -0 "$p" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$p" 2>/dev/null || true
  done
  echo "local-slurm: stopped ($dir)"
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
