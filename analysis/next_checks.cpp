#include "analysis/next_checks.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace faultline {

namespace {

constexpr const char* kXidDocs = "NVIDIA, Xid Errors (docs.nvidia.com/deploy/xid-errors)";
constexpr const char* kNcclDocs = "NCCL, ncclResult_t and troubleshooting (docs.nvidia.com/deeplearning/nccl)";
constexpr const char* kVerbsDocs = "rdma-core, ibv_poll_cq(3): ibv_wc_status";
constexpr const char* kTorchMemoryDocs = "PyTorch, CUDA semantics: memory management (pytorch.org/docs/stable/notes/cuda.html)";
constexpr const char* kMemoryErrorDocs = "NVIDIA, GPU Memory Error Management (docs.nvidia.com/deploy/a100-gpu-mem-error-mgmt)";
constexpr const char* kTorchNcclDocs = "PyTorch, torch.distributed: NCCL watchdog and TORCH_NCCL_* variables (pytorch.org/docs/stable/distributed.html)";

struct XidEntry {
    int xid;
    const char* meaning;
    const char* check;
};

// NVIDIA's Xid catalogue, the codes large training jobs meet, with its resolution buckets.
constexpr std::array<XidEntry, 15> kXids = {{
    {13, "Graphics engine exception: usually the application (an illegal instruction or address), sometimes the driver",
     "Restart the job; if the same GPU repeats it under other jobs, run DCGM diagnostics (dcgmi diag -r 3) on it"},
    {31, "GPU memory page fault: a kernel touched an address it does not own, almost always an application bug",
     "Look at the rank's traceback for an illegal memory access; restart the job; repeated on one GPU only, run DCGM diagnostics"},
    {43, "GPU stopped processing: the process's channel was reset after an earlier fault",
     "Find the earlier Xid on the same GPU (the cause); restart the job"},
    {45, "Preemptive cleanup after a previous error: the driver ended the process's work",
     "Find the Xid before it on the same GPU; this one is a consequence"},
    {48, "Double-bit ECC error in GPU memory (DBE): data was lost",
     "Reset the GPU (nvidia-smi -r) or reboot the node so the bad page is retired or the row remapped; check nvidia-smi -q -d ECC,ROW_REMAPPER; drain the GPU if it repeats"},
    {61, "Internal micro-controller breakpoint or warning", "Reset the GPU; if it repeats, drain the node and contact NVIDIA support with nvidia-bug-report.sh output"},
    {62, "Internal micro-controller halt", "Reset the GPU or reboot the node; if it repeats, drain it and contact NVIDIA support"},
    {63, "Row remapping event: a memory row was marked for remapping (or a page for retirement) after ECC errors",
     "Reset the GPU at the next chance so the remapping takes effect; check the remapped-row counts (nvidia-smi -q -d ROW_REMAPPER)"},
    {64, "Row remapping failure: the GPU ran out of spare rows or could not remap",
     "Drain the GPU and have it replaced (RMA); nvidia-smi -q -d ROW_REMAPPER shows the failure"},
    {74, "NVLink error: a link between GPUs saw a fatal or replayed error",
     "Check nvidia-smi nvlink -s / -e on the node; reset the GPUs or reboot; if it repeats on one link, drain the node for the baseboard or cable"},
    {79, "GPU has fallen off the bus: it stopped answering on PCIe",
     "Reboot the node; check dmesg for PCIe AER errors, power and temperature before it; if it repeats, drain the node and replace the GPU or riser"},
    {92, "High single-bit ECC error rate", "Watch the ECC counters (nvidia-smi -q -d ECC); reset the GPU at the next chance; drain it if the rate keeps rising"},
    {94, "Contained ECC error: an uncorrectable error was contained to the processes using that memory",
     "Restart the affected job; reset the GPU when it is free so the row is remapped"},
    {95, "Uncontained ECC error: an uncorrectable error could not be contained, every process on the GPU is affected",
     "Reset the GPU (or reboot the node) before using it again; drain it if it repeats"},
    {119, "GSP RPC timeout: the GPU System Processor stopped answering the driver",
     "Reset the GPU or reboot the node; update the driver and firmware if it repeats; collect nvidia-bug-report.sh for NVIDIA support"},
}};

struct PhraseEntry {
    std::string_view phrase;  // matched case-sensitively in the evidence
    const char* evidence;
    const char* meaning;
    const char* check;
    const char* source;
};

// NCCL's result codes, the IB completion statuses NCCL prints as "completion with error N",
// memory and watchdog lines: the phrase as the logs print it.
const std::array<PhraseEntry, 12> kPhrases = {{
    {"completion with error 12", "IB completion status 12 (IBV_WC_RETRY_EXC_ERR)",
     "Transport retry counter exceeded: the remote end never acknowledged, so a link, port or switch on the path dropped traffic or the peer died",
     "Check the ports of both hosts (ibstat, ibdiagnet, perfquery counters: SymbolErrors, LinkDowned) and the switch logs at that minute; "
     "if one port repeats, reseat or replace its cable",
     kVerbsDocs},
    {"completion with error 13", "IB completion status 13 (IBV_WC_RNR_RETRY_EXC_ERR)",
     "Receiver-not-ready retries exceeded: the peer process was not posting receives (hung, dead or very slow)",
     "Look at the peer rank's log for an earlier crash or hang; the network is probably not at fault", kVerbsDocs},
    {"completion with error 5", "IB completion status 5 (IBV_WC_WR_FLUSH_ERR)",
     "Work flushed: the queue pair had already failed from an earlier error; a consequence, not the cause",
     "Find the first completion error before it (often status 12) on any rank", kVerbsDocs},
    {"ncclRemoteError", "NCCL ncclRemoteError", "A remote peer failed or the network between them did (a peer process died, a link went down)",
     "Find the first rank to fail at that minute (its traceback, the hang view) and the hosts' port counters; NCCL_DEBUG=INFO says which peer", kNcclDocs},
    {"ncclSystemError", "NCCL ncclSystemError", "A system call or the network stack failed (socket, IB verbs, shared memory)",
     "Check the node's network interfaces and /dev/shm space; NCCL_DEBUG=INFO names the call that failed", kNcclDocs},
    {"ncclUnhandledCudaError", "NCCL ncclUnhandledCudaError", "A CUDA call inside NCCL failed: usually a GPU fault underneath",
     "Look for an Xid or a CUDA error on the same GPU at that minute; it is the cause", kNcclDocs},
    {"ncclInternalError", "NCCL ncclInternalError", "An internal NCCL error, often a version mismatch or a topology NCCL could not handle",
     "Check that every rank runs the same NCCL version; rerun with NCCL_DEBUG=INFO", kNcclDocs},
    {"ncclInvalidUsage", "NCCL ncclInvalidUsage", "The application called NCCL wrongly (mismatched collectives, a communicator used after abort)",
     "A software bug: compare the collectives each rank issued (Flight Recorder dumps show them)", kNcclDocs},
    {"out of memory", "CUDA out of memory", "The process asked for more GPU memory than was free: a software or configuration limit, not a hardware fault",
     "Read the amounts in the message; reduce micro-batch size or sequence length, enable activation checkpointing, or set "
     "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True when reserved-but-unallocated memory is large",
     kTorchMemoryDocs},
    {"OutOfMemoryError", "CUDA out of memory", "The process asked for more GPU memory than was free: a software or configuration limit, not a hardware fault",
     "Read the amounts in the message; reduce micro-batch size or sequence length, enable activation checkpointing, or set "
     "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True when reserved-but-unallocated memory is large",
     kTorchMemoryDocs},
    {"ECC error", "Uncorrectable ECC error (CUDA)", "The GPU's memory returned data it could not correct; the process using it was stopped",
     "Look for Xid 48, 63, 64, 94 or 95 on that GPU in the node's kernel log; reset the GPU so the row is remapped; check nvidia-smi -q -d "
     "ECC,ROW_REMAPPER; drain the GPU if it repeats",
     kMemoryErrorDocs},
    {"Watchdog caught collective operation timeout", "NCCL watchdog timeout",
     "A collective waited past its timeout: some rank never joined it (hung, dead, or stuck behind a slow peer); the watchdog only noticed",
     "Find the ranks that did not report or lag in their work counters (the suspects), and their hosts' kernel logs for an Xid or a crash at "
     "that minute; Flight Recorder dumps (TORCH_NCCL_TRACE_BUFFER_SIZE) show which collective each rank last entered",
     kTorchNcclDocs},
}};

std::string evidenceText(const Incident& incident, const Run& run) {
    std::string text;
    if (incident.failure >= 0 && static_cast<std::size_t>(incident.failure) < run.failures.size())
        text = run.failures[static_cast<std::size_t>(incident.failure)].detail;
    for (const IncidentEvent& e : incident.chain) text += "\n" + e.what;
    return text;
}

}  // namespace

std::vector<NextCheck> nextChecks(const Incident& incident, const Run& run) {
    std::vector<NextCheck> out;
    if (incident.planned) return out;
    auto add = [&out](NextCheck c) {
        if (std::none_of(out.begin(), out.end(), [&c](const NextCheck& o) { return o.evidence == c.evidence; })) out.push_back(std::move(c));
    };
    if (incident.xid)
        for (const XidEntry& x : kXids)
            if (x.xid == incident.xid) add({"Xid " + std::to_string(x.xid), x.meaning, x.check, kXidDocs});
    const std::string text = evidenceText(incident, run);
    for (const PhraseEntry& p : kPhrases)
        if (text.find(p.phrase) != std::string::npos) add({p.evidence, p.meaning, p.check, p.source});
    // By cause where no line matched: the watchdog's and the network's general advice.
    if (out.empty() && incident.cause == RootCause::NcclWatchdogTimeout) {
        const PhraseEntry& w = kPhrases.back();
        add({w.evidence, w.meaning, w.check, w.source});
    }
    if (out.empty() && incident.cause == RootCause::NetworkSwitchCable)
        add({"Network failure", "The job lost a network path; the evidence does not name which link",
             "Check the port counters (perfquery, ibdiagnet) and link-down events of the hosts involved at that minute, then the switches between them",
             kVerbsDocs});
    return out;
}

std::string nextChecksToText(const std::vector<NextCheck>& checks) {
    if (checks.empty()) return {};
    std::string out = "What to check next\n";
    for (const NextCheck& c : checks)
        out += "  " + c.evidence + ": " + c.meaning + "\n    check: " + c.check + "\n    source: " + c.source + "\n";
    return out;
}

}  // namespace faultline
