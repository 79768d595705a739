#include "goodput.h"

#include "model/format.h"
#include "straggler_excess.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace faultline {

namespace {

// What a stretch of wall time was spent on. When stretches overlap, the lower value wins:
// a save cut short by a failure is lost work, lost work inside downtime is downtime.
enum class Use : int { Detection, Restart, Reload, Planned, LostWork, CheckpointSave, Training, Count };

struct Stretch {
    Nanos begin;
    Nanos end;
    Use use;
};

Nanos& field(Badput& b, Use use) {
    switch (use) {
        case Use::Detection: return b.detection;
        case Use::Restart: return b.restart;
        case Use::Reload: return b.reload;
        case Use::Planned: return b.planned;
        case Use::LostWork: return b.lostWork;
        case Use::CheckpointSave: return b.checkpointSave;
        default: return b.stragglerSlowdown;  // never reached for Training
    }
}

std::vector<Stretch> badputStretches(const Run& run) {
    std::vector<Stretch> out;
    for (const Downtime& d : run.downtimes) {
        if (d.planned) {
            out.push_back({d.begin, d.end, Use::Planned});
            continue;
        }
        out.push_back({d.begin, d.detected, Use::Detection});
        out.push_back({d.detected, d.restarted, Use::Restart});
        out.push_back({d.restarted, d.end, Use::Reload});
        out.push_back({d.begin - d.lostWork, d.begin, Use::LostWork});
    }
    for (const Checkpoint& c : run.checkpoints)
        if (c.kind == CheckpointKind::Save) out.push_back({c.begin, c.end, Use::CheckpointSave});
    return out;
}

// Paints [0, duration) with the highest-priority use at each instant and hands each
// uniform piece to `add`.
template <typename Add>
void paint(const std::vector<Stretch>& stretches, Nanos duration, Add add) {
    struct Edge {
        Nanos at;
        Use use;
        int delta;
    };
    std::vector<Edge> edges;
    edges.reserve(stretches.size() * 2);
    for (const Stretch& s : stretches) {
        const Nanos b = std::max<Nanos>(0, s.begin), e = std::min(duration, s.end);
        if (b >= e) continue;
        edges.push_back({b, s.use, +1});
        edges.push_back({e, s.use, -1});
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.at < b.at; });
    std::array<int, static_cast<std::size_t>(Use::Count)> active{};
    Nanos from = 0;
    auto current = [&active] {
        for (int u = 0; u < static_cast<int>(Use::Training); ++u)
            if (active[static_cast<std::size_t>(u)] > 0) return static_cast<Use>(u);
        return Use::Training;
    };
    for (const Edge& edge : edges) {
        if (edge.at > from) add(from, edge.at, current());
        from = edge.at;
        active[static_cast<std::size_t>(edge.use)] += edge.delta;
    }
    if (duration > from) add(from, duration, Use::Training);
}

// Hands the part of [begin, end) that falls in each day to `add(day, nanos)`.
template <typename Add>
void splitByDay(Nanos begin, Nanos end, Nanos period, Add add) {
    while (begin < end) {
        const auto day = static_cast<std::size_t>(begin / period);
        const Nanos dayEnd = std::min(end, static_cast<Nanos>(day + 1) * period);
        add(day, dayEnd - begin);
        begin = dayEnd;
    }
}

}  // namespace

double GoodputPeriod::ettr() const {
    const Nanos length = end - begin;
    return length > 0 ? static_cast<double>(productive + badput.stragglerSlowdown) / static_cast<double>(length) : 0.0;
}

double GoodputPeriod::goodput() const {
    const Nanos length = end - begin;
    return length > 0 ? static_cast<double>(productive) / static_cast<double>(length) : 0.0;
}

GoodputLedger computeGoodput(const Run& run, Nanos period) {
    if (period <= 0) period = kDay;
    GoodputLedger ledger;
    const Nanos duration = std::max<Nanos>(0, run.info.duration);
    const auto dayCount = static_cast<std::size_t>((duration + period - 1) / period);
    ledger.whole = {0, duration, 0, {}};
    for (std::size_t d = 0; d < dayCount; ++d)
        ledger.days.push_back({static_cast<Nanos>(d) * period, std::min(duration, static_cast<Nanos>(d + 1) * period), 0, {}});

    const std::vector<Stretch> stretches = badputStretches(run);
    paint(stretches, duration, [&](Nanos b, Nanos e, Use use) {
        if (use == Use::Training) {
            ledger.whole.productive += e - b;
            splitByDay(b, e, period, [&](std::size_t day, Nanos n) { ledger.days[day].productive += n; });
        } else {
            field(ledger.whole.badput, use) += e - b;
            splitByDay(b, e, period, [&](std::size_t day, Nanos n) { field(ledger.days[day].badput, use) += n; });
        }
    });
    // Straggler slowdown comes out of what was counted as productive.
    forEachStragglerExcess(run, [&](Nanos b, Nanos e, double share, const StragglerEpisode&) {
        splitByDay(std::max<Nanos>(0, b), std::min(duration, e), period, [&](std::size_t day, Nanos n) {
            const Nanos excess = std::min(static_cast<Nanos>(std::llround(static_cast<double>(n) * share)), ledger.days[day].productive);
            ledger.days[day].productive -= excess;
            ledger.days[day].badput.stragglerSlowdown += excess;
            ledger.whole.productive -= excess;
            ledger.whole.badput.stragglerSlowdown += excess;
        });
    });

    std::array<int, kRootCauseCount> counts{};
    auto count = [&](bool planned, RootCause cause) {
        if (planned) {
            ++ledger.planned;
            return;
        }
        ++ledger.unexpected;
        ++counts[static_cast<std::size_t>(cause)];
    };
    std::vector<char> accounted(run.failures.size(), 0);
    for (const Downtime& d : run.downtimes) {
        count(d.planned, d.cause);
        if (d.failure >= 0 && static_cast<std::size_t>(d.failure) < accounted.size()) accounted[static_cast<std::size_t>(d.failure)] = 1;
    }
    for (std::size_t i = 0; i < run.failures.size(); ++i) {
        if (accounted[i]) continue;
        const bool planned = run.failures[i].cause == RootCause::PlannedMaintenance;
        count(planned, run.failures[i].cause);
        if (!planned) ++ledger.withoutDowntime;
    }
    ledger.timeAccounted = !run.steps.empty() || !run.downtimes.empty();
    if (ledger.unexpected > 0) ledger.mtbf = duration / ledger.unexpected;
    for (int c = 0; c < kRootCauseCount; ++c)
        if (const int n = counts[static_cast<std::size_t>(c)]; n > 0) ledger.mtbfByCause.push_back({static_cast<RootCause>(c), n, duration / n});
    std::stable_sort(ledger.mtbfByCause.begin(), ledger.mtbfByCause.end(), [](const CauseMtbf& a, const CauseMtbf& b) { return a.count > b.count; });
    return ledger;
}

nlohmann::json goodputToJson(const GoodputLedger& ledger) {
    auto period = [](const GoodputPeriod& p) {
        const Badput& b = p.badput;
        return nlohmann::json{
            {"begin_s", toSeconds(p.begin)},
            {"end_s", toSeconds(p.end)},
            {"ettr", p.ettr()},
            {"goodput", p.goodput()},
            {"productive_s", toSeconds(p.productive)},
            {"badput_s",
             {{"detection", toSeconds(b.detection)},
              {"restart", toSeconds(b.restart)},
              {"reload", toSeconds(b.reload)},
              {"lost_work", toSeconds(b.lostWork)},
              {"checkpoint_save", toSeconds(b.checkpointSave)},
              {"straggler_slowdown", toSeconds(b.stragglerSlowdown)},
              {"planned", toSeconds(b.planned)}}},
        };
    };
    nlohmann::json days = nlohmann::json::array();
    for (const GoodputPeriod& d : ledger.days) days.push_back(period(d));
    nlohmann::json causes = nlohmann::json::array();
    for (const CauseMtbf& c : ledger.mtbfByCause)
        causes.push_back({{"cause", rootCauseKey(c.cause)}, {"count", c.count}, {"mtbf_s", toSeconds(c.mtbf)}});
    nlohmann::json out = period(ledger.whole);
    out["days"] = days;
    out["mtbf_s"] = toSeconds(ledger.mtbf);
    out["mtbf_by_cause"] = causes;
    return out;
}

std::string goodputToText(const GoodputLedger& ledger) {
    const GoodputPeriod& w = ledger.whole;
    const Nanos length = std::max<Nanos>(1, w.end - w.begin);
    std::string out = "Goodput ledger (parts add up to " + formatDuration(length) + ")\n";
    auto line = [&](const char* label, Nanos value) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "  %-28s %14s  %7s\n", label, formatDuration(value).c_str(),
                      formatPercent(static_cast<double>(value) / static_cast<double>(length), 2).c_str());
        out += buf;
    };
    line("Productive training", w.productive);
    line("Straggler slowdown", w.badput.stragglerSlowdown);
    line("Checkpoint save overhead", w.badput.checkpointSave);
    line("Lost work (redone)", w.badput.lostWork);
    line("Failure detection", w.badput.detection);
    line("Restart and re-initialisation", w.badput.restart);
    line("Checkpoint load", w.badput.reload);
    line("Planned maintenance", w.badput.planned);
    out += "  ETTR " + formatPercent(w.ettr()) + ", goodput " + formatPercent(w.goodput()) + "\n";
    return out;
}

}  // namespace faultline
