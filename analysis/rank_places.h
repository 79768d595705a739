#pragma once
// When an incident struck and where a rank ran, in the words the incident view and the CLI give it: "rank 12 on worker-0
// GPU 3 (0000:5d:00.0)", or "rank 10 (host unknown)" where no file places it (model/topology.h:
// unplaced hosts), never a host the evidence does not name.
#include "analysis/incidents.h"
#include "model/run.h"

#include <string>

namespace faultline {

std::string rankPlaceText(const Run& run, std::int32_t rank);
// When it struck, with what the import assumed about that time: "2023-03-04 04:10:52 (year
// assumed)", "... (time inferred)" (model/time_notes.h).
std::string incidentWhenText(const Incident& incident, const Run& run);
// The incident's suspects, then the ranks that reported it, each with its place: "rank 10 (host
// unknown), rank 15 (host unknown)"; at most `limit` named, then "and N more". "" when it names none.
std::string incidentRankPlacesText(const Run& run, const Incident& incident, std::size_t limit = 8);

}  // namespace faultline
