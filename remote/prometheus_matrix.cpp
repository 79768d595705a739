#include "remote/prometheus_matrix.h"

#include "importers/telemetry/telemetry_labels.h"
#include "model/error.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <vector>

namespace faultline {

namespace {

using json = nlohmann::json;

// Where the parser stands; anything else is skipped whole.
enum class Place { Root, Data, Result, Series, Metric, Values, Pair, Other };

class MatrixSax : public nlohmann::json_sax<json> {
public:
    MatrixSax(const std::string& where, ImportedTelemetry& telemetry, FileReport& report, std::set<std::string>& hosts)
        : m_where(where), m_telemetry(telemetry), m_report(report), m_hosts(hosts) {}

    MatrixCounts counts;
    std::string status, error, resultType;

    bool null() override { return scalar(); }
    bool boolean(bool) override { return scalar(); }
    bool number_integer(number_integer_t v) override { return number(static_cast<double>(v), {}); }
    bool number_unsigned(number_unsigned_t v) override { return number(static_cast<double>(v), {}); }
    bool number_float(number_float_t v, const string_t& text) override { return number(v, text); }
    bool binary(binary_t&) override { return scalar(); }

    bool string(string_t& s) override {
        const Place p = top();
        if (p == Place::Root && m_key == "status") status = s;
        else if (p == Place::Root && m_key == "error") error = s;
        else if (p == Place::Data && m_key == "resultType") resultType = s;
        else if (p == Place::Metric) m_labels.emplace_back(m_key, s);
        else if (p == Place::Pair && m_pairItem++ == 1) value(s);
        return true;
    }

    bool key(string_t& k) override {
        m_key = k;
        return true;
    }

    bool start_object(std::size_t) override {
        const Place p = m_stack.empty() ? Place::Root : top();
        Place next = Place::Other;
        if (m_stack.empty()) next = Place::Root;
        else if (p == Place::Root && m_key == "data") next = Place::Data;
        else if (p == Place::Result) next = Place::Series;
        else if (p == Place::Series && m_key == "metric") next = Place::Metric;
        if (next == Place::Series) {
            m_labels.clear();
            m_series = -2;
        }
        m_stack.push_back(next);
        return true;
    }

    bool end_object() override {
        const Place p = top();
        m_stack.pop_back();
        if (p == Place::Metric) m_series = seriesFor();
        return true;
    }

    bool start_array(std::size_t) override {
        const Place p = m_stack.empty() ? Place::Other : top();
        Place next = Place::Other;
        if (p == Place::Data && m_key == "result") next = Place::Result;
        else if (p == Place::Series && (m_key == "values" || m_key == "value")) next = m_key == "value" ? Place::Pair : Place::Values;
        else if (p == Place::Values) next = Place::Pair;
        if (next == Place::Pair) m_pairItem = 0;
        m_stack.push_back(next);
        return true;
    }

    bool end_array() override {
        m_stack.pop_back();
        return true;
    }

    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
        throw Error(m_where + ": the server's answer is not JSON at byte " + std::to_string(position) + " (" + e.what() + ")");
    }

private:
    Place top() const { return m_stack.empty() ? Place::Other : m_stack.back(); }
    bool scalar() { return true; }

    bool number(double v, const string_t& text) {
        if (top() != Place::Pair || m_pairItem++ != 0) return true;
        const auto at = text.empty() ? std::optional<EpochNs>(static_cast<EpochNs>(v) * 1'000'000'000) : epochFromDecimalSeconds(text);
        if (!at) throw Error(m_where + ": a sample's time is not seconds since 1970: " + text);
        m_time = *at;
        return true;
    }

    void value(const std::string& text) {
        if (m_series == -2) throw Error(m_where + ": a series' samples came before its \"metric\" labels");
        double v = 0;
        const bool ok = std::from_chars(text.data(), text.data() + text.size(), v).ec == std::errc() && std::isfinite(v);
        if (!ok) {
            ++counts.skipped;  // "NaN", "+Inf": no reading at that instant
            return;
        }
        if (m_series < 0) {
            ++counts.noGpu;
            return;
        }
        m_telemetry.add(m_series, m_time, v);
        m_report.seen(m_time);
        ++counts.samples;
    }

    std::int32_t seriesFor() {
        std::string metric;
        for (const auto& [k, v] : m_labels)
            if (k == "__name__") metric = v;
        if (const auto refused = refusedHostLabel(m_labels)) {
            m_report.skip(m_where + ": series " + metric + ": " + *refused);
            return -1;
        }
        const auto gpu = gpuFromLabels(m_labels);
        if (metric.empty() || !gpu) return -1;
        if (!gpu->host.empty()) m_hosts.insert(gpu->host);
        ++counts.series;
        return m_telemetry.series(*gpu, metricFromLabels(metric, m_labels));
    }

    const std::string& m_where;
    ImportedTelemetry& m_telemetry;
    FileReport& m_report;
    std::set<std::string>& m_hosts;
    std::vector<Place> m_stack;
    std::string m_key;
    Labels m_labels;
    std::int32_t m_series = -1;
    int m_pairItem = 0;
    EpochNs m_time = 0;
};

}  // namespace

MatrixCounts readMatrixResponse(const std::string& body, const std::string& where, ImportedTelemetry& telemetry, FileReport& report,
                                std::set<std::string>& hosts) {
    MatrixSax sax(where, telemetry, report, hosts);
    json::sax_parse(body, &sax);
    if (sax.status != "success")
        throw Error(where + ": the query failed (status \"" + sax.status + "\"" + (sax.error.empty() ? "" : ": " + sax.error) + ")");
    if (sax.resultType != "matrix") throw Error(where + ": expected a range query's matrix, the server answered a " + sax.resultType);
    return sax.counts;
}

}  // namespace faultline
