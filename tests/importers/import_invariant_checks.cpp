#include "import_invariant_checks.h"

#include "analysis/fabric_outline.h"
#include "importers/import_invariants.h"
#include "importers/text/text_parse.h"

#include <algorithm>
#include <set>

namespace faultline::test {

namespace {

bool anyNote(const ImportSummary& s, const std::string& text) {
    for (const FileReport& f : s.files)
        for (const std::string& n : f.notes)
            if (n.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

std::string importInvariantViolations(const ImportResult& r, EpochNs newestWrite) {
    std::string out;
    auto bad = [&out](const std::string& what) { out += what + "\n"; };
    const EpochNs newest = newestWrite + kLocalTimeSlackNs;
    for (const Failure& f : r.run.failures) {
        const EpochNs t = r.run.info.startEpochNs + f.time;
        if (r.run.info.startEpochNs == 0) continue;  // a run of boot-relative times only
        if (t < kEarliestPlausibleTime) bad("a failure before 1990 (" + formatEpochNs(t) + "): " + f.detail);
        if (t > newest) bad("a failure after the files were written (" + formatEpochNs(t) + "): " + f.detail);
        // The rule is the log lines' (nameSilentRanks): a Flight Recorder hang's waiting and
        // culprit ranks come from the dumps' own analysis (hang_incident.cpp), which knows
        // which silent ranks were in its group.
        const bool fromDumps = f.detail.rfind("NCCL hang (Flight Recorder)", 0) == 0;
        if (f.cause == RootCause::NcclWatchdogTimeout && !f.ranks.empty() && !fromDumps) {
            const std::int32_t highest = *std::max_element(f.ranks.begin(), f.ranks.end());
            for (std::int32_t rank = 0; rank < highest; ++rank)
                if (std::find(f.ranks.begin(), f.ranks.end(), rank) == f.ranks.end() &&
                    std::find(f.suspectRanks.begin(), f.suspectRanks.end(), rank) == f.suspectRanks.end())
                    bad("silent rank " + std::to_string(rank) + " is no suspect: " + f.detail);
        }
    }
    for (const FileReport& f : r.summary.files) {
        if (f.first == 0) continue;
        if (f.first < kEarliestPlausibleTime) bad(f.path + ": its span starts before 1990");
        if (f.last > newest) bad(f.path + ": its span ends after the files were written");
    }
    if (r.run.topology.switches.empty() && fabricOutlineText(outlineFabric(r.run.topology)).rfind("unknown", 0) != 0)
        bad("a fabric named with no topology file: " + fabricOutlineText(outlineFabric(r.run.topology)));
    // A derived host holds the GPUs the files name, or a count the files state, or says it is assumed.
    // A GPU is named by its bus id or by the index its telemetry gives (a dmon or dcgmi table).
    std::set<std::int32_t> measured;
    for (const TelemetryLevel& level : r.run.telemetry.levels)
        for (const auto& s : level.series) measured.insert(s.gpu);
    for (const TelemetryRawSeries& s : r.run.telemetry.raw) measured.insert(s.gpu);  // the series its samples stand in for
    if (r.summary.derivedTopology && r.run.failures.empty() && r.run.jobs.empty() && r.run.rankToGpu.empty())
        for (const Host& h : r.run.topology.hosts) {
            bool named = false;
            for (std::int32_t g = h.firstGpu; g < h.firstGpu + h.gpuCount; ++g)
                named = named || !r.run.topology.gpus[static_cast<std::size_t>(g)].pciBusId.empty() || measured.count(g);
            if (h.gpuCount > 1 && !named && !anyNote(r.summary, "an assumed count")) bad(h.name + ": a GPU count neither named nor said to be assumed");
        }
    return out;
}

}  // namespace faultline::test
