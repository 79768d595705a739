#pragma once
// Shared fixtures: simulated runs (made once per test process) and scratch folders.
#include "model/run.h"

#include <filesystem>
#include <memory>
#include <string>

namespace faultline::test {

// The `tiny` preset, seed 7: 256 GPUs over 2 days with a dozen interruptions.
const Run& tinyRun();

// The `tiny` preset, seed 11, with dense stragglers and a profiler trace of all 256 ranks
// over 400 steps from 6 h in.
const Run& tracedTinyRun();
// The same, held as the views hold a run (shared; never freed).
std::shared_ptr<const Run> tracedRun();

// A small fleet of three clusters in two buildings (RoCE 1,024 GPUs with the 512-GPU
// pre-training job, InfiniBand 1,024, RoCE 512) over 2 days with jobs of 8 to 256 GPUs and
// failures at the `tiny` preset's rate: the fleet-350k preset in miniature.
const Run& smallFleetRun();

// The `tiny` preset, seed 4, one of whose incidents is a failed rack switch (rtsw-r0001).
const Run& rackSwitchFailureRun();
// That run's failure of a rack switch.
const Failure& rackSwitchFailure(const Run& run);

// Two small runs made by hand, every figure of their comparison worked out in the tests:
// A, 10 hours on 16 GPUs: one failure at 2 h (down 7 min, 6 min of work lost), three 10 s
// saves, four steps of 1, 2, 3 and 4 s. B, 10 hours on 32 GPUs: two failures (2 h, 6 h),
// each down 6 min with 10 min lost, no saves, steps of 2, 2, 2 and 10 s.
Run comparisonRunA();
Run comparisonRunB();
// 4 hours on 16 GPUs, no steps, one failure at 2 h (detected in 1 min, restarted 4 min later,
// reloaded in 2 min) and one 10 s save: the what-if replays' run.
Run oneFailureRun();
// The evidence brought after an incident, minutes long: a job's console log of 50 one-second
// steps ending in an uncorrectable ECC error on GPU 12 (16 GPUs), and Flight Recorder dumps of
// a hung job, 18 ms from first to last record, rank 10 never joining (GPU 10 of 16).
Run oneMinuteCrash();
Run eighteenMillisecondHang();
// A console log of one line that places anything: a CUDA error on GPU 3 whose time the import
// inferred, at 2024-06-01 12:00:03 UTC; the evidence spans no time at all.
Run oneInstantCrash();
// A faulty GPU taking only itself out of the job at `time`.
Failure faultyGpuFailure(std::int32_t gpu, Nanos time);

// A command line run as a user runs it: its exit status and what it printed.
struct CommandResult {
    int status;
    std::string output;
};
// `withStderr` folds standard error into the output; otherwise it is dropped.
CommandResult runCommand(const std::string& command, bool withStderr = true);

// A checksum of a file's bytes (FNV-1a 64, hex) and its modification time: evidence that a
// file was left exactly as it was.
std::string fileChecksum(const std::string& path);

// A folder of its own for one test, removed when the object goes.
class ScratchDir {
public:
    ScratchDir();
    ~ScratchDir();
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    std::string file(const std::string& name) const { return (m_path / name).string(); }
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

}  // namespace faultline::test
