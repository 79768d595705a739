#!/usr/bin/env bash
# Submits packaging/slurm/faultline-import.sbatch as a real Slurm job array (3 shards of real
# Kineto traces) and checks that the merged run gives the stragglers a single import gives.
# Where no Slurm cluster answers, it starts a private one-node cluster (tests/slurm/
# private_cluster.sh); where it cannot, it is skipped (exit 77) with the reason.
#   slurm_array_test.sh FAULTLINE_CLI SBATCH_SCRIPT REALDATA_DIR
set -euo pipefail
cli=$1 script=$2 realdata=$3

command -v sbatch > /dev/null || { echo "SKIPPED: no Slurm client here (sbatch not installed)"; exit 77; }
[ -d "$realdata/kineto" ] || { echo "SKIPPED: real-data set not found at $realdata"; exit 77; }

work=$(mktemp -d)
source "$(dirname "$0")/private_cluster.sh"
trap 'stop_private_cluster; rm -rf "$work"' EXIT
if sinfo -h > /dev/null 2>&1; then
  echo "submitting to the Slurm cluster that answers here"
else
  start_private_cluster "$work"
fi
mkdir -p "$work/traces"
cp "$realdata"/kineto/HolisticTraceAnalysis/tests/data/trace_filter/* "$realdata"/kineto/HolisticTraceAnalysis/tests/data/nccl_parser_config/* "$work/traces/"

# Two real trace sets a year apart: one run only because we say so (--allow-disjoint, for the merge).
FAULTLINE_CLI=$cli sbatch --wait --array=1-3 --chdir="$work" "$script" "$work/traces" "$work/out" --allow-disjoint > /dev/null
# The merge job runs after the array: wait for its run file, or for it to leave the queue.
for _ in $(seq 1 120); do
  [ -f "$work/out/run.faultline" ] && break
  [ -s "$work/out/merge-job-id" ] && [ -z "$(squeue -h -j "$(cat "$work/out/merge-job-id")" 2>/dev/null)" ] && sleep 1 && break
  sleep 1
done
[ -f "$work/out/run.faultline" ] || { echo "FAILED: the merge job wrote no run file"; cat "$work"/faultline-merge-*.out 2>/dev/null; exit 1; }

"$cli" import --quiet --allow-disjoint "$work/traces" -o "$work/single.faultline"
if ! diff <("$cli" stragglers "$work/single.faultline" --json) <("$cli" stragglers "$work/out/run.faultline" --json); then
  echo "FAILED: the merged run differs from the single import"
  exit 1
fi
echo "the Slurm array's merged run equals the single import"
