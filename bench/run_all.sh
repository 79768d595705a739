#!/bin/sh
# Every figure of the performance table (docs/performance.md) in one go, each printed with
# the machine's load (/proc/loadavg, 1-minute) as it was measured: compare before and after
# on the same machine, at a similar load.
#
#   bench/run_all.sh [BIN_DIR] [WORK_DIR]
#     BIN_DIR   where faultline, faultline-cli and faultline_bench_* are (default build/bench/bin)
#     WORK_DIR  where the sample runs and generated inputs go (default a temporary folder,
#               removed afterwards); run files already there are reused
#   FAULTLINE_BENCH_SKIP="app fleet hang kineto"  leaves those figures out
#
# Builds nothing: `cmake --workflow --preset bench` first (or `cmake --preset bench &&
# cmake --build --preset bench --target faultline faultline-cli faultline_bench_flight_recorder
# faultline_bench_importers`). The app's figures need a display (xvfb-run is used if none).
set -u
BIN=${1:-build/bench/bin}
WORK=${2:-}
SKIP=${FAULTLINE_BENCH_SKIP:-}
if [ -z "$WORK" ]; then
    WORK=$(mktemp -d)
    trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK"
CLI="$BIN/faultline-cli"
APP="$BIN/faultline"
[ -x "$CLI" ] || { echo "run_all: $CLI not found (build the bench preset first)" >&2; exit 2; }

skipped() { case " $SKIP " in *" $1 "*) return 0 ;; esac; return 1; }
load() { cut -d' ' -f1 /proc/loadavg; }
# figure NAME VALUE: one line of the table, with the load at the time it was measured.
figure() { printf '%-58s %-34s load %s\n' "$1" "$2" "$(load)"; }

# /usr/bin/time -v's wall seconds and peak memory of one command, as "1.23 s, 45 MB".
timed() {
    /usr/bin/time -v "$@" >/dev/null 2>"$WORK/time.txt" || { echo "failed: $*" >&2; tail -3 "$WORK/time.txt" >&2; echo "failed"; return; }
    awk '/Elapsed \(wall clock\)/ { n = split($NF, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i] }
         /Maximum resident set size/ { kb = $NF }
         END { printf "%.2f s, %d MB\n", s, kb / 1024 }' "$WORK/time.txt"
}

# The app headless where no display is there.
app() {
    if [ -n "${DISPLAY:-}" ] || [ "${QT_QPA_PLATFORM:-}" = offscreen ]; then "$APP" "$@"
    else xvfb-run -a -s "-screen 0 1920x1200x24" "$APP" "$@"; fi
}
replay() { app --bench-replay "$@" 2>/dev/null | tr ' ' '\n' | grep "^$KEY=" | head -1 | cut -d= -f2; }

echo "Faultline performance figures ($(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), binaries $BIN)"
SAMPLE="$WORK/sample.faultline"
[ -f "$SAMPLE" ] || "$CLI" simulate --preset llama3-405b --seed 1 -o "$SAMPLE" >/dev/null 2>&1
"$CLI" summary "$SAMPLE" >/dev/null  # the file in the page cache, as when a user opens it again
figure "summary, 54-day 16,384-GPU sample run" "$(timed "$CLI" summary "$SAMPLE")"
if [ -x "$BIN/faultline_bench_open" ]; then
    # Where opening the sample run goes: the stored figures, the run, its finest telemetry level.
    "$BIN/faultline_bench_open" "$SAMPLE" | while IFS= read -r line; do
        figure "  open: ${line%%  *}" "$(echo "${line#*  }" | sed 's/^ *//')"
    done
fi

if [ -x "$APP" ] && ! skipped app; then
    KEY=open_ms
    figure "app: open the sample run to its first frame (open_ms)" "$(replay "$SAMPLE") ms"
    if ! skipped fleet; then
        FLEET="$WORK/fleet.faultline"
        [ -f "$FLEET" ] || "$CLI" simulate --preset fleet-350k --seed 1 -o "$FLEET" >/dev/null 2>&1
        figure "app: open the 352,256-GPU fleet to its first frame" "$(replay "$FLEET") ms"
        KEY=fps
        figure "fleet replay coloured by job" "$(FAULTLINE_BENCH_COLOUR_BY=job replay "$FLEET") fps"
    fi
    KEY=fps
    figure "whole-hall replay, 1600x1000, 24,576 GPUs" "$(replay --gpus 24576) fps"
    figure "whole-hall replay, 1600x1000, 100,000 GPUs" "$(replay --gpus 100000) fps"
fi

if [ -x "$BIN/faultline_bench_flight_recorder" ] && ! skipped hang; then
    DUMPS="$WORK/dumps"
    "$BIN/faultline_bench_flight_recorder" --ranks 1024 --entries 1000 --dir "$DUMPS" --keep --only hang >/dev/null 2>&1
    figure "hang, 1,024 ranks x 1,000 entries (one pickle per rank)" "$(timed "$CLI" hang "$DUMPS")"
    figure "import of the same folder" "$(timed "$CLI" import "$DUMPS" -o "$WORK/dumps.faultline" --force)"
fi

if [ -x "$BIN/faultline_bench_importers" ] && ! skipped kineto; then
    # MB/s as the benchmark prints it (in all, and per core of CPU time).
    figure "Kineto import, 8 ranks x 50 MB" "$("$BIN/faultline_bench_importers" --ranks 8 --mb 50 2>/dev/null | grep -i "MB/s" | tail -1 | sed 's/^ *//')"
fi
