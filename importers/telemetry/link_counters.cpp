#include "link_counters.h"

#include "failure_merge.h"
#include "imported_events.h"
#include "infiniband_names.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace faultline {

namespace {

// A name infiniband-exporter gives an end: an adapter's "host mlx5_N", else a switch.
LinkEndName endFromDescription(std::string_view description) {
    if (auto adapter = hostAdapter(description)) return {adapter->host, adapter->nic, {}};
    return {{}, -1, switchUnitName(description)};
}

std::string keyOf(const LinkLocator& l, std::string_view metric) {
    std::string key;
    for (const LinkEndName* e : {&l.near, &l.far})
        key.append(e->host).append(1, '\x1f').append(std::to_string(e->nic)).append(1, '\x1f').append(e->switchName).append(1, '\x1f');
    return key.append(metric);
}

std::string countText(double v) {
    return std::abs(v) < 9e15 && v == std::floor(v) ? std::to_string(static_cast<std::int64_t>(v)) : std::to_string(v);
}

}  // namespace

std::string LinkEndName::text() const {
    if (!switchName.empty()) return switchName;
    return nic >= 0 ? host + " mlx5_" + std::to_string(nic) : host;
}

std::optional<LinkLocator> linkDownCounter(std::string_view metric, const Labels& labels) {
    if (metric == "node_infiniband_link_downed_total") {
        const std::string* device = label(labels, "device");
        const auto nic = device ? nicOfDevice(*device) : std::nullopt;
        std::string host = hostFromLabels(labels);
        if (!nic || host.empty()) return std::nullopt;
        return LinkLocator{{std::move(host), *nic, {}}, {}};
    }
    if (metric == "infiniband_linkdownedcounter_total") {
        const std::string* local = label(labels, "local_name");
        if (!local) return std::nullopt;
        const std::string* remote = label(labels, "remote_name");
        return LinkLocator{endFromDescription(*local), remote ? endFromDescription(*remote) : LinkEndName{}};
    }
    return std::nullopt;
}

std::int32_t ImportedLinkCounters::fileIndex(const std::string& path) {
    const auto it = std::find(m_files.begin(), m_files.end(), path);
    if (it != m_files.end()) return static_cast<std::int32_t>(it - m_files.begin());
    m_files.push_back(path);
    return static_cast<std::int32_t>(m_files.size() - 1);
}

std::int32_t ImportedLinkCounters::series(const LinkLocator& link, std::string_view metric, const std::string& path) {
    const std::int32_t file = fileIndex(path);
    auto [it, added] = m_index.try_emplace(keyOf(link, metric) + '\x1f' + std::to_string(file), static_cast<std::int32_t>(m_series.size()));
    if (added) m_series.push_back({link, std::string(metric), file, {}});
    return it->second;
}

void ImportedLinkCounters::add(std::int32_t id, EpochNs time, double value, std::int64_t line) {
    Series& s = m_series[static_cast<std::size_t>(id)];
    if (m_samples++ == 0 || time < m_earliest) m_earliest = time;
    if (time > m_latest) m_latest = time;
    // A series' samples come in time order within a file: only its changes are worth keeping.
    const EpochNs previous = s.points.empty() ? time : s.lastSample;
    s.lastSample = time;
    if (!s.points.empty() && s.points.back().value == value) return;
    s.points.push_back({time, previous, value, line});
}

void ImportedLinkCounters::append(ImportedLinkCounters&& other) {
    for (Series& s : other.m_series) {
        const std::int32_t file = fileIndex(other.m_files[static_cast<std::size_t>(s.file)]);
        m_index.try_emplace(keyOf(s.link, s.metric) + '\x1f' + std::to_string(file), static_cast<std::int32_t>(m_series.size()));
        s.file = file;
        m_series.push_back(std::move(s));
    }
    if (other.m_samples > 0) {
        if (m_samples == 0 || other.m_earliest < m_earliest) m_earliest = other.m_earliest;
        m_latest = std::max(m_latest, other.m_latest);
    }
    m_samples += other.m_samples;
    other = ImportedLinkCounters();
}

std::vector<ImportedLinkCounters::LinkDown> ImportedLinkCounters::linkDowns() const {
    // One counter may come from several files (a scrape a day): its points merged in time order.
    std::map<std::string, std::vector<const Series*>> counters;
    for (const Series& s : m_series) counters[keyOf(s.link, s.metric)].push_back(&s);
    std::vector<LinkDown> out;
    for (const auto& [key, parts] : counters) {
        struct Point {
            EpochNs time;
            EpochNs previousSample;
            double value;
            std::int64_t line;
            std::int32_t file;
        };
        std::vector<Point> points;
        for (const Series* s : parts)
            for (const ChangePoint& p : s->points) points.push_back({p.time, p.previousSample, p.value, p.line, s->file});
        std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.time < b.time; });
        for (std::size_t i = 1; i < points.size(); ++i) {
            if (!(points[i].value > points[i - 1].value)) continue;
            const std::string& file = m_files[static_cast<std::size_t>(points[i].file)];
            const EpochNs since = std::max(points[i].previousSample, points[i - 1].time);
            out.push_back({points[i].time, since, parts.front()->link, parts.front()->metric, points[i - 1].value, points[i].value,
                           points[i].line > 0 ? file + ":" + std::to_string(points[i].line) : file});
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const LinkDown& a, const LinkDown& b) { return a.time < b.time; });
    return out;
}

namespace {

std::optional<LinkEnd> endIn(const Topology& t, const LinkEndName& name) {
    if (!name.switchName.empty()) {
        if (const auto sw = t.findSwitch(name.switchName)) return LinkEnd{NodeKind::Switch, *sw};
        return std::nullopt;
    }
    const auto host = t.findHost(name.host);
    if (!host) return std::nullopt;
    const Host& h = t.hosts[static_cast<std::size_t>(*host)];
    if (name.nic < 0 || name.nic >= h.nicCount) return std::nullopt;
    return LinkEnd{NodeKind::Nic, h.firstNic + name.nic};
}

// A kernel's report of a link going down on the counter's host while the counter rose.
ImportedFailure* kernelLinkDown(ImportedEvents& events, std::size_t logged, const ImportedLinkCounters::LinkDown& d) {
    if (d.link.near.host.empty()) return nullptr;
    for (std::size_t i = 0; i < logged; ++i) {
        ImportedFailure& f = events.failures[i];
        if (f.cause != RootCause::NetworkSwitchCable || f.link || f.sinceBoot || f.where.host != d.link.near.host) continue;
        if (f.time >= d.since - kSameEventWindow && f.time <= d.time + kSameEventWindow) return &f;
    }
    return nullptr;
}

}  // namespace

std::optional<ComponentRef> cableOf(const Topology& t, const LinkLocator& link) {
    const auto near = endIn(t, link.near);
    if (!near) return std::nullopt;
    const auto far = link.far.empty() ? std::nullopt : endIn(t, link.far);
    for (std::size_t i = 0; i < t.links.size(); ++i) {
        const Link& l = t.links[i];
        const bool joins = far ? (l.lower == *near && l.upper == *far) || (l.lower == *far && l.upper == *near)
                               : near->kind == NodeKind::Nic && l.lower == *near;  // a NIC has one cable, up
        if (joins) return ComponentRef{ComponentKind::Link, static_cast<std::int32_t>(i)};
    }
    if (near->kind == NodeKind::Nic) return ComponentRef{ComponentKind::Nic, near->index};
    return std::nullopt;
}

void addLinkDownFailures(ImportedEvents& events) {
    const std::size_t logged = events.failures.size();  // what the logs said, before any counter
    for (const ImportedLinkCounters::LinkDown& d : events.linkCounters.linkDowns()) {
        const std::string far = d.link.far.empty() ? "" : " (cabled to " + d.link.far.text() + ")";
        const std::string detail =
            "link down: " + d.metric + " rose from " + countText(d.before) + " to " + countText(d.after) + " on " + d.link.near.text() + far;
        if (ImportedFailure* seen = kernelLinkDown(events, logged, d)) {
            seen->link = d.link;
            seen->detail += "; also " + detail + " (" + d.source + ")";
            continue;
        }
        ImportedFailure f;
        f.time = d.time;
        f.cause = RootCause::NetworkSwitchCable;
        f.link = d.link;
        f.where.host = d.link.near.host;
        f.detail = detail;
        f.source = d.source;
        events.failures.push_back(std::move(f));
    }
}

}  // namespace faultline
