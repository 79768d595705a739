#include "exports/report_content.h"

#include "model/format.h"
#include "views/fabric/job_colouring.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>

namespace faultline {

Nanos incidentCost(const Incident& incident) { return incident.timeToRecover + incident.lostWork; }

std::string incidentCostText(const Incident& incident) {
    const std::string down = formatDuration(incident.timeToRecover) + " down";
    if (!incident.lostWorkKnown) return "cost " + down + " at least (work redone not known)";
    if (incident.lostWork <= 0) return "cost " + down;
    return "cost " + formatDuration(incidentCost(incident)) + " (" + down + ", " + formatDuration(incident.lostWork) + " of work redone)";
}

std::vector<Incident> worstIncidents(const std::vector<Incident>& incidents, int count) {
    std::vector<Incident> out = incidents;
    std::stable_sort(out.begin(), out.end(), [](const Incident& a, const Incident& b) {
        // Planned maintenance is not an incident to review: unexpected ones first.
        if (a.planned != b.planned) return !a.planned;
        return incidentCost(a) > incidentCost(b);
    });
    if (count >= 0 && static_cast<std::size_t>(count) < out.size()) out.resize(static_cast<std::size_t>(count));
    return out;
}

ReportContent buildReportContent(std::shared_ptr<const Run> run, const std::map<Nanos, IncidentNote>& notes, int incidentCount,
                                 const StragglerReport* stragglers) {
    ReportContent c;
    c.summary = summarize(*run);
    c.power = clusterPower(*run);
    c.stragglers = stragglers ? *stragglers : analyzeStragglers(*run);
    c.incidents = buildIncidents(*run);
    for (const Incident& inc : worstIncidents(c.incidents, incidentCount)) {
        ReportIncident r{inc, std::nullopt};
        if (const auto it = notes.find(inc.begin); it != notes.end()) r.note = it->second;
        c.selected.push_back(std::move(r));
    }
    c.generatedEpochNs = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    c.run = std::move(run);
    return c;
}

std::vector<std::pair<std::string, std::string>> powerFacts(const ClusterPower& p) {
    char b[96];
    std::vector<std::pair<std::string, std::string>> f;
    f.emplace_back("Source", p.source);
    std::snprintf(b, sizeof b, "%.3f MW", p.peakMegawatts);
    f.emplace_back("Peak draw", b);
    std::snprintf(b, sizeof b, "%.3f MW", p.meanMegawatts);
    f.emplace_back("Mean draw", b);
    std::snprintf(b, sizeof b, "%.1f MWh", p.energyMegawattHours);
    f.emplace_back("Energy", b);
    return f;
}

std::string snapshotCaption(const ReportContent& c) {
    if (c.colourBy == kColourByJob) return "The pictures colour each GPU by the job holding it just after the first symptom: idle hardware pale.";
    if (!c.colourBy || *c.colourBy < 0 || static_cast<std::size_t>(*c.colourBy) >= c.run->telemetry.metrics.size())
        return "The pictures colour each GPU by its state just after the first symptom: the failed hardware red.";
    const MetricInfo info = metricInfo(c.run->telemetry.metrics[static_cast<std::size_t>(*c.colourBy)]);
    std::string label(info.label);
    if (!label.empty()) label[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(label[0])));
    return "The pictures colour each GPU by its " + label + (info.unit.empty() ? std::string() : " (" + std::string(info.unit) + ")") +
           " just after the first symptom, on the legend's scale.";
}

std::vector<std::string> lateRankHeader() { return {"Rank", "GPU", "Last at", "Others waited", "Its GPU while traced"}; }

std::vector<std::vector<std::string>> lateRankRows(const StragglerReport& stragglers, const Run& run, std::size_t limit) {
    std::vector<std::vector<std::string>> rows;
    for (const RankStragglerScore& r : stragglers.ranks) {
        if (r.late == 0 || rows.size() >= limit) break;  // most waiting caused first: the rest caused none
        rows.push_back({std::to_string(r.rank), r.gpu >= 0 ? run.topology.gpuName(r.gpu) : "not known",
                        std::to_string(r.late) + " of " + std::to_string(r.collectives), formatShortDuration(r.totalLateness),
                        r.telemetry.empty() ? "-" : r.telemetry});
    }
    return rows;
}

std::string incidentTitle(const Incident& incident) {
    return "Incident " + std::to_string(incident.id) + " · " + incident.causeLabel;
}

std::vector<std::pair<std::string, std::string>> incidentFacts(const Incident& inc, const RunInfo& info) {
    std::vector<std::pair<std::string, std::string>> f;
    f.emplace_back("First symptom", formatWallTime(info.startEpochNs, inc.begin) + " (" + formatDuration(inc.begin) + " into the run)");
    f.emplace_back("Hardware", inc.hardware.empty() ? "not known" : inc.hardware);
    if (inc.xid) f.emplace_back("Xid", std::to_string(inc.xid));
    f.emplace_back("Time to recover", inc.end ? formatDuration(inc.timeToRecover) : "not recovered within the run");
    f.emplace_back("Detection / restart / reload",
                   formatDuration(inc.detection) + " / " + formatDuration(inc.restart) + " / " + formatDuration(inc.reload));
    f.emplace_back("Work redone", inc.lostWorkKnown ? formatDuration(inc.lostWork) : std::string("unknown"));
    if (inc.stepAtFailure)
        f.emplace_back("Steps", "failed at " + formatCount(*inc.stepAtFailure) +
                                    (inc.resumedFromStep ? ", resumed from " + formatCount(*inc.resumedFromStep) : std::string()));
    f.emplace_back("GPUs taken out", formatCount(static_cast<std::int64_t>(inc.gpus.size())));
    // Who, as the logs tell it (the CLI's incident chain prints the same).
    if (!inc.reportingRanks.empty()) f.emplace_back("Reported by ranks", rankRanges(inc.reportingRanks));
    if (!inc.suspectRanks.empty())
        f.emplace_back("Suspect ranks", rankRanges(inc.suspectRanks) + (inc.suspectReason.empty() ? "" : " (" + inc.suspectReason + ")"));
    return f;
}

std::string sinceSymptom(Nanos offset) { return (offset < 0 ? "-" : "+") + formatDuration(offset < 0 ? -offset : offset); }

std::vector<std::pair<std::string, std::string>> headlineFigures(const RunSummary& s) {
    return {
        {"ETTR", figureOrUnknown(s, SummaryFigure::Ettr, formatPercent(s.ettr))},
        {"Goodput", figureOrUnknown(s, SummaryFigure::Goodput, formatPercent(s.goodput))},
        {"Interruptions", std::to_string(s.unexpected) + " unexpected, " + std::to_string(s.planned) + " planned"},
        {"MTBF", figureOrUnknown(s, SummaryFigure::Mtbf, formatDuration(s.mtbf))},
        {"Downtime", figureOrUnknown(s, SummaryFigure::DowntimeShares, formatDuration(s.downtime.total()))},
        {"Cluster", formatCount(static_cast<std::int64_t>(s.gpus)) + " GPUs · " + formatDuration(s.duration)},
    };
}

}  // namespace faultline
