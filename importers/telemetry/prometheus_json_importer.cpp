// Prometheus HTTP API JSON: /api/v1/query_range (resultType "matrix": each series' "values")
// and /api/v1/query (resultType "vector": one "value" each), with or without the
// {"status", "data"} envelope, and Kepler's form: one object mapping each metric name to its
// query_range result list. Streamed: a series of millions of samples is never held whole.
#include "importers/telemetry/readers.h"
#include "importers/text/json_pull.h"
#include "importers/telemetry/link_counters.h"
#include "importers/telemetry/no_gpu_series.h"
#include "importers/telemetry/telemetry_labels.h"
#include "importers/text/text_parse.h"

#include <charconv>
#include <cmath>

namespace faultline {

namespace {

using Token = JsonPull::Token;

class PrometheusJsonReader {
public:
    PrometheusJsonReader(JsonPull& in, ImportContext& ctx, std::string host) : m_in(in), m_ctx(ctx), m_host(std::move(host)) {}

    void document() {
        const Token first = m_in.next();
        if (first == Token::BeginArray) {
            resultList("");
        } else if (first == Token::BeginObject) {
            topObject();
        } else {
            m_in.fail("expected a Prometheus API response (a JSON object)");
        }
        if (m_in.next() != Token::End) m_in.fail("more after the end of the JSON document");
    }

    std::int64_t samples = 0, series = 0, noGpu = 0, skipped = 0, linkSamples = 0;
    NoGpuSeries noGpuSeries;
    std::string resultType;

private:
    // {"status":..., "data": {...}}, {"resultType":..., "result": [...]}, or Kepler's
    // {"metric_name": [series...], ...}.
    void topObject() {
        for (Token t = m_in.next(); t != Token::EndObject; t = m_in.next()) {
            const std::string key = expectKey(t);
            const Token v = m_in.next();
            if (key == "status" && v == Token::String) {
                if (m_in.text() != "success") m_status = std::string(m_in.text());
            } else if (key == "error" && v == Token::String) {
                m_error = std::string(m_in.text());
            } else if (key == "data" && v == Token::BeginObject) {
                dataObject();
            } else if (key == "resultType" && v == Token::String) {
                resultType = std::string(m_in.text());
            } else if (key == "result" && v == Token::BeginArray) {
                resultList("");
            } else if (v == Token::BeginArray) {
                resultList(key);  // Kepler: the metric's name is the key
            } else {
                m_in.skipValue(v);
            }
        }
        if (!m_status.empty()) throw Error(m_in.path() + ": the Prometheus query failed (status \"" + m_status + "\"" + (m_error.empty() ? "" : ": " + m_error) + ")");
    }

    void dataObject() {
        for (Token t = m_in.next(); t != Token::EndObject; t = m_in.next()) {
            const std::string key = expectKey(t);
            const Token v = m_in.next();
            if (key == "resultType" && v == Token::String) resultType = std::string(m_in.text());
            else if (key == "result" && v == Token::BeginArray) resultList("");
            else m_in.skipValue(v);
        }
    }

    std::string expectKey(Token t) {
        if (t != Token::String) m_in.fail("expected a key (a string) in the object");
        return std::string(m_in.text());
    }

    void resultList(const std::string& name) {
        for (Token t = m_in.next(); t != Token::EndArray; t = m_in.next()) {
            if (t != Token::BeginObject) m_in.fail("expected a series {\"metric\": {...}, \"values\": [...]} in the result list");
            oneSeries(name);
            m_ctx.tick(m_in.progress());
        }
    }

    void oneSeries(const std::string& name) {
        Labels labels;
        std::int32_t id = -2;  // -2: labels not read yet; -1: neither a GPU's series nor a link counter
        std::vector<std::pair<EpochNs, double>> early;  // samples before "metric" (unusual order)
        auto sample = [&](EpochNs t, double v) {
            if (id == -2) early.emplace_back(t, v);
            else take(id, t, v);
        };
        for (Token t = m_in.next(); t != Token::EndObject; t = m_in.next()) {
            const std::string key = expectKey(t);
            const Token v = m_in.next();
            if (key == "metric" && v == Token::BeginObject) {
                readLabels(labels);
                id = seriesFor(name, labels);
                for (const auto& [time, value] : early) take(id, time, value);
                early.clear();
            } else if (key == "values" && v == Token::BeginArray) {
                for (Token p = m_in.next(); p != Token::EndArray; p = m_in.next()) {
                    if (p != Token::BeginArray) m_in.fail("expected a sample [time, \"value\"]");
                    pair(sample);
                }
            } else if (key == "value" && v == Token::BeginArray) {
                pair(sample);
            } else {
                m_in.skipValue(v);
            }
        }
        if (id == -2 && !early.empty()) m_in.fail("a series without \"metric\" labels");
    }

    void readLabels(Labels& labels) {
        for (Token t = m_in.next(); t != Token::EndObject; t = m_in.next()) {
            std::string key = expectKey(t);
            const Token v = m_in.next();
            if (v != Token::String) m_in.fail("expected the label \"" + key + "\" to be a string");
            labels.emplace_back(std::move(key), std::string(m_in.text()));
        }
    }

    std::int32_t seriesFor(const std::string& name, const Labels& labels) {
        std::string metric = name;
        for (const auto& [k, v] : labels)
            if (k == "__name__") metric = v;
        if (metric.empty()) return -1;
        if (const auto refused = refusedHostLabel(labels)) {
            m_ctx.report.skip(m_in.path() + ": series " + metric + ": " + *refused);
            return -1;
        }
        if (const auto link = linkDownCounter(metric, labels)) return kLinkSeries - m_ctx.events.linkCounters.series(*link, metric, m_in.path());
        const auto gpu = gpuFromLabels(labels);
        if (!gpu) {
            noGpuSeries.add(metric);
            return -1;
        }
        TelemetryGpu g = *gpu;
        if (g.host.empty()) g.host = m_host;
        ++series;
        return m_ctx.events.telemetry.series(g, metricFromLabels(metric, labels));
    }

    // [1702462599.123, "123.45"], the '[' read.
    template <typename Fn>
    void pair(Fn&& sample) {
        if (m_in.next() != Token::Number) m_in.fail("expected a sample's time (seconds since 1970)");
        const auto at = epochFromDecimalSeconds(m_in.text());
        if (!at) m_in.fail("expected a sample's time (seconds since 1970), found " + std::string(m_in.text().substr(0, 30)));
        const Token v = m_in.next();
        if (v != Token::String && v != Token::Number) m_in.fail("expected a sample's value (a string)");
        const std::string_view vt = m_in.text();
        double value = 0;
        const bool ok = std::from_chars(vt.data(), vt.data() + vt.size(), value).ec == std::errc() && std::isfinite(value);
        if (m_in.next() != Token::EndArray) m_in.fail("expected ']' after a sample's time and value");
        if (!ok) {
            ++skipped;  // "NaN", "+Inf": no reading at that instant
            return;
        }
        sample(*at, value);
    }

    void take(std::int32_t id, EpochNs t, double v) {
        if (id <= kLinkSeries) {
            m_ctx.events.linkCounters.add(kLinkSeries - id, t, v, 0);
            m_ctx.report.seen(t);
            ++linkSamples;
            return;
        }
        if (id < 0) {
            ++noGpu;
            return;
        }
        m_ctx.events.telemetry.add(id, t, v);
        m_ctx.report.seen(t);
        ++samples;
    }

    JsonPull& m_in;
    ImportContext& m_ctx;
    std::string m_host;  // for series that name no host
    std::string m_status, m_error;
};

}  // namespace

void importPrometheusJson(const std::string& path, ImportContext& ctx) {
    JsonPull in(path);
    PrometheusJsonReader reader(in, ctx, hostOfUnnamedFile(path, ctx.options.host));
    reader.document();
    if (reader.samples == 0 && reader.noGpu == 0 && reader.linkSamples == 0)
        throw Error(path + ": no samples: expected a Prometheus query or query_range response with a \"result\" list of series");
    ctx.report.count("telemetry samples", reader.samples);
    ctx.report.count("telemetry series", reader.series);
    if (reader.linkSamples > 0) ctx.report.count("link-down counter samples", reader.linkSamples);
    if (reader.noGpu > 0) ctx.report.count("samples of no GPU (skipped)", reader.noGpu);
    if (const auto note = reader.noGpuSeries.note()) ctx.report.notes.push_back(*note);
    if (reader.skipped > 0) ctx.report.count("NaN or infinite samples (skipped)", reader.skipped);
}

}  // namespace faultline
