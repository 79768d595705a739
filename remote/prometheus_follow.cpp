#include "remote/prometheus_follow.h"

#include "model/format.h"
#include "remote/prometheus_query_plan.h"

#include <algorithm>
#include <chrono>
#include <set>

namespace faultline {

namespace {

EpochNs firstEvent(const std::vector<const ShardedFile*>& files) {
    EpochNs first = 0;
    for (const ShardedFile* f : files)
        if (f->report.first != 0 && (first == 0 || f->report.first < first)) first = f->report.first;
    return first;
}

// A pull's telemetry added to what the pulls before gave, sample by sample into the same
// series: appended whole, each pull would add a series of every GPU and metric again, and a
// day of pulls every few seconds would hold tens of thousands of each.
void addPulled(ImportedTelemetry& into, ImportedTelemetry&& more) {
    if (into.rawDropped() || more.rawDropped()) {
        into.append(std::move(more));
        return;
    }
    for (const ImportedSeries& s : more.series()) {
        const std::int32_t id = into.series(more.gpu(s.gpu), more.metric(s.metric));
        for (const auto& [time, value] : more.rawSamples(s)) into.add(id, time, value);
    }
}

std::int64_t distinctSeries(const ImportedTelemetry& t) {
    std::set<std::pair<std::int32_t, std::int32_t>> seen;
    for (const ImportedSeries& s : t.series()) seen.emplace(s.gpu, s.metric);
    return static_cast<std::int64_t>(seen.size());
}

}  // namespace

FollowedPull::FollowedPull(PrometheusPullOptions options, ImportOptions importOptions, Nanos interval, const std::atomic<bool>* cancel,
                           std::function<EpochNs()> clock)
    : m_options(std::move(options)), m_importOptions(std::move(importOptions)), m_cancel(cancel), m_interval(interval),
      m_clock(clock ? std::move(clock) : systemNow) {
    // A failed pull is asked again at the next look: waiting long on a server that is down
    // would hold the files back.
    m_options.retry.attempts = std::min(m_options.retry.attempts, 2);
}

bool FollowedPull::refresh(const std::vector<const ShardedFile*>& files, bool last) {
    if (m_cancel && m_cancel->load()) return false;
    const EpochNs now = m_clock();
    if (m_pullCount > 0 && !last && now - m_pulledTo < m_interval) return false;
    PrometheusPullOptions pull = m_options;
    pull.from = m_next;
    if (pull.from == 0) {
        pull.from = m_options.from != 0 ? m_options.from : firstEvent(files);
        if (pull.from == 0) pull.from = now - kFollowLookback;
    }
    pull.to = now;
    if (pull.to <= pull.from) return false;
    if (pull.hosts.empty()) pull.hosts = hostsToPull(files, m_importOptions);
    pull.clock = [now] { return now; };
    PrometheusPull p = pullPrometheus(pull, {}, m_cancel);

    // The next pull starts where this one's samples end: a millisecond after its end where the
    // samples came as stored, else one step after its last instant on the step grid, but no
    // later than a fine step after its end (a first pull of a long span is coarse; the pulls
    // after it, of seconds, are not).
    const Nanos step = p.pulled.stepNs;
    const Nanos fine = m_options.step > 0 ? m_options.step : kFinestPullStep;
    m_next = p.remoteRead ? pull.to + kMillisecond : std::min(pull.from + (pull.to - pull.from) / step * step + step, pull.to + fine);
    m_pulledTo = pull.to;
    const bool first = m_pullCount++ == 0;
    const bool news = first || p.source.events.telemetry.samples() > 0;
    if (!m_source) {
        m_source = std::move(p.source);
        m_pulled = std::move(p.pulled);
    } else {
        FileReport& report = m_source->report;
        const FileReport& more = p.source.report;
        addPulled(m_source->events.telemetry, std::move(p.source.events.telemetry));
        for (const auto& [kind, n] : more.counts)
            if (kind != "telemetry series") report.count(kind, n);
        if (more.first != 0 && (report.first == 0 || more.first < report.first)) report.first = more.first;
        report.last = std::max(report.last, more.last);
        for (const std::string& w : more.warnings)
            if (std::find(report.warnings.begin(), report.warnings.end(), w) == report.warnings.end()) report.warnings.push_back(w);
        for (const std::string& q : p.pulled.queries)
            if (std::find(m_pulled.queries.begin(), m_pulled.queries.end(), q) == m_pulled.queries.end()) m_pulled.queries.push_back(q);
        m_pulled.toEpochNs = pull.to;
        m_pulled.stepNs = step;
        m_pulled.pulledAtEpochNs = now;
    }
    if (!news) return false;
    FileReport& report = m_source->report;
    report.counts["telemetry series"] = distinctSeries(m_source->events.telemetry);
    // An increment with no sample yet is no news once an earlier one had samples.
    if (m_source->events.telemetry.samples() > 0)
        std::erase(report.warnings, std::string("the server returned no samples for this span"));
    report.notes.clear();
    report.notes.push_back("pulled " + formatEpochNs(m_pulled.fromEpochNs) + " to " + formatEpochNs(m_pulled.toEpochNs) + " while following, in " +
                           std::to_string(m_pullCount) + (m_pullCount == 1 ? " pull" : " pulls") + " (the last at a " + apiDuration(step) + " step)");
    return true;
}

std::vector<const ShardedFile*> FollowedPull::sources() const {
    if (!m_source) return {};
    return {&*m_source};
}

std::vector<PulledSource> FollowedPull::pulls() const {
    if (!m_source) return {};
    return {m_pulled};
}

}  // namespace faultline
