#pragma once
// What an incident report says, worked out once and shared by the PDF and the HTML writers:
// the run's figures, the incidents chosen for a section each, and the reviewer's notes.
#include "analysis/incidents.h"
#include "analysis/straggler_analysis.h"
#include "analysis/cluster_power.h"
#include "analysis/summary.h"
#include "model/incident_notes.h"
#include "model/run.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace faultline {

struct ReportIncident {
    Incident incident;
    std::optional<IncidentNote> note;
};

struct ReportContent {
    std::shared_ptr<const Run> run;
    RunSummary summary;
    ClusterPower power;                    // the cluster's draw in MW (analysis/cluster_power.h)
    StragglerReport stragglers;            // late ranks of the traced collectives
    std::optional<std::int32_t> colourBy;  // what its 3D pictures show (a metric, or kColourByJob); unset: GPU state
    std::vector<Incident> incidents;       // all of them, in time order
    std::vector<ReportIncident> selected;  // a section each, worst first
    std::int64_t generatedEpochNs = 0;
};

// What an incident cost the run: time to recover plus the work redone after it.
Nanos incidentCost(const Incident& incident);
// The same in words, for a slide that ranks incidents by it: "cost 1 h 23 min (1 h down,
// 23 min of work redone)"; "cost 1 h down at least (work redone not known)".
std::string incidentCostText(const Incident& incident);

// The `count` incidents that cost the most, worst first, unexpected ones before planned
// maintenance; all of them when count is larger.
std::vector<Incident> worstIncidents(const std::vector<Incident>& incidents, int count);

// `stragglers`: the run's straggler analysis where the caller has it already (a loaded run
// keeps one); worked out here otherwise.
ReportContent buildReportContent(std::shared_ptr<const Run> run, const std::map<Nanos, IncidentNote>& notes, int incidentCount,
                                 const StragglerReport* stragglers = nullptr);

// Report-ready text, the same in the PDF and the HTML.
std::string incidentTitle(const Incident& incident);                      // "Incident 12 · Faulty GPU"
std::vector<std::pair<std::string, std::string>> incidentFacts(const Incident& incident, const RunInfo& info);
// An incident with no review yet, in both reports' words.
inline constexpr const char* kNotReviewedYet = "Not reviewed yet: no notes, confirmed cause or tags in its review.";
std::string sinceSymptom(Nanos offset);  // "+4 min 10 s", "-4.9 s" (before it)
std::vector<std::pair<std::string, std::string>> headlineFigures(const RunSummary& summary);
// The "Cluster power" section: where the figures come from, peak, mean, energy (its table
// of swings is power_swings.h's).
std::vector<std::pair<std::string, std::string>> powerFacts(const ClusterPower& power);
// The late ranks of the traced collectives, most waiting caused first (at most `limit`):
// rank, GPU, collectives it was last at, the waiting it caused, its GPU's telemetry then.
// "The pictures colour each GPU by its power (W) at the first symptom", or by its state.
std::string snapshotCaption(const ReportContent& content);
std::vector<std::string> lateRankHeader();
std::vector<std::vector<std::string>> lateRankRows(const StragglerReport& stragglers, const Run& run, std::size_t limit = 10);

}  // namespace faultline
