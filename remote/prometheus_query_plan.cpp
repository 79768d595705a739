#include "remote/prometheus_query_plan.h"

#include "model/error.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace faultline {

namespace {


bool isMetricName(const std::string& name) {
    if (name.empty()) return false;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
        if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
    }
    return true;
}

// The host's name as a regular expression matching only it.
std::string regexLiteral(const std::string& host) {
    std::string out;
    for (char c : host) {
        if (std::string_view(".^$*+?()[]{}|\\").find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
    return out;
}

// Text inside a PromQL string literal ("..."): backslashes and quotes escaped.
std::string promqlString(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '\\' || c == '"') out += '\\';
        out += c;
    }
    return out;
}

}  // namespace

Nanos chooseStep(EpochNs from, EpochNs to) {
    static constexpr std::array<std::int64_t, 12> kSteps = {15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 86400};
    const Nanos span = std::max<Nanos>(to - from, 0);
    for (std::int64_t s : kSteps)
        if (span / (s * kSecond) + 1 <= 4 * kMaxPointsPerSeries) return s * kSecond;
    return kSteps.back() * kSecond;
}

std::vector<TimeSlice> splitSpan(EpochNs from, EpochNs to, Nanos step, std::int64_t maxPoints) {
    if (step <= 0 || maxPoints < 1) throw Error("a query's step must be positive");
    std::vector<TimeSlice> out;
    const Nanos longest = (maxPoints - 1) * step;
    for (EpochNs begin = from; begin <= to; begin += maxPoints * step) out.push_back({begin, std::min(to, begin + longest)});
    return out;
}

std::vector<std::vector<std::string>> hostBatches(const std::vector<std::string>& hosts, std::size_t perBatch) {
    if (hosts.empty()) return {{}};
    if (perBatch == 0) return {hosts};
    std::vector<std::vector<std::string>> out;
    for (std::size_t i = 0; i < hosts.size(); i += perBatch)
        out.emplace_back(hosts.begin() + static_cast<std::ptrdiff_t>(i), hosts.begin() + static_cast<std::ptrdiff_t>(std::min(hosts.size(), i + perBatch)));
    return out;
}

std::string hostRegex(const std::string& hostLabel, const std::vector<std::string>& hosts) {
    if (!isMetricName(hostLabel) || hostLabel.find(':') != std::string::npos)
        throw Error("\"" + hostLabel + "\" is not a Prometheus label name");
    std::string alternatives;
    for (const std::string& h : hosts) alternatives += (alternatives.empty() ? "" : "|") + regexLiteral(h);
    const std::string port = hostLabel == "instance" ? "(:[0-9]+)?" : "";
    return "(" + alternatives + ")" + port;
}

std::string rangeQuery(const std::string& metric, const std::string& hostLabel, const std::vector<std::string>& hosts) {
    if (!isMetricName(metric)) throw Error("\"" + metric + "\" is not a Prometheus metric name (letters, digits, '_' and ':')");
    if (hosts.empty()) return metric;
    return metric + "{" + hostLabel + "=~\"" + promqlString(hostRegex(hostLabel, hosts)) + "\"}";
}

std::string apiSeconds(EpochNs t) {
    const std::int64_t ms = t / 1'000'000;
    char text[40];
    std::snprintf(text, sizeof text, "%lld.%03lld", static_cast<long long>(ms / 1000), static_cast<long long>(ms % 1000));
    return text;
}

std::string apiDuration(Nanos step) {
    if (step % kSecond == 0) return std::to_string(step / kSecond) + "s";
    char text[40];
    std::snprintf(text, sizeof text, "%.3fs", static_cast<double>(step) / 1e9);
    return text;
}

}  // namespace faultline
