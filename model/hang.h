#pragma once
// What Flight Recorder dumps say about a hang, as the run keeps it (analysis/hang_analysis.h
// finds it): in which collectives the ranks diverged, who never joined, who waits.
#include <cstdint>
#include <string>
#include <vector>

namespace faultline {

struct HangFinding {
    std::string processGroup;      // the group's name ("74")
    std::string processGroupDesc;  // "EXPERT_MODEL_PARALLEL_GROUP"
    std::vector<std::int32_t> groupRanks;
    std::int64_t seq = 0;          // the collective where the ranks diverged
    std::string op;                // "nccl:all_to_all"
    std::string size;              // "4027x5120": the first input of the lowest rank that has it
    std::string dtype;             // "BFloat16"
    std::int64_t enqueuedNs = 0;   // when the first rank enqueued it (epoch ns)
    std::vector<std::int32_t> missing;  // never enqueued it (or left no record at all)
    std::vector<std::int32_t> stuck;    // enqueued it, never completed it
    std::vector<std::string> mismatches;  // ranks that disagree on op, dtype or size
};

// Where one independent hang began: the culprits' earliest divergent collective.
struct HangOrigin {
    std::size_t finding = 0;              // index into HangReport::findings
    std::vector<std::int32_t> culprits;   // ranks that never joined it and wait on nobody
    std::vector<std::int32_t> waiting;    // ranks stuck in it, waiting for the culprits
};

struct HangReport {
    int dumps = 0;
    std::vector<std::int32_t> ranksWithoutDump;
    std::vector<HangFinding> findings;    // missing ranks first, then earliest first
    std::vector<HangOrigin> origins;      // each independent hang, earliest first
    std::vector<std::int32_t> culprits;   // every origin's culprits, ascending
};

}  // namespace faultline
