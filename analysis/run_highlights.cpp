#include "run_highlights.h"

#include "hang_analysis.h"
#include "opening_instant.h"
#include "model/format.h"
#include "model/key_groups.h"
#include "model/time_notes.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace faultline {

std::vector<std::string> runHighlights(const Run& run, const RunSummary& summary, const StragglerReport& stragglers) {
    std::vector<std::string> out;
    // A hang is the answer a reviewer of the run came for: it leads, in the words every view
    // gives it.
    if (run.hang) {
        constexpr std::size_t kNamed = 3;
        const std::vector<HangOrigin>& origins = run.hang->origins;
        for (std::size_t i = 0; i < std::min(origins.size(), kNamed); ++i)
            out.push_back("Hung: " + hangOriginText(*run.hang, origins[i]));
        if (origins.size() > kNamed) out.push_back("Hung in " + std::to_string(origins.size() - kNamed) + " more places (faultline-cli hang lists them)");
    }
    // Short evidence of a crash leads with what failed: the incident the window opens on.
    if (!run.hang && !run.failures.empty() && (run.info.duration < kDay || run.steps.empty())) {
        const std::vector<Incident> incidents = buildIncidents(run);
        if (const std::optional<Nanos> first = openingInstant(run, incidents))
            for (const Incident& inc : incidents)
                if (inc.begin == *first && inc.failure >= 0) {
                    out.push_back("Failed: " + failedText(run, inc));
                    break;
                }
    }
    if (!run.collectives.empty()) {
        // Ranks counted with a flag each, not a set: a run holds tens of millions of records.
        std::vector<bool> traced;
        std::size_t ranks = 0;
        Nanos first = run.collectives.front().enter, last = first;
        for (const CollectiveRecord& c : run.collectives) {
            if (c.rank >= 0) {
                const auto r = static_cast<std::size_t>(c.rank);
                if (r >= traced.size()) traced.resize(r + 1);
                if (!traced[r]) traced[r] = true, ++ranks;
            }
            first = std::min(first, c.enter);
            last = std::max(last, c.exit);
        }
        out.push_back(formatCount(static_cast<std::int64_t>(ranks)) + " ranks traced over " + formatShortDuration(last - first) + ": " +
                      formatCount(static_cast<std::int64_t>(run.collectives.size())) + " collective calls in " +
                      std::to_string(run.processGroups.size()) + (run.processGroups.size() == 1 ? " process group, " : " process groups, ") +
                      formatCount(stragglers.instances) +
                      " matched across ranks");
        std::string late;
        int named = 0;
        for (const RankStragglerScore& r : stragglers.ranks) {
            if (r.late == 0 || named >= 3) continue;
            late += std::string(named++ ? ", " : "") + "rank " + std::to_string(r.rank) + " (" + lateRankText(r) + ")";
        }
        out.push_back(late.empty() ? "No rank arrived late at its collectives beyond the noise floor" : "Late ranks: " + late);
    }
    if (!run.rankSteps.empty()) {
        // Total step time and steps of each rank, in rank order.
        const KeyGroups byRank = groupByKey(run.rankSteps.size(), [&](std::size_t i) { return run.rankSteps[i].rank; });
        std::vector<std::pair<Nanos, int>> perRank(byRank.size());
        for (std::size_t i = 0; i < run.rankSteps.size(); ++i) {
            auto& [sum, n] = perRank[byRank.groupOf[i]];
            sum += run.rankSteps[i].duration;
            ++n;
        }
        Nanos fastest = 0, slowest = 0;
        std::int64_t slowRank = -1;
        for (std::size_t g = 0; g < byRank.size(); ++g) {
            const std::int64_t rank = byRank.keys[g];
            const std::pair<Nanos, int>& total = perRank[g];
            const Nanos mean = total.first / std::max(1, total.second);
            if (slowRank < 0 || mean > slowest) {
                slowest = mean;
                slowRank = rank;
            }
            if (fastest == 0 || mean < fastest) fastest = mean;
        }
        if (perRank.size() > 1 && fastest > 0)
            out.push_back("Mean step time " + formatShortDuration(fastest) + " to " + formatShortDuration(slowest) + " across " +
                          std::to_string(perRank.size()) + " ranks (rank " + std::to_string(slowRank) + " slowest, " +
                          formatPercent(static_cast<double>(slowest - fastest) / static_cast<double>(fastest), 0) + " slower than the fastest)");
    }
    const int interruptions = summary.planned + summary.unexpected;
    if (interruptions > 0)
        out.push_back(formatCounted(interruptions, "interruption", "interruptions") + " (" + std::to_string(summary.unexpected) + " unexpected" +
                      (summary.known(SummaryFigure::Mtbf) ? ", one every " + formatDuration(summary.mtbf) : std::string()) + ")");
    else if (!run.failures.empty())
        out.push_back(formatCounted(static_cast<std::int64_t>(run.failures.size()), "failure", "failures"));
    if (summary.ettrKnown && (interruptions > 0 || run.collectives.empty())) {
        const std::string caveat = ettrCaveat(summary);
        out.push_back("Effective training time " + formatPercent(summary.ettr) + " of " + formatDuration(summary.duration) +
                      (caveat.empty() ? "" : ", " + caveat));
    }
    if (out.empty()) out.push_back("Ran " + formatDuration(summary.duration) + " on " + formatCount(static_cast<std::int64_t>(summary.gpus)) + " GPUs");
    return out;
}

std::string highlightsToText(const std::vector<std::string>& lines) {
    std::string out = "Highlights:\n";
    for (const std::string& line : lines) out += "  " + line + "\n";
    return out;
}

}  // namespace faultline
