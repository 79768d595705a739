#pragma once
// The root-cause categories of unexpected interruptions, in the order of the Llama 3 table
// (The Llama 3 Herd of Models, 2024, Table 5), plus planned maintenance and unknown.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace faultline {

enum class RootCause : std::uint8_t {
    FaultyGpu,
    GpuHbm3Memory,
    SoftwareBug,
    NetworkSwitchCable,
    HostMaintenance,
    GpuSramMemory,
    GpuSystemProcessor,
    Nic,
    NcclWatchdogTimeout,
    SilentDataCorruption,
    GpuThermalInterface,
    Ssd,
    PowerSupply,
    ServerChassis,
    IoExpansionBoard,
    Dependency,
    Cpu,
    SystemMemory,
    Unknown,
    PlannedMaintenance,
};

inline constexpr int kRootCauseCount = static_cast<int>(RootCause::PlannedMaintenance) + 1;

// Where a cause strikes: decides which part of the cluster a failure of that cause takes out.
enum class CauseScope : std::uint8_t { Gpu, Host, Nic, Network, Software };

struct RootCauseInfo {
    RootCause cause;
    std::string_view key;        // stable identifier in run files and JSON: "faulty_gpu"
    std::string_view label;      // as the Llama 3 table names it: "Faulty GPU"
    std::string_view component;  // the table's component column: "GPU", "Host", ...
    CauseScope scope;
    int llama3Count;             // interruptions of this cause among Llama 3's 419
};

const RootCauseInfo& rootCauseInfo(RootCause cause);
std::string_view rootCauseKey(RootCause cause);
std::string_view rootCauseLabel(RootCause cause);
std::optional<RootCause> rootCauseFromKey(std::string_view key);

// The unexpected-interruption causes in the Llama 3 table's order (no Unknown, no Planned).
const std::array<RootCause, 18>& llama3Causes();
inline constexpr int kLlama3Unexpected = 419;
inline constexpr int kLlama3Planned = 47;

// The cause taxonomy: raw evidence to root cause, one mapping for every importer and the
// simulator. docs/root-causes.md lists it.

// How much a cause says about what broke, for choosing among the records of one event: a
// part's own error (ECC, an Xid's GPU, a NIC, a disk) over a crash of the software it took
// down, over the NCCL watchdog that only noticed the job stopped, over nothing. Higher is more
// specific; a record with an Xid code adds one (the driver's own word for the fault).
int causeSpecificity(RootCause cause, std::int32_t xid = 0);

// The root cause an NVIDIA Xid code points to, where it points to one.
std::optional<RootCause> rootCauseForXid(int xid);
// What a Slurm job state (sacct State, e.g. "NODE_FAIL", "FAILED", "CANCELLED by 1234") and
// reason say about why a job ended; nullopt when it ended normally or the state says nothing.
std::optional<RootCause> rootCauseForSlurmState(std::string_view state, std::string_view reason = {});
// What a training-log line says about a failure (NCCL watchdog timeout, CUDA ECC error, ...).
std::optional<RootCause> rootCauseForLogLine(std::string_view line);
// What a kernel message other than an Xid says about a host's hardware: NIC health (mlx5),
// link or cable loss, NVMe / block I/O errors, machine checks, EDAC memory errors, PCIe
// fatal errors, power supply, chassis and GPU thermal events, a process's segfault. nullopt
// for anything else.
std::optional<RootCause> rootCauseForKernelMessage(std::string_view message);

}  // namespace faultline
