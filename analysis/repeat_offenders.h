#pragma once
// Repeat offenders: the GPUs, hosts, racks and switches that failed more than once in a run,
// with their failures and the time between them. A part that fails again is the first thing
// an operator pulls from service, and a rack or switch behind several hosts' failures points
// at power, cooling or cabling rather than at the GPUs.
#include "model/run.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace faultline {

enum class OffenderLevel : std::uint8_t { Gpu, Host, Rack, Switch };
const char* offenderLevelName(OffenderLevel level);  // "GPU", "host", "rack", "switch"

struct RepeatOffender {
    OffenderLevel level = OffenderLevel::Gpu;
    std::int32_t index = 0;          // into the topology's GPUs, hosts, racks or switches
    std::string name;                // "r0012-h1-gpu3", "r0012"
    std::vector<std::int32_t> failures;  // indices into Run::failures, in time order
    Nanos shortestGap = 0;           // the least time between two of its failures
    Nanos meanGap = 0;
};

// Most failures first; at equal count, the shortest gap first (the part that fails fastest).
// A rack is listed only when its failures hit more than one host (else its host says it).
std::vector<RepeatOffender> findRepeatOffenders(const Run& run);

// Its failures' causes: "Faulty GPU x2, GPU HBM3 Memory".
std::string offenderCausesText(const RepeatOffender& offender, const Run& run);
// The part to show it by in the 3D view and the inspector: a rack by its first host.
ComponentRef offenderPart(const RepeatOffender& offender, const Topology& topology);

nlohmann::json repeatOffendersToJson(const std::vector<RepeatOffender>& offenders, const Run& run);
std::string repeatOffendersToText(const std::vector<RepeatOffender>& offenders, const Run& run);

}  // namespace faultline
