#pragma once
// Who hung the job: Flight Recorder dumps of every rank, matched by process group and
// collective sequence number. In each group, the ranks that never enqueued a collective the
// others did are missing from it; the ranks that enqueued it but never completed it are stuck
// in it, waiting for the missing ones. A missing rank that is itself stuck in another group's
// collective is only a victim: it waits there for someone else. A missing rank stuck nowhere
// is a culprit, and a job can hang in several groups at once, each with its own culprits.
// Only when every rank joined every collective do the ranks stuck in the earliest one count.
//
// Cost: O(E + M log M) time for E entries in all dumps and M group memberships (the sum of
// the groups' sizes): each dump's entries are bucketed by group once, and each (rank, group)
// reads only its own bucket. Memory beyond the dumps: 4 bytes an entry plus O(M).
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

HangReport analyzeHang(const std::vector<FlightRecorderDump>& dumps);

nlohmann::json hangToJson(const HangReport& report);
std::string hangToText(const HangReport& report);

}  // namespace faultline
