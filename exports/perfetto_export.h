#pragma once
// The run as a Chrome / Perfetto trace (the JSON trace event format), to open in
// ui.perfetto.dev or chrome://tracing beside the traces engineers already read there.
// `faultline-cli export RUN --perfetto OUT.json` and the app's File > Export Data write it.
//
// One process "Run" with one track (thread) per kind: job state, downtime by cause (with its
// phases nested), checkpoints, failures (instants), straggler episodes and steps; and, when
// the run has traced collectives, one process "Ranks" with one track per rank. Timestamps
// are microseconds since the run's start; the wall-clock start is in the trace's metadata.
#include "model/run.h"

#include <atomic>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace faultline {

// The track names of the "Run" process, in the order they are shown.
const std::vector<std::string>& perfettoRunTracks();

struct PerfettoStats {
    std::int64_t events = 0;
    int tracks = 0;
};

// Streams the trace (memory does not grow with the run). `cancel`, when given and set,
// stops it with ExportCancelled.
PerfettoStats writePerfettoTrace(const Run& run, std::ostream& out, const std::atomic<bool>* cancel = nullptr);
// Writes into a temporary file renamed over `path` when complete.
PerfettoStats writePerfettoTraceFile(const Run& run, const std::string& path, const std::atomic<bool>* cancel = nullptr);

struct ExportCancelled {};

}  // namespace faultline
