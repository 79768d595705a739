#pragma once
// GPU telemetry pulled from a Prometheus server for an import: each metric asked per batch of
// hosts and per slice of the span (no query over the server's points limit), read into the
// import's telemetry as a file's would be, and reported as a source of its own; the run keeps
// where it came from (model/pulled_sources.h).
#include "importers/importer.h"
#include "remote/prometheus_client.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace faultline {

// What is pulled when no --metrics are given: dcgm-exporter's default counters that the
// views and analyses read.
const std::vector<std::string>& defaultPrometheusMetrics();

struct PrometheusPullOptions {
    PrometheusServer server;
    EpochNs from = 0, to = 0;  // both 0: the span of the files read
    Nanos step = 0;            // 0: chooseStep
    // The hosts to pull; empty: those of --job (ImportOptions::jobIds) in the files read,
    // else the hosts of the topology read, else every host the server has.
    std::vector<std::string> hosts;
    std::vector<std::string> metrics;   // empty: defaultPrometheusMetrics()
    std::string hostLabel = "Hostname"; // the label queries select hosts by (dcgm-exporter's)
    std::size_t hostsPerQuery = 0;      // 0: as many as keep an answer near a million samples
    // Queries asked at once: the server answers one while the last answer is read here (and
    // Prometheus evaluates queries on several cores). Answers are read in query order, so the
    // run is the same whatever the number.
    std::size_t parallelQueries = 2;
    // Ask for the samples as stored (remote read, prometheus_remote_read.h) where no step is
    // given and the span is pulled at the finest step; query_range where the server does not
    // serve it.
    bool remoteRead = true;
    RetryPolicy retry;
    Sleeper sleeper;                    // empty: real waits
    HttpFn http;                        // empty: libcurl
    std::function<EpochNs()> clock;     // when the pull happened; empty: the system clock
};

struct PrometheusPull {
    ShardedFile source;                    // the telemetry and its report
    PulledSource pulled;                   // for the run file (ImportResult::pulls)
    std::vector<std::string> hostsWithoutSeries;  // asked for, and the server had none
    int retries = 0;
    bool remoteRead = false;               // every answer was the samples as stored (no step grid)
};

// Pulls options.hosts (empty: every host). Error naming the server (and the query) on failure,
// ImportCancelled on Cancel.
PrometheusPull pullPrometheus(const PrometheusPullOptions& options, const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

// The hosts a pull asks for when none are named: those of --job (ImportOptions::jobIds) in
// the files' sacct output, else the hosts of the topology read; empty (every host) without
// either. Error for a --job no file names the hosts of.
std::vector<std::string> hostsToPull(const std::vector<const ShardedFile*>& files, const ImportOptions& importOptions);

// `faultline-cli import --prometheus` and File > Import from Prometheus: reads the files (any
// number, none included), pulls what they leave to pull (the span and hosts as
// PrometheusPullOptions says), and builds one run of both.
ImportResult importWithPrometheus(const std::vector<std::string>& inputs, const ImportOptions& importOptions, PrometheusPullOptions pull,
                                  const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

// The system clock as Unix epoch nanoseconds: what a pull and a followed pull take as "now".
EpochNs systemNow();

}  // namespace faultline
