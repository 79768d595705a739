#pragma once
// Incidents: each interruption rebuilt as the chain a post-incident review walks through —
// first symptom, job stop, detection, restart, checkpoint load, training resumed — with its
// root cause, the hardware involved, the work lost and the time to recover.
#include "model/run.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace faultline {

struct IncidentEvent {
    Nanos time = 0;
    std::string what;
};

struct Incident {
    int id = 0;                  // 1-based, in time order
    bool planned = false;
    RootCause cause = RootCause::Unknown;
    // The cause in the words every list shows: the table's label, except that a network cause
    // names a switch or cable only where a topology or log names that hardware, else "Network
    // (which link is unknown)".
    std::string causeLabel;
    Nanos begin = 0;             // first symptom (or the planned stop)
    std::optional<Nanos> end;    // training resumed; empty when the run ended first or it is unknown
    int downtime = -1;           // index into Run::downtimes, -1 when only a symptom is known
    int failure = -1;            // index into Run::failures, -1 for planned maintenance
    std::int32_t xid = 0;
    std::string hardware;        // "r0412-h1-gpu3 (0000:5d:00.0)", "rtsw-r0412 (16 GPUs)", ...
    std::vector<std::int32_t> gpus;
    // Who, from the logs: the ranks that reported it and the ranks it points at (see Failure).
    std::vector<std::int32_t> reportingRanks;
    std::vector<std::int32_t> suspectRanks;
    std::string suspectReason;   // why the logs point at them (see suspectReasonOf); "" when unsaid
    Nanos detection = 0;         // symptom to detection
    Nanos restart = 0;           // detection to relaunched job
    Nanos reload = 0;            // checkpoint load
    Nanos lostWork = 0;
    // Whether the run's evidence supports its lost work (lostWorkEvidence: the downtime figures'
    // rule): where it does not, every list says "unknown" (JSON null, CSV empty), never "0 s".
    bool lostWorkKnown = true;
    Nanos timeToRecover = 0;     // symptom to training resumed
    // What it cost: every GPU of the job idle from the symptom to training resumed, plus the
    // work redone on all of them. Unknown (unset) when the run does not say when it resumed.
    std::optional<double> gpuHoursLost;
    std::optional<std::int64_t> stepAtFailure;
    std::optional<std::int64_t> resumedFromStep;
    std::vector<IncidentEvent> chain;
    std::string headline;        // one line for lists
};

std::vector<Incident> buildIncidents(const Run& run);
inline constexpr const char* kUnknownLink = "Network (which link is unknown)";
// An incident's cause label (see Incident::causeLabel) for `cause` and the failure behind it (null: none).
std::string incidentCauseLabel(RootCause cause, const Failure* failure);
std::string describeHardware(const Topology& topology, const Failure& failure);
// "0-6,8": ranks in order, runs collapsed; "" for none.
std::string rankRanges(std::vector<std::int32_t> ranks);
// "1,234", "3.6", "unknown": an incident's GPU-hours lost as every table shows them.
std::string gpuHoursText(const std::optional<double>& gpuHours);
// Why a failure's suspects are suspected, from the evidence the importer wrote: torchrun's root
// cause ("rank 3 on node7, exit code -6 (SIGABRT) at ...": its host and exit code), or a timed-out
// collective's silent and lagging ranks ("did not report"); "" when the evidence does not say.
std::string suspectReasonOf(const Failure& failure);
// "reported by ranks 0-4,6,7; suspect rank 5 (did not report)", or "" when the logs named no
// rank: the line the CLI's incident chain, the inspector and the report print.
std::string ranksOfFailureText(const std::vector<std::int32_t>& reporting, const std::vector<std::int32_t>& suspects,
                               const std::string& reason);

nlohmann::json incidentsToJson(const std::vector<Incident>& incidents, const RunInfo& info);
std::string incidentsToText(const std::vector<Incident>& incidents, const RunInfo& info);
std::string incidentChainToText(const Incident& incident, const RunInfo& info);

}  // namespace faultline
