#include "telemetry_log_lines.h"

#include <cstdio>
#include <ctime>

namespace faultline {

namespace {

// FNV-1a, then splitmix64's finaliser so that neighbouring names give unrelated UUIDs.
std::uint64_t nameHash(const std::string& s, std::uint64_t h) {
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
}

// dcgm-exporter and nvidia-smi print the PCI domain with eight digits: 00000000:18:00.0.
std::string longBusId(const std::string& id) { return id.size() == 12 ? "0000" + id : id; }

struct Metric {
    const char* name;
    const char* type;
    const char* help;  // dcgm-exporter's default-counters.csv
};

constexpr Metric kDcgmMetrics[] = {
    {"DCGM_FI_DEV_SM_CLOCK", "gauge", "SM clock frequency (in MHz)."},
    {"DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C)."},
    {"DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W)."},
    {"DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "gauge", "Current clock throttle reasons."},
    {"DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "counter", "Total number of single-bit volatile ECC errors."},
};

}  // namespace

std::string simulatedGpuUuid(const Topology& topology, std::int32_t gpu) {
    const std::string name = topology.gpuName(gpu);
    const std::uint64_t a = nameHash(name, 0xcbf29ce484222325ULL), b = nameHash(name, 0x84222325cbf29ce4ULL);
    char buf[48];
    std::snprintf(buf, sizeof buf, "GPU-%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(a >> 32), static_cast<unsigned>(a >> 16 & 0xffff),
                  static_cast<unsigned>(a & 0xffff), static_cast<unsigned>(b >> 48), static_cast<unsigned long long>(b & 0xffffffffffffULL));
    return buf;
}

void appendDcgmScrape(std::string& out, const Topology& topology, std::int32_t host, std::int64_t epochNs,
                      const std::vector<GpuReading>& readings) {
    const Host& h = topology.hosts[static_cast<std::size_t>(host)];
    const std::string ms = std::to_string(epochNs / 1'000'000);
    char value[32];
    for (std::size_t m = 0; m < std::size(kDcgmMetrics); ++m) {
        out.append("# HELP ").append(kDcgmMetrics[m].name).append(" ").append(kDcgmMetrics[m].help).append("\n");
        out.append("# TYPE ").append(kDcgmMetrics[m].name).append(" ").append(kDcgmMetrics[m].type).append("\n");
        for (std::int32_t i = 0; i < h.gpuCount; ++i) {
            const std::int32_t gpu = h.firstGpu + i;
            const GpuReading& r = readings[static_cast<std::size_t>(i)];
            switch (m) {
                case 0: std::snprintf(value, sizeof value, "%.0f", r.smClock); break;
                case 1: std::snprintf(value, sizeof value, "%.0f", r.temperature); break;
                case 2: std::snprintf(value, sizeof value, "%.6f", r.power); break;
                case 3: std::snprintf(value, sizeof value, "%u", r.throttleReasons); break;
                default: std::snprintf(value, sizeof value, "%.0f", r.eccCorrected); break;
            }
            const std::string index = std::to_string(i);
            out.append(kDcgmMetrics[m].name).append("{gpu=\"").append(index).append("\",UUID=\"").append(simulatedGpuUuid(topology, gpu));
            out.append("\",pci_bus_id=\"").append(longBusId(topology.gpus[static_cast<std::size_t>(gpu)].pciBusId)).append("\",device=\"nvidia");
            out.append(index).append("\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"").append(h.name);
            out.append("\",DCGM_FI_DRIVER_VERSION=\"535.161.08\"} ").append(value).append(" ").append(ms).append("\n");
        }
    }
}

std::string nvidiaSmiQuery() {
    return "timestamp,index,pci.bus_id,uuid,power.draw,temperature.gpu,clocks.sm,clocks_throttle_reasons.active,ecc.errors.corrected.volatile.total";
}

// nvidia-smi names each column by its field's full name, with the unit it prints.
std::string nvidiaSmiHeader() {
    return "timestamp, index, pci.bus_id, uuid, power.draw [W], temperature.gpu, clocks.current.sm [MHz], clocks_throttle_reasons.active, "
           "ecc.errors.corrected.volatile.total\n";
}

void appendNvidiaSmiRows(std::string& out, const Topology& topology, std::int32_t host, std::int64_t epochNs,
                         const std::vector<GpuReading>& readings) {
    const Host& h = topology.hosts[static_cast<std::size_t>(host)];
    const std::time_t seconds = static_cast<std::time_t>(epochNs / 1'000'000'000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char stamp[96];
    std::snprintf(stamp, sizeof stamp, "%04d/%02d/%02d %02d:%02d:%02d.%03d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                  tm.tm_sec, static_cast<int>(epochNs / 1'000'000 % 1000));
    char row[512];
    for (std::int32_t i = 0; i < h.gpuCount; ++i) {
        const std::int32_t gpu = h.firstGpu + i;
        const GpuReading& r = readings[static_cast<std::size_t>(i)];
        std::snprintf(row, sizeof row, "%s, %d, %s, %s, %.2f W, %.0f, %.0f MHz, 0x%016x, %.0f\n", stamp, i,
                      longBusId(topology.gpus[static_cast<std::size_t>(gpu)].pciBusId).c_str(), simulatedGpuUuid(topology, gpu).c_str(), r.power,
                      r.temperature, r.smClock, r.throttleReasons, r.eccCorrected);
        out += row;
    }
}

}  // namespace faultline
