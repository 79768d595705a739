// Prometheus text exposition and OpenMetrics: dcgm-exporter's /metrics (one scrape, or a
// series of scrapes with timestamps), node exporters, a federate endpoint's output.
// `name{label="value",...} value [timestamp]`; a scrape without timestamps was taken when the
// file was written. Series of no GPU (a node's or a pod's) are counted and skipped.
#include "importers/telemetry/readers.h"
#include "importers/text/line_reader.h"
#include "importers/telemetry/link_counters.h"
#include "importers/telemetry/no_gpu_series.h"
#include "importers/telemetry/telemetry_labels.h"
#include "importers/text/text_parse.h"

#include <charconv>
#include <cmath>

namespace faultline {

namespace {

bool nameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':'; }
bool nameChar(char c) { return nameStart(c) || (c >= '0' && c <= '9'); }

// Reads `{k="v",...}` from `s` at `at` (the '{'); returns the index after '}' or npos.
std::size_t parseLabels(std::string_view s, std::size_t at, Labels& out) {
    out.clear();
    std::size_t i = at + 1;
    while (true) {
        while (i < s.size() && (s[i] == ' ' || s[i] == ',')) ++i;
        if (i >= s.size()) return std::string_view::npos;
        if (s[i] == '}') return i + 1;
        const std::size_t keyStart = i;
        while (i < s.size() && nameChar(s[i])) ++i;
        if (i == keyStart || i >= s.size()) return std::string_view::npos;
        std::string key(s.substr(keyStart, i - keyStart));
        while (i < s.size() && s[i] == ' ') ++i;
        if (i + 1 >= s.size() || s[i] != '=' || s[i + 1] != '"') return std::string_view::npos;
        i += 2;
        std::string value;
        while (i < s.size() && s[i] != '"') {
            if (s[i] == '\\' && i + 1 < s.size()) {
                ++i;
                value += s[i] == 'n' ? '\n' : s[i];
            } else {
                value += s[i];
            }
            ++i;
        }
        if (i >= s.size()) return std::string_view::npos;
        ++i;
        out.emplace_back(std::move(key), std::move(value));
    }
}

std::optional<double> sampleValue(std::string_view t) {
    if (t == "NaN" || t == "+Inf" || t == "-Inf" || t == "Inf") return std::nullopt;
    double v = 0;
    const char* begin = t.data() + (!t.empty() && t.front() == '+');
    const auto [p, ec] = std::from_chars(begin, t.data() + t.size(), v);
    if (ec != std::errc() || p != t.data() + t.size() || t.empty()) return std::nullopt;
    return v;
}

// Prometheus writes milliseconds, OpenMetrics seconds (with a fraction, or a number of
// seconds too small to be milliseconds of any date after 1973).
std::optional<EpochNs> sampleTime(std::string_view t) {
    for (char c : t)
        if (c == '.' || c == 'e' || c == 'E') return epochFromDecimalSeconds(t);
    const auto n = parseInt(t);
    if (!n || *n < 0) return std::nullopt;
    if (*n < 100'000'000'000) return *n > 9'200'000'000 ? std::nullopt : std::optional<EpochNs>(*n * 1'000'000'000);
    if (*n > 9'200'000'000'000) return std::nullopt;
    return *n * 1'000'000;
}

// The end of a sample's series, its name at [0, nameEnd) then its labels: the index after
// the labels' '}' (they may hold spaces inside quotes), or nameEnd when there are none;
// npos when the '}' is missing.
std::size_t seriesEnd(std::string_view t, std::size_t nameEnd) {
    if (nameEnd >= t.size() || t[nameEnd] != '{') return nameEnd;
    bool quoted = false;
    for (std::size_t end = nameEnd; end < t.size(); ++end) {
        if (t[end] == '\\' && quoted) ++end;
        else if (t[end] == '"') quoted = !quoted;
        else if (t[end] == '}' && !quoted) return end + 1;
    }
    return std::string_view::npos;
}

// A sample's value and timestamp, the words after its series. Plain loops:
// std::string_view::find_first_of costs a memchr per byte.
std::pair<std::string_view, std::string_view> valueAndTime(std::string_view t, std::size_t end) {
    std::size_t v = end;
    while (v < t.size() && (t[v] == ' ' || t[v] == '\t')) ++v;
    std::size_t ve = v;
    while (ve < t.size() && t[ve] != ' ' && t[ve] != '\t') ++ve;
    std::size_t ts = ve;
    while (ts < t.size() && (t[ts] == ' ' || t[ts] == '\t')) ++ts;
    std::size_t te = ts;
    while (te < t.size() && t[te] != ' ' && t[te] != '\t') ++te;
    return {t.substr(v, ve - v), t.substr(ts, te - ts)};
}

// Series seen before, by their text up to the value, in the order first seen: a scrape
// repeats the series of the one before in the same order, so the next line is nearly always
// the one after the last (a compare, no hash); else the table finds it. A series' id: a GPU
// metric's, a link counter's (link_counters.h), or none (-1). Each series' text is held once,
// in one block: a million series cost their text and about 20 bytes more each.
class SeriesIds {
public:
    SeriesIds(ImportContext& ctx, std::string host, const std::string& path) : m_ctx(ctx), m_host(std::move(host)), m_path(path) {}

    // The id of the series at t[0, end) whose name ends at `nameEnd`; nullopt (the line
    // skipped, said) when its labels are not pairs.
    std::optional<std::int32_t> idOf(std::string_view t, std::size_t nameEnd, std::size_t end, const std::string& where) {
        const std::string_view series = t.substr(0, end);
        if (m_cursor < m_ids.size() && m_seen.at(static_cast<std::int32_t>(m_cursor)) == series) return m_ids[m_cursor++];
        if (const auto known = m_seen.find(series)) {
            m_cursor = static_cast<std::size_t>(*known) + 1;
            return m_ids[static_cast<std::size_t>(*known)];
        }
        m_labels.clear();
        if (nameEnd < t.size() && t[nameEnd] == '{' && parseLabels(t, nameEnd, m_labels) != end) {
            m_ctx.report.skip(where + ": labels are not `label=\"value\"` pairs");
            return std::nullopt;
        }
        std::int32_t id = -1;
        const std::string_view name = t.substr(0, nameEnd);
        if (const auto refused = refusedHostLabel(m_labels)) {
            m_ctx.report.skip(where + ": " + *refused);  // its samples are skipped with it
        } else if (const auto gpu = gpuFromLabels(m_labels)) {
            TelemetryGpu g = *gpu;
            if (g.host.empty()) g.host = m_host;
            id = m_ctx.events.telemetry.series(g, metricFromLabels(name, m_labels));
            ++gpuSeries;
        } else if (const auto link = linkDownCounter(name, m_labels)) {
            id = kLinkSeries - m_ctx.events.linkCounters.series(*link, name, m_path);
        } else {
            noGpu.add(name);
        }
        m_seen.intern(series);
        m_ids.push_back(id);
        m_cursor = m_ids.size();
        return id;
    }

    std::int64_t gpuSeries = 0;
    NoGpuSeries noGpu;

private:
    ImportContext& m_ctx;
    std::string m_host;
    const std::string& m_path;
    StringInterner m_seen;            // each series' text, by its order of first sight
    std::vector<std::int32_t> m_ids;  // the id of each
    std::size_t m_cursor = 0;
    Labels m_labels;
};

}  // namespace

void importPrometheusText(const std::string& path, ImportContext& ctx) {
    LineReader in(path, &ctx.report.notes);
    ImportedTelemetry& telemetry = ctx.events.telemetry;
    const EpochNs written = fileModifiedTime(path);
    SeriesIds ids(ctx, hostOfUnnamedFile(path, ctx.options.host), path);
    std::int64_t samples = 0, untimed = 0, noGpu = 0, linkSamples = 0;
    std::string_view line;
    while (in.next(line)) {
        if ((in.lineNumber() & 0xfff) == 0) ctx.tick(in.progress());
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const std::string_view t = trim(line);
        if (t.empty()) continue;
        if (t.front() == '#') {
            if (t == "# EOF") break;
            continue;
        }
        std::size_t i = 0;
        while (i < t.size() && nameChar(t[i])) ++i;
        if (i == 0 || !nameStart(t[0])) {
            ctx.report.skip(in.where() + ": expected a sample, `name{label=\"value\",...} value [timestamp]`");
            continue;
        }
        const std::size_t end = seriesEnd(t, i);
        if (end == std::string_view::npos) {
            ctx.report.skip(in.where() + ": the labels' '}' is missing");
            continue;
        }
        const auto found = ids.idOf(t, i, end, in.where());
        if (!found) continue;
        const std::int32_t id = *found;
        const auto [valueText, timeText] = valueAndTime(t, end);
        const auto value = sampleValue(valueText);
        if (!value) {
            if (valueText.empty() || (valueText != "NaN" && valueText != "+Inf" && valueText != "-Inf"))
                ctx.report.skip(in.where() + ": expected a number after the series, found \"" + std::string(valueText.substr(0, 40)) + "\"");
            continue;
        }
        EpochNs time = written;
        if (!timeText.empty()) {
            const auto at = sampleTime(timeText);
            if (!at) {
                ctx.report.skip(in.where() + ": expected a timestamp (milliseconds, or OpenMetrics seconds), found \"" +
                                std::string(timeText.substr(0, 40)) + "\"");
                continue;
            }
            time = *at;
        } else {
            ++untimed;
        }
        if (id <= kLinkSeries) {
            ctx.events.linkCounters.add(kLinkSeries - id, time, *value, in.lineNumber());
            ctx.report.seen(time);
            ++linkSamples;
            continue;
        }
        if (id < 0) {
            ++noGpu;
            continue;
        }
        telemetry.add(id, time, *value);
        ctx.report.seen(time);
        ++samples;
    }
    if (samples == 0 && noGpu == 0 && linkSamples == 0) throw Error(path + ": no samples: expected Prometheus text exposition lines, `name{label=\"value\",...} value`");
    ctx.report.count("telemetry samples", samples);
    ctx.report.count("telemetry series", ids.gpuSeries);
    if (linkSamples > 0) ctx.report.count("link-down counter samples", linkSamples);
    if (noGpu > 0) ctx.report.count("samples of no GPU (skipped)", noGpu);
    if (const auto note = ids.noGpu.note()) ctx.report.notes.push_back(*note);
    if (untimed > 0) ctx.report.notes.push_back(std::to_string(untimed) + " samples carry no timestamp: taken at the file's modification time, " + formatEpochNs(written));
}

}  // namespace faultline
