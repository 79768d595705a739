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

// The hosts in the order they are written when not all fit: those whose GPUs count ECC
// errors or throttle (what the telemetry is there to show; one of each in turn), then the
// others spread over the cluster (van der Corput order: each next host halves a gap).
std::vector<std::int32_t> hostsByPriority(const Topology& t, const TelemetryModel& model) {
    std::vector<bool> taken(t.hosts.size(), false);
    std::vector<std::int32_t> out;
    auto take = [&](std::int32_t host) {
        if (!taken[static_cast<std::size_t>(host)]) {
            taken[static_cast<std::size_t>(host)] = true;
            out.push_back(host);
        }
    };
    std::vector<std::int32_t> ecc, throttling;
    for (std::int32_t g = 0; g < model.gpus(); ++g) {
        if (model.countsEccErrors(g)) ecc.push_back(t.gpus[static_cast<std::size_t>(g)].host);
        if (model.throttles(g)) throttling.push_back(t.gpus[static_cast<std::size_t>(g)].host);
    }
    for (std::size_t i = 0; i < std::max(ecc.size(), throttling.size()); ++i) {
        if (i < ecc.size()) take(ecc[i]);
        if (i < throttling.size()) take(throttling[i]);
    }
    std::uint32_t bits = 0;
    while ((std::size_t{1} << bits) < t.hosts.size()) ++bits;
    for (std::uint32_t i = 0; i < (1u << bits); ++i) {
        std::uint32_t reversed = 0;
        for (std::uint32_t b = 0; b < bits; ++b) reversed |= ((i >> b) & 1u) << (bits - 1 - b);
        // The lowest bit flipped on odd turns: dcgm-exporter and nvidia-smi hosts alternate.
        if (bits > 1) reversed ^= i & 1u;
        if (reversed < t.hosts.size()) take(static_cast<std::int32_t>(reversed));
    }
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
    std::string dcgmProbe, smiProbe;
    const auto probe = hostReadings(t, model, 0, 0);
    appendDcgmScrape(dcgmProbe, t, 0, run.info.startEpochNs, probe);
    appendNvidiaSmiRows(smiProbe, t, 0, run.info.startEpochNs, probe);
    std::vector<std::int32_t> hosts;
    double estimate = 0;
    for (std::int32_t host : hostsByPriority(t, model)) {
        const double size = static_cast<double>(usesDcgm(host) ? dcgmProbe.size() : smiProbe.size()) * static_cast<double>(scrapes);
        if (options.hosts >= 0 ? hosts.size() >= static_cast<std::size_t>(options.hosts) : estimate + size > static_cast<double>(options.maxBytes)) break;
        estimate += size;
        hosts.push_back(host);
    }
    std::sort(hosts.begin(), hosts.end());

    const std::filesystem::path folder = std::filesystem::path(dir) / "telemetry";
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec) throw Error("cannot create " + folder.string() + ": " + ec.message());
    for (std::int32_t host : hosts) {
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
