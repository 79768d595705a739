#include "importers/events/imported_link_counters.h"

#include <algorithm>
#include <map>

namespace faultline {

namespace {

std::string keyOf(const LinkLocator& l, std::string_view metric) {
    std::string key;
    for (const LinkEndName* e : {&l.near, &l.far})
        key.append(e->host).append(1, '\x1f').append(std::to_string(e->nic)).append(1, '\x1f').append(e->switchName).append(1, '\x1f');
    return key.append(metric);
}

}  // namespace

std::string LinkEndName::text() const {
    if (!switchName.empty()) return switchName;
    return nic >= 0 ? host + " mlx5_" + std::to_string(nic) : host;
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

}  // namespace faultline
