# Sourced by the Slurm tests: where no Slurm cluster answers but slurm-wlm is installed and we
# are root (as on CI's machines), starts a private one-node cluster in a temporary folder
# (its own config, ports, state and logs; auth/none, so no munge key) and stops it on exit.
# Sets SLURM_CONF for sbatch/sinfo; exits 77 (skip) with the reason where it cannot.
#   start_private_cluster WORK_DIR

start_private_cluster() {
  local dir=$1/slurm host port
  command -v slurmctld > /dev/null && command -v slurmd > /dev/null ||
    { echo "SKIPPED: no Slurm cluster answers here and slurm-wlm is not installed"; exit 77; }
  [ "$(id -u)" -eq 0 ] ||
    { echo "SKIPPED: no Slurm cluster answers here and only root can start slurmd"; exit 77; }
  host=$(hostname -s)
  port=$(( 20000 + $$ % 20000 ))
  mkdir -p "$dir/state" "$dir/spool"
  # config_overrides: the node offers what this file says, not what the machine has, so the
  # sbatch script's --cpus-per-task=8 and --mem=16G fit on a small test machine.
  cat > "$dir/slurm.conf" <<CONF
ClusterName=faultlinetest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
NodeName=$host CPUs=32 RealMemory=65536 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$dir/slurm.conf
  if ! slurmctld -i > "$dir/start.log" 2>&1 || ! slurmd >> "$dir/start.log" 2>&1; then
    echo "SKIPPED: the private Slurm cluster did not start:"; cat "$dir/start.log"; stop_private_cluster; exit 77
  fi
  for _ in $(seq 1 30); do
    sinfo -h -o %t 2>/dev/null | grep -q idle && { echo "started a private one-node Slurm cluster ($dir)"; return 0; }
    sleep 1
  done
  echo "SKIPPED: the private Slurm cluster's node never became idle:"
  tail -n 20 "$dir/slurmctld.log" "$dir/slurmd.log" 2>/dev/null
  stop_private_cluster
  exit 77
}

stop_private_cluster() {
  [ -n "${SLURM_CONF:-}" ] || return 0
  local dir pids=() f
  dir=$(dirname "$SLURM_CONF")
  for f in "$dir/slurmd.pid" "$dir/slurmctld.pid"; do
    [ -f "$f" ] && pids+=("$(cat "$f")")
  done
  scontrol shutdown > /dev/null 2>&1 || true
  # Wait for the daemons to leave before their folder is removed; then make sure they have.
  for _ in $(seq 1 20); do
    local alive=0 p
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive -eq 1 ] || return 0
    sleep 0.5
  done
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
}
