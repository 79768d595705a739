#!/usr/bin/env bash
# Builds the libFuzzer harnesses (the fuzz preset: clang, ASan + UBSan) and runs each for
# SECONDS, seeded from the real files in ../shared/realdata (read in place, never copied) and
# from what earlier runs found (build/fuzz/corpus). Prints each harness's executions and
# coverage; a crash leaves its input in build/fuzz/crashes/TARGET and fails the script.
#
#   fuzz/run-fuzzers.sh SECONDS [TARGET...]     (default: every harness)
#   FUZZ_SEED=1 fuzz/run-fuzzers.sh ...          (a fixed random seed, as CI uses, to replay a run)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:?usage: fuzz/run-fuzzers.sh SECONDS [TARGET...]}
shift
realdata=${FAULTLINE_REALDATA:-$(cd .. && pwd)/shared/realdata}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(kineto flight-recorder flight-recorder-json kernel-log training-log slurm-topology
                                     ibnetdiscover faultline-topology faultline-events sacct sacct-json run-file pickle
                                     prometheus-text prometheus-json nvidia-smi-csv gpu-dmon review-file run-file-telemetry)

cmake --preset fuzz > /dev/null
cmake --build --preset fuzz

# Seeds for each harness: folders of real files of its kind, and our own fixtures.
seeds() {
  local r=$realdata fx=tests/data/importers
  case $1 in
    kineto) echo "$r/kineto" ;;
    flight-recorder | pickle) echo "$r/flight_recorder" ;;
    flight-recorder-json) echo "$fx" ;;
    kernel-log) echo "$r/xid_kernel_logs $fx" ;;
    training-log) echo "$r/training_logs $fx" ;;
    slurm-topology | ibnetdiscover | faultline-topology) echo "$r/topology $fx" ;;
    faultline-events) echo "$fx" ;;
    sacct) echo "$r/slurm/gcm $r/slurm/slurm-jobinfo $fx" ;;
    sacct-json) echo "$r/slurm/SARC" ;;
    prometheus-text | prometheus-json | nvidia-smi-csv | gpu-dmon) echo "$r/telemetry $fx/telemetry" ;;
    run-file) echo "fuzz/seeds/run-file" ;;
    review-file) echo "fuzz/seeds/review-file" ;;
  esac
}
dictionary() {
  case $1 in
    kineto | sacct-json | faultline-topology | flight-recorder-json | faultline-events | prometheus-json) echo fuzz/dict/json.dict ;;
    kernel-log) echo fuzz/dict/kernel-log.dict ;;
    training-log) echo fuzz/dict/training-log.dict ;;
    sacct) echo fuzz/dict/sacct.dict ;;
    slurm-topology | ibnetdiscover) echo fuzz/dict/topology.dict ;;
  esac
}

failed=0
printf '%-22s %12s %10s %8s %s\n' harness executions exec/s cov result
for t in "${targets[@]}"; do
  corpus=build/fuzz/corpus/$t crashes=build/fuzz/crashes/$t
  mkdir -p "$corpus" "$crashes"
  dirs=()
  for d in $(seeds "$t"); do [ -d "$d" ] && dirs+=("$d"); done
  dict=$(dictionary "$t")
  log=build/fuzz/$t.log
  status=ok
  # The first corpus folder is the one libFuzzer writes; the seed folders are only read.
  if ! build/fuzz/bin/fuzz-"$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=1048576 \
       -artifact_prefix="$crashes/" ${FUZZ_SEED:+-seed=$FUZZ_SEED} ${dict:+-dict=$dict} "$corpus" "${dirs[@]}" > "$log" 2>&1; then
    status="CRASH: see $log and $crashes"
    failed=1
    # CI keeps only what is printed: the sanitizer's report and the input, to reproduce it.
    { echo "--- $t: end of $log"; grep -v -E '^#[0-9]+' "$log" | tail -n 60
      for input in "$crashes"/*; do
        [ -f "$input" ] || continue
        echo "--- $t: $input ($(stat -c %s "$input") bytes), base64 of its first 4 KiB:"
        head -c 4096 "$input" | base64
      done; } >&2
  fi
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  execs=$(sed -E 's/^#([0-9]+).*/\1/' <<< "$last")
  rate=$(grep -oE 'exec/s: [0-9]+' <<< "$last" | awk '{print $2}')
  cov=$(grep -oE 'cov: [0-9]+' <<< "$last" | awk '{print $2}')
  printf '%-22s %12s %10s %8s %s\n' "$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" "$status"
done
exit $failed
