#include "root_cause.h"

#include <algorithm>
#include <string_view>

namespace faultline {

namespace {

constexpr std::array<RootCauseInfo, kRootCauseCount> kCauses = {{
    {RootCause::FaultyGpu, "faulty_gpu", "Faulty GPU", "GPU", CauseScope::Gpu, 148},
    {RootCause::GpuHbm3Memory, "gpu_hbm3_memory", "GPU HBM3 Memory", "GPU", CauseScope::Gpu, 72},
    {RootCause::SoftwareBug, "software_bug", "Software Bug", "Dependency", CauseScope::Software, 54},
    {RootCause::NetworkSwitchCable, "network_switch_cable", "Network Switch/Cable", "Network", CauseScope::Network, 35},
    {RootCause::HostMaintenance, "host_maintenance", "Host Maintenance", "Unplanned Maintenance", CauseScope::Host, 32},
    {RootCause::GpuSramMemory, "gpu_sram_memory", "GPU SRAM Memory", "GPU", CauseScope::Gpu, 19},
    {RootCause::GpuSystemProcessor, "gpu_system_processor", "GPU System Processor", "GPU", CauseScope::Gpu, 17},
    {RootCause::Nic, "nic", "NIC", "Host", CauseScope::Nic, 7},
    {RootCause::NcclWatchdogTimeout, "nccl_watchdog_timeout", "NCCL Watchdog Timeouts", "Unknown", CauseScope::Gpu, 7},
    {RootCause::SilentDataCorruption, "silent_data_corruption", "Silent Data Corruption", "GPU", CauseScope::Gpu, 6},
    {RootCause::GpuThermalInterface, "gpu_thermal_interface", "GPU Thermal Interface + Sensor", "GPU", CauseScope::Gpu, 6},
    {RootCause::Ssd, "ssd", "SSD", "Host", CauseScope::Host, 3},
    {RootCause::PowerSupply, "power_supply", "Power Supply", "Host", CauseScope::Host, 3},
    {RootCause::ServerChassis, "server_chassis", "Server Chassis", "Host", CauseScope::Host, 2},
    {RootCause::IoExpansionBoard, "io_expansion_board", "IO Expansion Board", "Host", CauseScope::Host, 2},
    {RootCause::Dependency, "dependency", "Dependency", "Dependency", CauseScope::Software, 2},
    {RootCause::Cpu, "cpu", "CPU", "Host", CauseScope::Host, 2},
    {RootCause::SystemMemory, "system_memory", "System Memory", "Host", CauseScope::Host, 2},
    {RootCause::Unknown, "unknown", "Unknown", "Unknown", CauseScope::Software, 0},
    {RootCause::PlannedMaintenance, "planned_maintenance", "Planned Maintenance", "Planned", CauseScope::Software, 0},
}};

}  // namespace

const RootCauseInfo& rootCauseInfo(RootCause cause) { return kCauses[static_cast<std::size_t>(cause)]; }
std::string_view rootCauseKey(RootCause cause) { return rootCauseInfo(cause).key; }
std::string_view rootCauseLabel(RootCause cause) { return rootCauseInfo(cause).label; }

std::optional<RootCause> rootCauseFromKey(std::string_view key) {
    auto it = std::find_if(kCauses.begin(), kCauses.end(), [key](const RootCauseInfo& i) { return i.key == key; });
    if (it == kCauses.end()) return std::nullopt;
    return it->cause;
}

const std::array<RootCause, 18>& llama3Causes() {
    static const std::array<RootCause, 18> causes = [] {
        std::array<RootCause, 18> out{};
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = kCauses[i].cause;
        return out;
    }();
    return causes;
}

int causeSpecificity(RootCause cause, std::int32_t xid) {
    int level = 0;
    switch (cause) {
        case RootCause::Unknown:
        case RootCause::PlannedMaintenance: level = 0; break;
        case RootCause::NcclWatchdogTimeout: level = 1; break;  // noticed the stop, names no part
        case RootCause::SoftwareBug:
        case RootCause::Dependency: level = 2; break;
        case RootCause::HostMaintenance: level = 3; break;  // the node went away: what broke on it is unsaid
        default: level = 4; break;                          // a part's own error
    }
    // The driver's Xid names the GPU's fault in its own words: above any line it caused.
    return xid != 0 ? 2 * 4 + 1 : 2 * level;
}

std::optional<RootCause> rootCauseForXid(int xid) {
    // From NVIDIA's Xid catalogue: which hardware each code implicates.
    switch (xid) {
        case 48:   // double-bit ECC error
        case 63:   // row remapping event
        case 64:   // row remapping failure
        case 94:   // contained ECC error
        case 95:   // uncontained ECC error
            return RootCause::GpuHbm3Memory;
        case 92:   // high single-bit ECC error rate (on-chip SRAM)
            return RootCause::GpuSramMemory;
        case 119:  // GSP RPC timeout
        case 120:  // GSP error
            return RootCause::GpuSystemProcessor;
        case 13:   // graphics engine exception
        case 31:   // GPU memory page fault
        case 43:   // GPU stopped processing
        case 45:   // preemptive cleanup after a previous error
            return RootCause::SoftwareBug;
        case 74:   // NVLink error
        case 79:   // GPU has fallen off the bus
        case 62:   // internal micro-controller halt
        case 61:   // internal micro-controller breakpoint
            return RootCause::FaultyGpu;
        default:
            return std::nullopt;
    }
}

std::optional<RootCause> rootCauseForSlurmState(std::string_view state, std::string_view reason) {
    auto startsWith = [state](std::string_view prefix) { return state.substr(0, prefix.size()) == prefix; };
    if (startsWith("NODE_FAIL")) return RootCause::HostMaintenance;  // the node was taken out under the job
    if (startsWith("BOOT_FAIL")) return RootCause::HostMaintenance;
    if (startsWith("OUT_OF_MEMORY")) return RootCause::SoftwareBug;  // the job outgrew its memory
    if (startsWith("FAILED")) {
        if (auto cause = rootCauseForLogLine(reason)) return cause;
        return RootCause::SoftwareBug;  // a non-zero exit: the training process died
    }
    if (startsWith("REQUEUED") || startsWith("PREEMPTED") || startsWith("CANCELLED") || startsWith("TIMEOUT"))
        return RootCause::PlannedMaintenance;  // stopped by the scheduler or an operator, not by a fault
    return std::nullopt;
}

std::optional<RootCause> rootCauseForLogLine(std::string_view line) {
    auto has = [line](std::string_view what) { return line.find(what) != std::string_view::npos; };
    // The most specific evidence first: a watchdog that ends "with exception: CUDA error:
    // uncorrectable ECC error encountered" reports the ECC error, which is the cause.
    if (has("uncorrectable ECC error") || has("ECC error encountered")) return RootCause::GpuHbm3Memory;
    if (has("GPU is lost") || has("fallen off the bus")) return RootCause::FaultyGpu;
    if (has("NVLink")) return RootCause::FaultyGpu;
    if (has("Watchdog caught collective operation timeout") || has("NCCL watchdog") || has("ProcessGroupNCCL's watchdog"))
        return RootCause::NcclWatchdogTimeout;
    // Megatron's NaN check on the gradients: a GPU computing wrong numbers without an error.
    if (has("found NaN in local grad norm") || has("Unexpected result nan")) return RootCause::SilentDataCorruption;
    // A service the job depends on (object storage, a key-value store) stopped answering.
    if (has("EndpointConnectionError") || has("Could not connect to the endpoint URL")) return RootCause::Dependency;
    if (has("Segmentation fault") || has("segfault") || has("Traceback (most recent call last)")) return RootCause::SoftwareBug;
    if (has("No space left on device") || has("I/O error")) return RootCause::Ssd;
    return std::nullopt;
}

std::optional<RootCause> rootCauseForKernelMessage(std::string_view m) {
    auto has = [m](std::string_view what) { return m.find(what) != std::string_view::npos; };
    if (has("mlx5_core")) {
        if (has("health compromised") || has("firmware fatal") || has("FW fatal")) return RootCause::Nic;
        if (has("Link down") || has("Cable error") || has("Cable unplugged")) return RootCause::NetworkSwitchCable;
        return std::nullopt;
    }
    if (has("EDAC") && (has(" UE ") || has("Uncorrected"))) return RootCause::SystemMemory;
    // A node going down under its jobs for unplanned maintenance (an operator's reboot).
    if (has("reboot: Restarting system") || has("reboot: Power down")) return RootCause::HostMaintenance;
    // A process crashing ("pt_main_thread[2536443]: segfault at ... in libnccl.so.2"): software.
    if (has(": segfault at ")) return RootCause::SoftwareBug;
    if (has("mce: [Hardware Error]") && has("Machine Check")) return RootCause::Cpu;
    if (has("nvme") && (has("I/O error") || has("controller is down") || has("timeout, aborting"))) return RootCause::Ssd;
    if (has("AER:") && has("Uncorrected (Fatal)")) return RootCause::IoExpansionBoard;
    if (has("Power Supply") && (has("failure") || has("lost"))) return RootCause::PowerSupply;
    if (has("Chassis") && (has("failure") || has("fault"))) return RootCause::ServerChassis;
    if (has("NVRM:") && has("GPU") && has("temperature") && has("threshold")) return RootCause::GpuThermalInterface;
    return std::nullopt;
}

}  // namespace faultline
