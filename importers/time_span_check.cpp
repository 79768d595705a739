#include "importers/time_span_check.h"

#include "model/format.h"

#include <algorithm>

namespace faultline {

std::vector<SpanGroup> timeSpanGroups(const std::vector<FileReport>& files) {
    std::vector<std::size_t> timed;
    for (std::size_t i = 0; i < files.size(); ++i)
        if (files[i].first > 0) timed.push_back(i);
    std::sort(timed.begin(), timed.end(), [&](std::size_t a, std::size_t b) { return files[a].first < files[b].first; });
    std::vector<SpanGroup> groups;
    for (std::size_t i : timed) {
        const FileReport& f = files[i];
        const EpochNs last = std::max(f.first, f.last);
        if (groups.empty() || f.first - groups.back().last > kPlausibleGapNs) {
            groups.push_back({f.first, last, {i}});
            continue;
        }
        groups.back().last = std::max(groups.back().last, last);
        groups.back().files.push_back(i);
    }
    return groups;
}

std::string disjointSpansText(const std::vector<SpanGroup>& groups, const std::vector<FileReport>& files, bool advice) {
    Nanos widest = 0;
    for (std::size_t g = 1; g < groups.size(); ++g) widest = std::max(widest, groups[g].first - groups[g - 1].last);
    std::string out = "the files cover " + std::to_string(groups.size()) + " stretches of time, " + formatDuration(widest) +
                      " apart, so they are not one run:\n";
    for (std::size_t g = 0; g < groups.size(); ++g) {
        out += "  " + formatEpochNs(groups[g].first) + " to " + formatEpochNs(groups[g].last) + ":\n";
        for (std::size_t i : groups[g].files)
            out += "    " + files[i].path + " (" + files[i].format + ") " + formatEpochNs(files[i].first) + " to " +
                   formatEpochNs(std::max(files[i].first, files[i].last)) + "\n";
    }
    if (advice) out += "import each stretch as a run of its own, or, if they are one run, pass --allow-disjoint";
    return out;
}

}  // namespace faultline
