#include "format.h"

#include <charconv>
#include <cstdio>
#include <ctime>

namespace faultline {

std::string formatDuration(Nanos d) {
    char buf[64];
    const bool negative = d < 0;
    if (negative) d = -d;
    const std::int64_t s = d / kSecond;
    if (d < kSecond) std::snprintf(buf, sizeof buf, "%.0f ms", static_cast<double>(d) / kMillisecond);
    else if (d < kMinute) std::snprintf(buf, sizeof buf, "%.1f s", toSeconds(d));
    else if (d < kHour) std::snprintf(buf, sizeof buf, "%lld min %lld s", static_cast<long long>(s / 60), static_cast<long long>(s % 60));
    else if (d < kDay) std::snprintf(buf, sizeof buf, "%lld h %02lld min", static_cast<long long>(s / 3600), static_cast<long long>(s / 60 % 60));
    else std::snprintf(buf, sizeof buf, "%lld d %lld h", static_cast<long long>(s / 86400), static_cast<long long>(s / 3600 % 24));
    std::string out = negative ? "-" : "";
    out += buf;
    return out;
}

std::string formatPercent(double fraction, int decimals) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f%%", decimals, fraction * 100.0);
    return buf;
}

std::string formatBytes(std::int64_t bytes) {
    static constexpr const char* kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    double value = static_cast<double>(bytes);
    std::size_t unit = 0;
    while (value >= 1000.0 && unit + 1 < std::size(kUnits)) {
        value /= 1000.0;
        ++unit;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, unit == 0 || value >= 100 ? "%.0f %s" : "%.1f %s", value, kUnits[unit]);
    return buf;
}

std::string formatCount(std::int64_t n) {
    const std::string digits = std::to_string(n < 0 ? -n : n);
    std::string out;
    if (n < 0) out.push_back('-');
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
        out.push_back(digits[i]);
    }
    return out;
}

std::string formatWallTime(std::int64_t startEpochNs, Nanos t) {
    const std::time_t seconds = static_cast<std::time_t>((startEpochNs + t) / kSecond);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return buf;
}

std::optional<Nanos> parseDuration(std::string_view text) {
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || value < 0) return std::nullopt;
    const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
    double scale = 0;
    if (unit.empty() || unit == "s") scale = kSecond;
    else if (unit == "ms") scale = kMillisecond;
    else if (unit == "m" || unit == "min") scale = kMinute;
    else if (unit == "h") scale = kHour;
    else if (unit == "d") scale = kDay;
    else return std::nullopt;
    return static_cast<Nanos>(value * scale);
}

std::string formatShortDuration(Nanos d) {
    char buf[48];
    if (d < kMillisecond) std::snprintf(buf, sizeof buf, "%.0f µs", static_cast<double>(d) / kMicrosecond);
    else if (d < kSecond) std::snprintf(buf, sizeof buf, d < 10 * kMillisecond ? "%.2f ms" : "%.1f ms", static_cast<double>(d) / kMillisecond);
    else return formatDuration(d);
    return buf;
}

}  // namespace faultline
