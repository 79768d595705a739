#pragma once
// What a PyTorch NCCL Flight Recorder dump holds, as plain values: the last collectives each
// process group enqueued on one rank, and where each group's counters stood.
//
// A job of 16,384 ranks leaves 16,384 dumps of a few thousand entries each, and the hang
// analysis needs all of them at once: an entry is 32 bytes (48 with the timings an import
// reads), its texts (group, op, tensor shapes) kept once per dump, and a group's rank list
// once per job (shared between dumps).
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace faultline {

enum class FlightRecorderState : std::uint8_t { Unknown, Scheduled, Started, Completed };

FlightRecorderState flightRecorderState(std::string_view text);  // "completed" -> Completed
const char* flightRecorderStateText(FlightRecorderState state);

// A process group as the dump's entries name it, with the rank-local id (pg_id) that
// pg_status keys its counters by.
struct FlightRecorderEntryGroup {
    std::string name;  // "74", as pg_config keys it
    std::string desc;  // "EXPERT_MODEL_PARALLEL_GROUP"
    std::int64_t pgId = -1;
};

// The tensors of one side of a collective: their sizes and dtypes.
struct FlightRecorderTensors {
    std::vector<std::vector<std::int64_t>> sizes;
    std::vector<std::string> dtypes;
    bool operator==(const FlightRecorderTensors&) const = default;
};

struct FlightRecorderEntry {
    // collective_seq_id; for a send or receive (isP2P), its own counter p2p_seq_id (the hang
    // analysis reads collectives alone, the run's collectives take a send's own number).
    std::int64_t collectiveSeqId = 0;
    std::int64_t timeCreatedNs = 0;  // Unix epoch nanoseconds
    std::uint32_t op = 0;            // index into FlightRecorderDump::ops ("nccl:all_to_all")
    std::uint32_t input = 0;         // index into FlightRecorderDump::tensors
    std::uint32_t output = 0;        // the same for the output side; read with the timings, else 0
    // Bit fields keep an entry at 32 bytes: a job's dumps hold tens of millions of them.
    std::uint32_t group : 27 = 0;    // index into FlightRecorderDump::entryGroups
    FlightRecorderState state : 4 = FlightRecorderState::Unknown;
    bool isP2P : 1 = false;
};
static_assert(sizeof(FlightRecorderEntry) == 32);
// A dump has fewer groups than this: each takes an entry of its own, and a dump is at most 512 MB.
inline constexpr std::uint32_t kMaxFlightRecorderEntryGroups = 1u << 27;

// What the run's collectives need of an entry beyond the hang analysis: read only when asked
// (an import), so that `hang` keeps 32 bytes an entry.
struct FlightRecorderTiming {
    std::int64_t startedNs = 0;    // when the watchdog saw it start; 0 when it did not
    std::int64_t completedNs = 0;  // when the watchdog saw it complete; 0 when it did not
    bool operator==(const FlightRecorderTiming&) const = default;
};

// An entry with its texts, to add to a dump (readers and tests build dumps this way).
struct FlightRecorderEntryText {
    std::string processGroup;
    std::string processGroupDesc;
    std::int64_t pgId = -1;
    std::int64_t collectiveSeqId = 0;
    bool isP2P = false;
    std::string profilingName;
    FlightRecorderTensors input;
    std::string state;
    std::int64_t timeCreatedNs = 0;
};

struct FlightRecorderGroup {
    std::string name;
    std::string desc;
    // The global ranks; one list shared by every dump that names the same group.
    std::shared_ptr<const std::vector<std::int32_t>> ranks;
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
    std::map<std::string, FlightRecorderGroup> groups;             // pg_config, by name
    std::map<std::string, FlightRecorderGroupStatus> groupStatus;  // by rank-local pg id
    std::vector<FlightRecorderEntryGroup> entryGroups;
    std::vector<std::string> ops;
    std::vector<FlightRecorderTensors> tensors;
    std::vector<FlightRecorderEntry> entries;
    std::vector<FlightRecorderTiming> timings;  // one an entry when read with timings, else empty

    void add(const FlightRecorderEntryText& e);
    const FlightRecorderEntryGroup& groupOf(const FlightRecorderEntry& e) const { return entryGroups[e.group]; }
    const std::string& opOf(const FlightRecorderEntry& e) const { return ops[e.op]; }
    const FlightRecorderTensors& inputOf(const FlightRecorderEntry& e) const { return tensors[e.input]; }

    // Finds a text already kept; the entries of a dump share a few dozen of them.
    std::uint32_t internGroup(std::string_view name, std::string_view desc, std::int64_t pgId);
    std::uint32_t internOp(std::string_view op);
    std::uint32_t internTensors(FlightRecorderTensors&& t);

private:
    std::unordered_multimap<std::uint64_t, std::uint32_t> m_tensorsByHash;
};

FlightRecorderGroup flightRecorderGroup(std::string name, std::string desc, std::vector<std::int32_t> ranks);

}  // namespace faultline
