#include "metric_text.h"

#include "error.h"
#include "telemetry.h"

#include <cctype>

#include <cmath>
#include <cstdio>

namespace faultline {

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace

std::int32_t metricNamed(const Telemetry& telemetry, const std::string& text) {
    for (std::size_t i = 0; i < telemetry.metrics.size(); ++i)
        if (lower(telemetry.metrics[i]) == lower(text) || lower(std::string(metricInfo(telemetry.metrics[i]).label)) == lower(text))
            return static_cast<std::int32_t>(i);
    std::string known;
    for (const std::string& m : telemetry.metrics) known += (known.empty() ? "" : ", ") + m;
    throw Error("the run has no metric '" + text + "'" + (known.empty() ? " (it has no telemetry)" : " (it has " + known + ")"));
}

std::string metricTitle(std::string_view name) {
    const MetricInfo info = metricInfo(name);
    std::string title(info.label);
    if (!info.unit.empty()) title += " (" + std::string(info.unit) + ")";
    return title;
}

std::string formatMetricValue(double value, std::string_view unit) {
    if (std::isnan(value)) return "no data";
    std::string text;
    if (std::abs(value) >= 100 || value == std::round(value)) {
        const long long n = std::llround(value);
        std::string digits = std::to_string(n < 0 ? -n : n);
        for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), ",");
        text = (n < 0 ? "-" : "") + digits;
    } else {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, std::abs(value) >= 10 ? "%.1f" : "%.2f", value);
        text = buffer;
    }
    return unit.empty() ? text : text + " " + std::string(unit);
}

}  // namespace faultline
