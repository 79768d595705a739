#include "repeat_offenders.h"

#include "model/format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace faultline {

const char* offenderLevelName(OffenderLevel level) {
    switch (level) {
        case OffenderLevel::Gpu: return "GPU";
        case OffenderLevel::Host: return "host";
        case OffenderLevel::Rack: return "rack";
        case OffenderLevel::Switch: return "switch";
    }
    return "";
}

std::vector<RepeatOffender> findRepeatOffenders(const Run& run) {
    const Topology& t = run.topology;
    std::map<std::pair<OffenderLevel, std::int32_t>, std::vector<std::int32_t>> byPart;
    std::map<std::int32_t, std::set<std::int32_t>> rackHosts;  // rack -> hosts its failures hit
    for (std::size_t i = 0; i < run.failures.size(); ++i) {
        const Failure& f = run.failures[i];
        const auto fi = static_cast<std::int32_t>(i);
        std::set<std::pair<OffenderLevel, std::int32_t>> parts;  // each part once per failure
        if (f.component.kind == ComponentKind::Switch) parts.insert({OffenderLevel::Switch, f.component.index});
        for (std::int32_t g : f.gpus) {
            if (g < 0 || static_cast<std::size_t>(g) >= t.gpus.size()) continue;
            const std::int32_t host = t.gpus[static_cast<std::size_t>(g)].host;
            const std::int32_t rack = t.hosts[static_cast<std::size_t>(host)].rack;
            // A failure that took a whole host or switch out names its GPUs: only a GPU's own failure counts for it.
            if (f.gpus.size() == 1) parts.insert({OffenderLevel::Gpu, g});
            parts.insert({OffenderLevel::Host, host});
            parts.insert({OffenderLevel::Rack, rack});
            rackHosts[rack].insert(host);
        }
        if (f.component.kind == ComponentKind::Host) parts.insert({OffenderLevel::Host, f.component.index});
        for (const auto& p : parts) byPart[p].push_back(fi);
    }
    std::vector<RepeatOffender> out;
    for (const auto& [part, failures] : byPart) {
        if (failures.size() < 2) continue;
        if (part.first == OffenderLevel::Rack && rackHosts[part.second].size() < 2) continue;
        RepeatOffender o;
        o.level = part.first;
        o.index = part.second;
        o.failures = failures;
        std::sort(o.failures.begin(), o.failures.end(), [&](std::int32_t a, std::int32_t b) {
            return run.failures[static_cast<std::size_t>(a)].time < run.failures[static_cast<std::size_t>(b)].time;
        });
        Nanos total = 0;
        o.shortestGap = INT64_MAX;
        for (std::size_t k = 1; k < o.failures.size(); ++k) {
            const Nanos gap = run.failures[static_cast<std::size_t>(o.failures[k])].time - run.failures[static_cast<std::size_t>(o.failures[k - 1])].time;
            total += gap;
            o.shortestGap = std::min(o.shortestGap, gap);
        }
        o.meanGap = total / static_cast<Nanos>(o.failures.size() - 1);
        const auto i = static_cast<std::size_t>(o.index);
        switch (o.level) {
            case OffenderLevel::Gpu: o.name = t.gpuName(o.index); break;
            case OffenderLevel::Host: o.name = t.hosts[i].name; break;
            case OffenderLevel::Rack: o.name = t.racks[i].name; break;
            case OffenderLevel::Switch: o.name = t.switches[i].name; break;
        }
        out.push_back(std::move(o));
    }
    std::stable_sort(out.begin(), out.end(), [](const RepeatOffender& a, const RepeatOffender& b) {
        if (a.failures.size() != b.failures.size()) return a.failures.size() > b.failures.size();
        return a.shortestGap < b.shortestGap;
    });
    return out;
}

nlohmann::json repeatOffendersToJson(const std::vector<RepeatOffender>& offenders, const Run& run) {
    nlohmann::json list = nlohmann::json::array();
    for (const RepeatOffender& o : offenders) {
        nlohmann::json failures = nlohmann::json::array();
        for (std::int32_t f : o.failures) {
            const Failure& x = run.failures[static_cast<std::size_t>(f)];
            failures.push_back({{"time_s", toSeconds(x.time)}, {"wall_time", formatWallTime(run.info.startEpochNs, x.time)},
                                {"cause", rootCauseKey(x.cause)}});
        }
        list.push_back({{"level", offenderLevelName(o.level)}, {"name", o.name}, {"failures", failures},
                        {"shortest_gap_s", toSeconds(o.shortestGap)}, {"mean_gap_s", toSeconds(o.meanGap)}});
    }
    return list;
}

std::string offenderCausesText(const RepeatOffender& o, const Run& run) {
    std::map<std::string, int> causes;
    for (std::int32_t f : o.failures) ++causes[std::string(rootCauseLabel(run.failures[static_cast<std::size_t>(f)].cause))];
    std::string text;
    for (const auto& [cause, n] : causes) text += (text.empty() ? "" : ", ") + cause + (n > 1 ? " x" + std::to_string(n) : "");
    return text;
}

ComponentRef offenderPart(const RepeatOffender& o, const Topology& topology) {
    switch (o.level) {
        case OffenderLevel::Gpu: return {ComponentKind::Gpu, o.index};
        case OffenderLevel::Host: return {ComponentKind::Host, o.index};
        case OffenderLevel::Switch: return {ComponentKind::Switch, o.index};
        case OffenderLevel::Rack:
            for (std::size_t h = 0; h < topology.hosts.size(); ++h)
                if (topology.hosts[h].rack == o.index) return {ComponentKind::Host, static_cast<std::int32_t>(h)};
            break;
    }
    return {};
}

std::string repeatOffendersToText(const std::vector<RepeatOffender>& offenders, const Run& run) {
    if (offenders.empty()) return "No GPU, host, rack or switch failed more than once in this run.\n";
    std::string out;
    char buf[512];
    std::snprintf(buf, sizeof buf, "%-7s  %-28s  %8s  %16s  %16s  %s\n", "level", "name", "failures", "shortest gap", "mean gap", "causes");
    out += buf;
    for (const RepeatOffender& o : offenders) {
        const std::string causeText = offenderCausesText(o, run);
        std::snprintf(buf, sizeof buf, "%-7s  %-28.28s  %8zu  %16s  %16s  %s\n", offenderLevelName(o.level), o.name.c_str(), o.failures.size(),
                      formatDuration(o.shortestGap).c_str(), formatDuration(o.meanGap).c_str(), causeText.c_str());
        out += buf;
    }
    return out;
}

}  // namespace faultline
