#include "cluster_log_lines.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>

namespace faultline {

namespace {

struct Parts {
    std::tm tm{};
    std::int64_t frac = 0;  // nanoseconds
};

Parts split(std::int64_t epochNs) {
    std::int64_t secs = epochNs / kSecond;
    Parts p;
    p.frac = epochNs % kSecond;
    if (p.frac < 0) {
        p.frac += kSecond;
        --secs;
    }
    const auto t = static_cast<std::time_t>(secs);
    gmtime_r(&t, &p.tm);
    return p;
}

// A GPU's bus id as the driver prints it in an Xid: no function, "0000:18:00".
std::string xidBusId(const Topology& t, std::int32_t gpu) {
    std::string id = t.gpus[static_cast<std::size_t>(gpu)].pciBusId;
    if (const std::size_t dot = id.rfind('.'); dot != std::string::npos) id.resize(dot);
    return id;
}

// The ConnectX adapters of an HGX host sit on their own bus ids, one beside each GPU.
std::string nicBusId(std::int32_t nicIndex) {
    static constexpr const char* kIds[] = {"0000:0c:00.0", "0000:2b:00.0", "0000:3c:00.0", "0000:4d:00.0",
                                           "0000:8c:00.0", "0000:ac:00.0", "0000:bc:00.0", "0000:dc:00.0"};
    return kIds[static_cast<std::size_t>(nicIndex) % std::size(kIds)];
}

std::int32_t hostOfGpu(const Topology& t, std::int32_t gpu) { return t.gpus[static_cast<std::size_t>(gpu)].host; }

}  // namespace

std::string sacctTime(std::int64_t epochNs) {
    const Parts p = split(epochNs);
    char buf[96];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d", p.tm.tm_year + 1900, p.tm.tm_mon + 1, p.tm.tm_mday, p.tm.tm_hour,
                  p.tm.tm_min, p.tm.tm_sec);
    return buf;
}

std::string logTime(std::int64_t epochNs) {
    const Parts p = split(epochNs);
    char buf[96];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d:%02d.%03lld", p.tm.tm_year + 1900, p.tm.tm_mon + 1, p.tm.tm_mday,
                  p.tm.tm_hour, p.tm.tm_min, p.tm.tm_sec, static_cast<long long>(p.frac / kMillisecond));
    return buf;
}

std::string dmesgTime(std::int64_t epochNs) {
    const Parts p = split(epochNs);
    char buf[112];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d,%06lld+00:00", p.tm.tm_year + 1900, p.tm.tm_mon + 1, p.tm.tm_mday,
                  p.tm.tm_hour, p.tm.tm_min, p.tm.tm_sec, static_cast<long long>(p.frac / kMicrosecond));
    return buf;
}

std::string slurmHostList(const std::vector<std::string>& hosts) {
    // The simulator's hosts are "<rack>-h<i>" with racks "r0000", "r0001", ...: when every
    // rack in a consecutive range has the same hosts, Slurm writes the grid.
    std::map<int, std::set<int>> grid;
    for (const std::string& h : hosts) {
        int rack = 0, host = 0, used = 0;
        if (std::sscanf(h.c_str(), "r%4d-h%d%n", &rack, &host, &used) != 2 || static_cast<std::size_t>(used) != h.size()) {
            grid.clear();
            break;
        }
        grid[rack].insert(host);
    }
    bool regular = !grid.empty() && grid.rbegin()->first - grid.begin()->first + 1 == static_cast<int>(grid.size());
    for (const auto& [rack, inRack] : grid)
        regular = regular && inRack == grid.begin()->second && *inRack.rbegin() + 1 == static_cast<int>(inRack.size());
    if (regular && grid.size() * grid.begin()->second.size() == hosts.size()) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "r[%04d-%04d]-h[0-%d]", grid.begin()->first, grid.rbegin()->first,
                      static_cast<int>(grid.begin()->second.size()) - 1);
        return buf;
    }
    std::string out;
    for (const std::string& h : hosts) out += (out.empty() ? "" : ",") + h;
    return out;
}

std::vector<std::int32_t> evidenceHosts(const Topology& t, const Failure& f) {
    std::set<std::int32_t> hosts;
    switch (f.component.kind) {
        case ComponentKind::Gpu: hosts.insert(hostOfGpu(t, f.component.index)); break;
        case ComponentKind::Host: hosts.insert(f.component.index); break;
        case ComponentKind::Nic: hosts.insert(t.nics[static_cast<std::size_t>(f.component.index)].host); break;
        case ComponentKind::Switch:
        case ComponentKind::Link:
            // Every host below a broken switch or cable sees its links go down; a cluster
            // switch takes out hundreds, and a few dozen of their logs tell the story.
            for (std::int32_t g : f.gpus) {
                hosts.insert(hostOfGpu(t, g));
                if (hosts.size() >= 32) break;
            }
            break;
        case ComponentKind::None: break;
    }
    return {hosts.begin(), hosts.end()};
}

std::string kernelEvidence(const Topology& t, const Failure& f, std::int32_t host) {
    if (f.xid > 0 && f.component.kind == ComponentKind::Gpu) {
        static const std::map<int, const char*> kText = {
            {48, "DBE (double bit error) ECC error"}, {63, "Row Remapper: New row marked for remapping, reset gpu to activate."},
            {64, "Row Remapper: Failed to remap row"}, {74, "NVLink: fatal error detected on link 3"},
            {79, "GPU has fallen off the bus."}, {92, "High single-bit ECC error rate"}, {94, "Contained: SM (0x1). RST: No, D-RST: No"},
            {95, "Uncontained: LTC TAG (0x2,0x0). RST: Yes, D-RST: No"}, {119, "Timeout after 6s of waiting for RPC response from GPU0 GSP!"},
            {120, "GSP task exception"}, {61, "Internal micro-controller breakpoint/warning"}, {62, "Internal micro-controller halt"}};
        const auto it = kText.find(f.xid);
        return "NVRM: Xid (PCI:" + xidBusId(t, f.component.index) + "): " + std::to_string(f.xid) + ", pid='<unknown>', name=<unknown>, " +
               (it == kText.end() ? "GPU error" : it->second);
    }
    const Host& h = t.hosts[static_cast<std::size_t>(host)];
    switch (f.cause) {
        case RootCause::GpuThermalInterface:
            if (f.component.kind != ComponentKind::Gpu) return {};
            return "NVRM: GPU at PCI:" + xidBusId(t, f.component.index) + ": GPU temperature 97 C exceeds the shutdown threshold, GPU halted";
        case RootCause::Nic: {
            const std::int32_t local = f.component.kind == ComponentKind::Nic ? t.nics[static_cast<std::size_t>(f.component.index)].index : 0;
            return "mlx5_core " + nicBusId(local) + ": poll_health:835:(pid 0): device's health compromised - reached miss count";
        }
        case RootCause::NetworkSwitchCable: {
            std::int32_t local = 0;
            for (std::int32_t g : f.gpus)
                if (hostOfGpu(t, g) == host) {
                    local = t.gpus[static_cast<std::size_t>(g)].index;
                    break;
                }
            return "mlx5_core " + nicBusId(local) + " ibp" + std::to_string(local) + "s0: Link down";
        }
        case RootCause::Ssd: return "nvme nvme1: I/O 412 QID 17 timeout, aborting";
        case RootCause::HostMaintenance: return "reboot: Restarting system";
        case RootCause::PowerSupply: return "ipmi_si IPI0001:00: SEL: Power Supply PSU2 failure detected, input lost";
        case RootCause::ServerChassis: return "ipmi_si IPI0001:00: SEL: Chassis fan FAN4 failure, cooling fault";
        case RootCause::IoExpansionBoard: return "pcieport 0000:80:01.0: AER: Uncorrected (Fatal) error received: 0000:81:00.0";
        case RootCause::Cpu: return "mce: [Hardware Error]: CPU 37: Machine Check: 0 Bank 5: be00000000800400";
        case RootCause::SystemMemory:
            return "EDAC MC1: 1 UE memory read error on CPU_SrcID#1_MC#0_Chan#2_DIMM#0 (channel:2 slot:0 page:0x4a2f1 offset:0x0 grain:32)";
        default: break;
    }
    (void)h;
    return {};
}

std::string trainingLogEvidence(const Topology& t, const Failure& f, std::int64_t step) {
    const std::int32_t gpu = f.gpus.empty() ? 0 : f.gpus.front();
    const std::string rank = "[rank" + std::to_string(gpu) + "]: ";
    switch (f.cause) {
        case RootCause::SoftwareBug: return rank + "Traceback (most recent call last):";
        case RootCause::Dependency:
            return rank + "botocore.exceptions.EndpointConnectionError: Could not connect to the endpoint URL: \"https://storage.internal/datasets/shard-00412.bin\"";
        case RootCause::SilentDataCorruption:
            return rank + "RuntimeError: Rank " + std::to_string(gpu) + ", node " + t.hosts[static_cast<std::size_t>(hostOfGpu(t, gpu))].name +
                   ", device " + std::to_string(t.gpus[static_cast<std::size_t>(gpu)].index) + ", iteration " + std::to_string(step) +
                   ": Unexpected result nan (message='found NaN in local grad norm for bucket #0 in backward pass before data-parallel communication collective')";
        default: return {};
    }
}

}  // namespace faultline
