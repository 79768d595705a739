#include "telemetry_logs.h"

#include "model/error.h"
#include "telemetry_log_lines.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace faultline {

namespace {

bool usesDcgm(std::int32_t host) { return host % 2 == 0; }

std::vector<GpuReading> hostReadings(const Topology& t, const TelemetryModel& model, std::int32_t host, std::int64_t k) {
    const Host& h = t.hosts[static_cast<std::size_t>(host)];
    std::vector<GpuReading> out(static_cast<std::size_t>(h.gpuCount));
    for (std::int32_t i = 0; i < h.gpuCount; ++i) out[static_cast<std::size_t>(i)] = model.reading(h.firstGpu + i, k);
    return out;
}

// The hosts written when not all fit: those whose GPUs throttle or count ECC errors (what
// the telemetry is there to show), then others spread evenly over the cluster.
std::vector<std::int32_t> chooseHosts(const Topology& t, const TelemetryModel& model, std::size_t wanted) {
    std::vector<bool> chosen(t.hosts.size(), false);
    std::size_t count = 0;
    for (std::int32_t g = 0; g < model.gpus() && count < wanted; ++g)
        if ((model.throttles(g) || model.countsEccErrors(g)) && !chosen[static_cast<std::size_t>(t.gpus[static_cast<std::size_t>(g)].host)]) {
            chosen[static_cast<std::size_t>(t.gpus[static_cast<std::size_t>(g)].host)] = true;
            ++count;
        }
    const std::size_t rest = wanted - count;
    for (std::size_t i = 0; i < rest; ++i) {
        std::size_t at = i * t.hosts.size() / rest;
        while (chosen[at]) at = (at + 1) % t.hosts.size();
        chosen[at] = true;
    }
    std::vector<std::int32_t> out;
    for (std::size_t h = 0; h < chosen.size(); ++h)
        if (chosen[h]) out.push_back(static_cast<std::int32_t>(h));
    return out;
}

class HostFile {
public:
    explicit HostFile(const std::string& path) : m_path(path), m_file(std::fopen(path.c_str(), "wb")) {
        if (!m_file) throw Error("cannot write " + path);
    }
    ~HostFile() {
        if (m_file) std::fclose(m_file);
    }
    HostFile(const HostFile&) = delete;
    HostFile& operator=(const HostFile&) = delete;

    std::string& buffer() { return m_buffer; }
    void flush() {
        if (std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file) != m_buffer.size()) throw Error("cannot write " + m_path + " (disk full?)");
        m_bytes += static_cast<std::int64_t>(m_buffer.size());
        m_buffer.clear();
    }
    std::int64_t close() {
        flush();
        const int rc = std::fclose(m_file);
        m_file = nullptr;
        if (rc != 0) throw Error("cannot write " + m_path + " (disk full?)");
        return m_bytes;
    }

private:
    std::string m_path;
    std::FILE* m_file;
    std::string m_buffer;
    std::int64_t m_bytes = 0;
};

}  // namespace

TelemetryLogSummary writeTelemetryLogs(const Run& run, const TelemetryModel& model, const std::string& dir, const TelemetryLogOptions& options) {
    TelemetryLogSummary summary;
    const Topology& t = run.topology;
    summary.allHosts = static_cast<int>(t.hosts.size());
    if (model.samples() == 0 || t.hosts.empty()) return summary;
    const Nanos interval = options.interval > 0 ? options.interval : model.interval();
    if (interval % model.interval() != 0)
        throw Error("the emitted telemetry's interval must be a multiple of the simulated one (" + std::to_string(model.interval() / kSecond) + " s)");
    const std::int64_t stride = interval / model.interval();
    const std::int64_t scrapes = (model.samples() - 1) / stride + 1;
    summary.interval = interval;

    // Size a host's file from one sample of each kind, to keep big runs within maxBytes.
    std::size_t wanted = t.hosts.size();
    if (options.hosts >= 0) {
        wanted = std::min<std::size_t>(wanted, static_cast<std::size_t>(options.hosts));
    } else {
        std::string probe;
        const auto readings = hostReadings(t, model, 0, 0);
        appendDcgmScrape(probe, t, 0, run.info.startEpochNs, readings);
        appendNvidiaSmiRows(probe, t, 0, run.info.startEpochNs, readings);
        const double perHost = static_cast<double>(probe.size()) / 2 * static_cast<double>(scrapes);
        wanted = std::min<std::size_t>(wanted, static_cast<std::size_t>(std::max(1.0, static_cast<double>(options.maxBytes) / perHost)));
    }

    const std::filesystem::path folder = std::filesystem::path(dir) / "telemetry";
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec) throw Error("cannot create " + folder.string() + ": " + ec.message());
    for (std::int32_t host : chooseHosts(t, model, wanted)) {
        const std::string& name = t.hosts[static_cast<std::size_t>(host)].name;
        HostFile file((folder / (name + (usesDcgm(host) ? ".prom" : ".csv"))).string());
        if (!usesDcgm(host)) file.buffer() = nvidiaSmiHeader();
        for (std::int64_t s = 0; s < scrapes; ++s) {
            const std::int64_t k = s * stride;
            const std::int64_t epoch = run.info.startEpochNs + model.time(k);
            const auto readings = hostReadings(t, model, host, k);
            if (usesDcgm(host)) appendDcgmScrape(file.buffer(), t, host, epoch, readings);
            else appendNvidiaSmiRows(file.buffer(), t, host, epoch, readings);
            if (file.buffer().size() > (8u << 20)) file.flush();
        }
        summary.bytes += file.close();
        ++summary.hosts;
    }
    return summary;
}

}  // namespace faultline
