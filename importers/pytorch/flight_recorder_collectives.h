#pragma once
// A Flight Recorder dump's entries as the run's collectives: one rule for the importer (which
// reports the entries it cannot use) and the run builder (which keeps the others).
#include "importers/events/imported_events.h"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace faultline {

struct FlightRecorderCollective {
    EpochNs enter = 0;       // when it started, else when it was enqueued
    EpochNs exit = 0;        // when it completed; `enter` for one that never did (the hang)
    std::int64_t bytes = 0;  // the larger side's tensors; 0 when unknown
    std::int64_t seq = -1;   // collective_seq_id, or p2p_seq_id for a send or receive
};

// Reads the dump's timings (FlightRecorderReading::timings); without them a collective is
// taken to start when enqueued and to end there.
class FlightRecorderCollectives {
public:
    explicit FlightRecorderCollectives(const FlightRecorderDump& dump);

    // The collective entry `index` stands for, or why it is skipped ("expected ..."): a text
    // that lives as long as the program, so that the tens of millions of calls copy no string.
    std::variant<FlightRecorderCollective, const char*> at(std::size_t index) const;
    // The op an entry names, as the run keeps it: "nccl:send 0->3" is "send"; empty if none.
    const std::string& opOf(const FlightRecorderEntry& e) const { return m_ops[e.op]; }

private:
    const FlightRecorderDump& m_dump;
    std::vector<std::string> m_ops;           // by the dump's op index
    std::vector<std::int64_t> m_tensorBytes;  // by the dump's tensors index
};

}  // namespace faultline
