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
// reads only its own bucket; the dumps are bucketed on every core. Memory beyond the dumps:
// 4 bytes an entry plus O(M).
#include "model/flight_recorder.h"
#include "model/hang.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace faultline {

HangReport analyzeHang(const std::vector<FlightRecorderDump>& dumps);

// "rank 12 never joined all_to_all #20537 in process group 74 (EXPERT_MODEL_PARALLEL_GROUP);
// ranks 13-15 wait in it": one origin as every view words it.
std::string hangOriginText(const HangReport& hang, const HangOrigin& origin);

nlohmann::json hangToJson(const HangReport& report);
std::string hangToText(const HangReport& report);

}  // namespace faultline
