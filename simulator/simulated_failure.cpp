#include "simulated_failure.h"

#include <algorithm>
#include <array>
#include <span>

namespace faultline {

namespace {

struct XidChoice {
    int xid;
    const char* meaning;
};

// The Xid codes each GPU cause shows up as in the kernel log.
std::span<const XidChoice> xidsFor(RootCause cause) {
    static constexpr XidChoice faulty[] = {{79, "GPU has fallen off the bus"}, {74, "NVLink error"},
                                           {62, "internal micro-controller halt"}};
    static constexpr XidChoice hbm[] = {{48, "double-bit ECC error"}, {63, "row remapping event"},
                                        {64, "row remapping failure"}, {94, "contained ECC error"},
                                        {95, "uncontained ECC error"}};
    static constexpr XidChoice sram[] = {{92, "high single-bit ECC error rate"}};
    static constexpr XidChoice gsp[] = {{119, "GSP RPC timeout"}, {120, "GSP error"}};
    switch (cause) {
        case RootCause::FaultyGpu: return faulty;
        case RootCause::GpuHbm3Memory: return hbm;
        case RootCause::GpuSramMemory: return sram;
        case RootCause::GpuSystemProcessor: return gsp;
        default: return {};
    }
}

const char* evidenceFor(RootCause cause) {
    switch (cause) {
        case RootCause::SoftwareBug: return "training process crashed (Python exception in the training loop)";
        case RootCause::Dependency: return "training process crashed in a dependency (storage client)";
        case RootCause::NcclWatchdogTimeout: return "NCCL watchdog timed out waiting for a collective";
        case RootCause::SilentDataCorruption: return "loss spike traced to silent data corruption";
        case RootCause::GpuThermalInterface: return "GPU thermal sensor reported over-temperature";
        case RootCause::HostMaintenance: return "host taken out for unplanned maintenance";
        case RootCause::Ssd: return "local SSD failed";
        case RootCause::PowerSupply: return "power supply failed";
        case RootCause::ServerChassis: return "server chassis fault";
        case RootCause::IoExpansionBoard: return "IO expansion board fault";
        case RootCause::Cpu: return "CPU machine-check exception";
        case RootCause::SystemMemory: return "uncorrectable system memory error";
        case RootCause::Nic: return "NIC port down";
        case RootCause::NetworkSwitchCable: return "link down";
        default: return "failure";
    }
}

// A random index below n among those that `wanted` accepts; -1 if none does.
template <typename Predicate>
std::int32_t pickWhere(std::size_t n, Predicate wanted, Random& random) {
    std::vector<std::int32_t> candidates;
    for (std::size_t i = 0; i < n; ++i)
        if (wanted(i)) candidates.push_back(static_cast<std::int32_t>(i));
    if (candidates.empty()) return -1;
    return candidates[static_cast<std::size_t>(random.index(static_cast<std::int64_t>(candidates.size())))];
}

std::int32_t pickSwitch(const Topology& t, SwitchTier tier, Random& random) {
    return pickWhere(t.switches.size(), [&](std::size_t i) { return t.switches[i].tier == tier; }, random);
}

// A cable from a host NIC to its rack switch.
std::int32_t pickHostLink(const Topology& t, Random& random) {
    return pickWhere(t.links.size(), [&](std::size_t i) { return t.links[i].lower.kind == NodeKind::Nic; }, random);
}

}  // namespace

std::vector<RootCause> drawLlama3CauseMix(int n, Random& random, std::optional<RootCause> without) {
    // Largest-remainder apportionment of n over the table's counts.
    struct Share {
        RootCause cause;
        int count;
        double remainder;
    };
    std::vector<Share> shares;
    int given = 0;
    const int total = kLlama3Unexpected - (without ? rootCauseInfo(*without).llama3Count : 0);
    for (RootCause cause : llama3Causes()) {
        if (cause == without) continue;
        const double exact = static_cast<double>(n) * rootCauseInfo(cause).llama3Count / total;
        shares.push_back({cause, static_cast<int>(exact), exact - static_cast<int>(exact)});
        given += shares.back().count;
    }
    std::vector<std::size_t> byRemainder(shares.size());
    for (std::size_t i = 0; i < byRemainder.size(); ++i) byRemainder[i] = i;
    std::stable_sort(byRemainder.begin(), byRemainder.end(),
                     [&](std::size_t a, std::size_t b) { return shares[a].remainder > shares[b].remainder; });
    for (std::size_t i = 0; given < n; ++i, ++given) ++shares[byRemainder[i % shares.size()]].count;

    std::vector<RootCause> out;
    out.reserve(static_cast<std::size_t>(n));
    for (const Share& s : shares) out.insert(out.end(), static_cast<std::size_t>(s.count), s.cause);
    for (std::size_t i = out.size(); i > 1; --i)  // Fisher-Yates
        std::swap(out[i - 1], out[static_cast<std::size_t>(random.index(static_cast<std::int64_t>(i)))]);
    return out;
}

bool isDetectedByWatchdog(RootCause cause) {
    return cause == RootCause::NcclWatchdogTimeout || cause == RootCause::NetworkSwitchCable ||
           cause == RootCause::SilentDataCorruption;
}

Failure drawFailure(const Topology& t, RootCause cause, Nanos time, Random& random) {
    Failure f;
    f.time = time;
    f.cause = cause;
    std::string where;
    switch (rootCauseInfo(cause).scope) {
        case CauseScope::Gpu: {
            const auto gpu = static_cast<std::int32_t>(random.index(static_cast<std::int64_t>(t.gpus.size())));
            f.component = {ComponentKind::Gpu, gpu};
            f.gpus = {gpu};
            where = t.gpuName(gpu) + " (" + t.gpus[static_cast<std::size_t>(gpu)].pciBusId + ")";
            break;
        }
        case CauseScope::Host: {
            const auto host = static_cast<std::int32_t>(random.index(static_cast<std::int64_t>(t.hosts.size())));
            f.component = {ComponentKind::Host, host};
            f.gpus = t.gpusOfHost(host);
            where = t.hosts[static_cast<std::size_t>(host)].name;
            break;
        }
        case CauseScope::Nic: {
            const auto nic = static_cast<std::int32_t>(random.index(static_cast<std::int64_t>(t.nics.size())));
            f.component = {ComponentKind::Nic, nic};
            if (std::int32_t gpu = t.gpuOfNic(nic); gpu >= 0) f.gpus = {gpu};
            where = t.nicName(nic);
            break;
        }
        case CauseScope::Network: {
            // Most network interruptions are a rack switch or a host cable; a cluster switch is rare.
            const double kind = random.uniform();
            const std::int32_t sw = kind < 0.6   ? pickSwitch(t, SwitchTier::Rack, random)
                                    : kind > 0.9 ? pickSwitch(t, SwitchTier::Cluster, random)
                                                 : -1;
            const std::int32_t link = sw < 0 ? pickHostLink(t, random) : -1;
            if (sw >= 0) {
                f.component = {ComponentKind::Switch, sw};
                f.gpus = t.gpusBelowSwitch(sw);
                where = t.switches[static_cast<std::size_t>(sw)].name;
            } else if (link >= 0) {
                f.component = {ComponentKind::Link, link};
                f.gpus = t.gpusBelowLink(link);
                where = t.linkName(link);
            }
            break;
        }
        case CauseScope::Software:
            break;
    }
    const auto xids = xidsFor(cause);
    if (!xids.empty()) {
        const XidChoice& x = xids[static_cast<std::size_t>(random.index(static_cast<std::int64_t>(xids.size())))];
        f.xid = x.xid;
        f.detail = "Xid " + std::to_string(x.xid) + " on " + where + ": " + x.meaning;
    } else {
        f.detail = std::string(evidenceFor(cause)) + (where.empty() ? "" : " on " + where);
    }
    return f;
}

}  // namespace faultline
