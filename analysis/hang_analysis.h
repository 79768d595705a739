#pragma once
// Who hung the job: Flight Recorder dumps of every rank, matched by process group and
// collective sequence number. In each group, the ranks that never enqueued a collective the
// others did are missing from it; the ranks that enqueued it but never completed it are stuck
// in it. Of the groups that some rank never joined, the one whose divergent collective was
// enqueued first is where the hang began; later divergences are others waiting on the same
// ranks. Only when every rank joined does a collective they are all stuck in come first.
#include "model/flight_recorder.h"

#include <nlohmann/json_fwd.hpp>

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

struct HangReport {
    int dumps = 0;
    std::vector<std::int32_t> ranksWithoutDump;
    std::vector<HangFinding> findings;    // missing ranks first, then earliest first
    std::vector<std::int32_t> culprits;   // the first finding's missing ranks, else its stuck ranks
};

HangReport analyzeHang(const std::vector<FlightRecorderDump>& dumps);

nlohmann::json hangToJson(const HangReport& report);
std::string hangToText(const HangReport& report);

}  // namespace faultline
