#pragma once
// What a PyTorch NCCL Flight Recorder dump holds, as plain values: the last collectives each
// process group enqueued on one rank, and where each group's counters stood.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace faultline {

struct FlightRecorderEntry {
    std::int64_t recordId = 0;
    std::string processGroup;      // the group's name, as pg_config keys it ("74")
    std::string processGroupDesc;  // "EXPERT_MODEL_PARALLEL_GROUP"
    std::int64_t pgId = -1;        // the rank-local index pg_status is keyed by
    std::int64_t collectiveSeqId = 0;
    std::int64_t p2pSeqId = 0;
    bool isP2P = false;
    std::string profilingName;     // "nccl:all_to_all"
    std::vector<std::vector<std::int64_t>> inputSizes;
    std::vector<std::vector<std::int64_t>> outputSizes;
    std::vector<std::string> inputDtypes;
    std::vector<std::string> outputDtypes;
    std::string state;             // "scheduled", "started" or "completed"
    bool retired = false;
    std::int64_t timeCreatedNs = 0;  // Unix epoch nanoseconds
    std::optional<std::int64_t> timeStartedNs;
    std::optional<std::int64_t> timeCompletedNs;
    std::int64_t timeoutMs = 0;
};

struct FlightRecorderGroup {
    std::string name;
    std::string desc;
    std::vector<std::int32_t> ranks;
};

struct FlightRecorderGroupStatus {
    std::int64_t lastEnqueued = -1;
    std::int64_t lastStarted = -1;
    std::int64_t lastCompleted = -1;
};

struct FlightRecorderDump {
    std::string path;
    std::int32_t rank = -1;
    std::string version;
    std::string ncclVersion;
    std::map<std::string, FlightRecorderGroup> groups;           // by name
    std::map<std::string, FlightRecorderGroupStatus> groupStatus;  // by rank-local pg id
    std::vector<FlightRecorderEntry> entries;
};

}  // namespace faultline
