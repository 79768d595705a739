#pragma once
// A real Prometheus server for the tests and the pull benchmark: Debian's `prometheus` binary
// (never its systemd service) on 127.0.0.1 at a free port, with a throwaway data folder whose
// history was backfilled by `promtool tsdb create-blocks-from openmetrics` from the telemetry
// the simulator's model reports (simulator/telemetry_model.h) for the `tiny` run, seed 7 (with
// more GPUs where a history asks for more than its 256).
#include "importers/events/epoch.h"
#include "model/time.h"
#include "simulator/telemetry_model.h"

#include <filesystem>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace faultline::test {

// Why no server can be started here ("prometheus is not installed ..."); nullopt when one can.
std::optional<std::string> prometheusMissing();

// What a backfilled history holds: the first `gpus` GPUs of the run (whole hosts, in order),
// every `interval` over `span` from the run's start, of power and GPU temperature (and, when
// `allMetrics`, SM clock, throttle reasons and ECC too) as dcgm-exporter names and labels them.
struct HistorySpec {
    std::string name;  // the cache folder's name: one history per spec
    std::int32_t gpus = 64;
    Nanos span = 2 * kDay;
    Nanos interval = 15 * kSecond;
    bool allMetrics = false;
};

struct History {
    std::filesystem::path blocks;  // the TSDB blocks promtool made: copied for each server
    const Run* run = nullptr;      // the simulated run, whose topology names the hosts
    std::int32_t gpus = 0;
    std::int64_t samples = 0;      // per series
    Nanos interval = 0;
    EpochNs first = 0, last = 0;   // the first and last sample's time
    std::vector<std::string> metrics;
    std::vector<std::string> hosts;  // the hosts of its GPUs
    EpochNs sampleTime(std::int64_t k) const { return first + k * interval; }
};

// The run and the model that gave a history's values, to check what a pull returns against.
const Run& historyRun(std::int32_t gpus);
const TelemetryModel& historyModel(std::int32_t gpus, Nanos interval);
// The value written for `metric` of GPU `gpu` at sample k, as the server returns it.
double historyValue(const History& h, const std::string& metric, std::int32_t gpu, std::int64_t k);

// Writes the history (OpenMetrics, then promtool) once per build tree, under a lock, so that
// tests run in parallel share one; later calls find it made. Error when promtool fails.
const History& backfilledHistory(const HistorySpec& spec);

class PrometheusProcess {
public:
    // Starts a server on a copy of `blocks`; `webConfig` (a --web.config.file's text, basic
    // auth) when not empty. Waits for /-/ready (a generous deadline); Error with its log
    // when it does not come up.
    explicit PrometheusProcess(const std::filesystem::path& blocks, const std::string& webConfig = "");
    ~PrometheusProcess();
    PrometheusProcess(const PrometheusProcess&) = delete;
    PrometheusProcess& operator=(const PrometheusProcess&) = delete;

    const std::string& url() const { return m_url; }
    // Stops the server (SIGTERM, waiting for it to exit); its port then refuses connections.
    void stop();
    // Starts the stopped server again on the same port and data, waiting for /-/ready.
    void restart();

private:
    void start();

    std::filesystem::path m_dir;
    std::string m_url;
    std::vector<std::string> m_argv;
    pid_t m_pid = -1;
};

// A bcrypt hash of `password` for --web.config.file, made by libcrypt (libxcrypt, which every
// Debian system's libc comes with) at the lowest cost, so that each request checks quickly.
std::string bcryptHash(const std::string& password);

}  // namespace faultline::test
