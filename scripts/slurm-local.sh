#!/usr/bin/env bash
# Starts, checks or stops a real single-node Slurm cluster on this machine (Debian/Ubuntu
# packages slurm-wlm and munge), to try `nagc slurm` without a university cluster and to
# test it. Needs root (it installs packages and starts daemons); needs no systemd.
#
# Usage: scripts/slurm-local.sh start|stop|status
#
#   start   installs slurm-wlm and munge if missing, writes /etc/slurm/slurm.conf for this
#           machine (its CPUs and memory as slurmd -C sees them, node name hostname -s,
#           one partition "local"), starts munged, slurmctld and slurmd, and waits until
#           the node is idle. Daemon state and logs go to $NAGC_SLURM_DIR
#           (default /tmp/nagc-slurm).
#   stop    cancels every job of this cluster and stops the daemons it started.
#   status  prints sinfo and squeue.
#
# It refuses to touch an /etc/slurm/slurm.conf it did not write: on a machine that is
# already part of a cluster, use that cluster.
set -euo pipefail

STATE=${NAGC_SLURM_DIR:-/tmp/nagc-slurm}
CONF=/etc/slurm/slurm.conf
MARK="# Written by nagc scripts/slurm-local.sh"
WAIT=${NAGC_SLURM_WAIT:-60} # seconds to wait for a daemon or the node

say() { echo "slurm-local: $*" >&2; }
die() {
	say "$*"
	exit 1
}

need_root() {
	[ "$(id -u)" -eq 0 ] || die "run me as root: I install packages and start the Slurm daemons"
}

install() {
	if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null && command -v sbatch >/dev/null; then
		return
	fi
	command -v apt-get >/dev/null || die "no apt-get: install Slurm (slurmctld, slurmd, client commands) and munge yourself"
	say "installing slurm-wlm and munge with apt-get"
	export DEBIAN_FRONTEND=noninteractive
	timeout 300 apt-get update -qq >/dev/null
	timeout 300 apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
}

# pid_alive FILE: the process named in pid file FILE runs.
pid_alive() {
	[ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

# wait_for SECONDS DESCRIPTION COMMAND…: retries COMMAND every 0.2 s until it succeeds.
wait_for() {
	local limit=$1 what=$2
	shift 2
	local end=$((SECONDS + limit))
	until "$@" >/dev/null 2>&1; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.2
	done
}

start_munge() {
	if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
		return # a munged already runs (the machine's own, or ours from before)
	fi
	if [ ! -s /etc/munge/munge.key ]; then
		say "creating the munge key"
		(umask 077 && dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none)
	fi
	mkdir -p /run/munge /var/log/munge /var/lib/munge
	chown munge:munge /etc/munge/munge.key /run/munge /var/log/munge /var/lib/munge
	chmod 400 /etc/munge/munge.key
	chmod 755 /run/munge
	runuser -u munge -- munged --pid-file=/run/munge/munged.pid
	cp /run/munge/munged.pid "$STATE/munged.pid"
	wait_for "$WAIT" munged sh -c 'munge -n | unmunge' || die "munged did not come up (see /var/log/munge/munged.log)"
}

write_conf() {
	local node cpus mem line
	node=$(hostname -s)
	# slurmd -C prints this machine's node line (CPUs, sockets, cores, threads, memory).
	line=$(slurmd -C 2>/dev/null | grep '^NodeName=' || true)
	if [ -n "$line" ]; then
		line=$(echo "$line" | sed -e "s/^NodeName=[^ ]*/NodeName=$node/")
	else
		cpus=$(nproc)
		mem=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
		line="NodeName=$node CPUs=$cpus RealMemory=$mem"
	fi
	if [ -e "$CONF" ] && ! grep -qF "$MARK" "$CONF"; then
		die "$CONF exists and was not written by me: this machine has its own Slurm configuration; use that cluster"
	fi
	mkdir -p /etc/slurm "$STATE/ctld" "$STATE/d"
	cat >"$CONF" <<EOF
$MARK for a one-node cluster; stop it with
# scripts/slurm-local.sh stop. State and logs: $STATE.
ClusterName=nagclocal
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/d
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/slurmctld.log
SlurmdLogFile=$STATE/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
# A small cluster for trying things: look at pending jobs (dependencies) every 2 s, not 60.
SchedulerParameters=sched_interval=2,bf_interval=2
$line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
}

node_idle() {
	sinfo --noheader --nodes "$(hostname -s)" --format %T | grep -qx 'idle'
}

start() {
	need_root
	install
	mkdir -p "$STATE"
	if pid_alive "$STATE/slurmctld.pid" || pid_alive "$STATE/slurmd.pid"; then
		die "already running (stop it first: $0 stop)"
	fi
	if [ -e "$CONF" ] && timeout 10 scontrol ping >/dev/null 2>&1; then
		die "a Slurm controller already answers for $CONF (started from another state folder?): stop it first"
	fi
	start_munge
	write_conf
	# -c: start with no jobs left from an earlier run.
	slurmctld -c -f "$CONF" || die "slurmctld did not start (see $STATE/slurmctld.log)"
	wait_for "$WAIT" slurmctld scontrol ping || die "slurmctld does not answer (see $STATE/slurmctld.log)"
	slurmd -f "$CONF" || die "slurmd did not start (see $STATE/slurmd.log)"
	if ! wait_for "$WAIT" node node_idle; then
		sinfo -N -l >&2 || true
		tail -n 20 "$STATE/slurmd.log" "$STATE/slurmctld.log" >&2 || true
		die "the node did not become idle within ${WAIT}s"
	fi
	say "up: node $(hostname -s), partition local; try: sinfo; stop with: $0 stop"
	sinfo
}

# stop_daemon NAME PIDFILE: SIGTERM, then SIGKILL after 15 s.
stop_daemon() {
	local name=$1 file=$2 pid
	pid_alive "$file" || return 0
	pid=$(cat "$file")
	kill -TERM "$pid" 2>/dev/null || true
	if ! wait_for 15 "$name" sh -c "! kill -0 $pid"; then
		say "$name (pid $pid) ignored SIGTERM: killing it"
		kill -KILL "$pid" 2>/dev/null || true
	fi
}

stop() {
	need_root
	if pid_alive "$STATE/slurmctld.pid"; then
		timeout 20 scancel --full --quiet --partition local 2>/dev/null || true
		wait_for 20 jobs sh -c '[ -z "$(squeue --noheader --format %i)" ]' || say "jobs still listed after 20 s: stopping anyway"
	fi
	stop_daemon slurmd "$STATE/slurmd.pid"
	stop_daemon slurmctld "$STATE/slurmctld.pid"
	stop_daemon munged "$STATE/munged.pid" # only a munged this script started
	rm -f "$STATE/munged.pid"
	say "stopped"
}

status() {
	sinfo
	squeue
}

case "${1:-}" in
start) start ;;
stop) stop ;;
status) status ;;
*)
	echo "usage: $0 start|stop|status" >&2
	exit 2
	;;
esac
