#include "format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace faultline {

std::string formatDuration(Nanos d) {
    char buf[64];
    const bool negative = d < 0;
    if (negative) d = -d;
    const std::int64_t s = d / kSecond;
    // The second part is left out when it is zero: "54 d", "2 h", "4 min" read better than
    // "54 d 0 h", "2 h 00 min", "4 min 0 s"; nothing at all reads "0 s", not "0 ms".
    if (d == 0) std::snprintf(buf, sizeof buf, "0 s");
    else if (d < kSecond) std::snprintf(buf, sizeof buf, "%.0f ms", static_cast<double>(d) / kMillisecond);
    else if (d < kMinute) std::snprintf(buf, sizeof buf, "%.1f s", toSeconds(d));
    else if (d < kHour && s % 60 == 0) std::snprintf(buf, sizeof buf, "%lld min", static_cast<long long>(s / 60));
    else if (d < kHour) std::snprintf(buf, sizeof buf, "%lld min %lld s", static_cast<long long>(s / 60), static_cast<long long>(s % 60));
    else if (d < kDay && s / 60 % 60 == 0) std::snprintf(buf, sizeof buf, "%lld h", static_cast<long long>(s / 3600));
    else if (d < kDay) std::snprintf(buf, sizeof buf, "%lld h %02lld min", static_cast<long long>(s / 3600), static_cast<long long>(s / 60 % 60));
    else if (s / 3600 % 24 == 0) std::snprintf(buf, sizeof buf, "%lld d", static_cast<long long>(s / 86400));
    else std::snprintf(buf, sizeof buf, "%lld d %lld h", static_cast<long long>(s / 86400), static_cast<long long>(s / 3600 % 24));
    std::string out = negative ? "-" : "";
    out += buf;
    return out;
}

std::string formatCounted(std::int64_t n, std::string_view one, std::string_view many) {
    return formatCount(n) + " " + std::string(n == 1 ? one : many);
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

namespace {

// The nanoseconds in one unit of a duration, or 0 for a word that is not a unit.
Nanos unitScale(std::string_view unit) {
    if (unit == "ms") return kMillisecond;
    if (unit == "s") return kSecond;
    if (unit == "m" || unit == "min") return kMinute;
    if (unit == "h") return kHour;
    if (unit == "d") return kDay;
    return 0;
}

bool isUnitLetter(char c) { return c >= 'a' && c <= 'z'; }

}  // namespace

std::optional<Nanos> parseDuration(std::string_view text) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    if (text.empty()) return std::nullopt;
    // Parts such as "1d", "6h", "30m" follow each other from the largest unit down, as people
    // write them ("1d6h", "1h 30m"); a number without a unit is seconds, and only on its own.
    double total = 0;
    Nanos previousScale = 0;
    const char* p = text.data();
    const char* const end = text.data() + text.size();
    while (p != end) {
        double value = 0;
        const auto [afterNumber, ec] = std::from_chars(p, end, value);
        if (ec != std::errc() || !std::isfinite(value) || value < 0 || *p == '-') return std::nullopt;
        const char* afterUnit = afterNumber;
        while (afterUnit != end && isUnitLetter(*afterUnit)) ++afterUnit;
        const std::string_view unit(afterNumber, static_cast<std::size_t>(afterUnit - afterNumber));
        Nanos scale = unit.empty() ? kSecond : unitScale(unit);
        if (scale == 0) return std::nullopt;
        if (unit.empty() && (previousScale != 0 || afterUnit != end)) return std::nullopt;
        if (previousScale != 0 && scale >= previousScale) return std::nullopt;  // "30m1h", "1h1h"
        total += value * static_cast<double>(scale);
        previousScale = scale;
        p = afterUnit;
        while (p != end && *p == ' ') ++p;
    }
    if (total > 9.2e18) return std::nullopt;
    return static_cast<Nanos>(total);
}

std::string formatShortDuration(Nanos d) {
    char buf[48];
    if (d < kMillisecond) std::snprintf(buf, sizeof buf, "%.0f µs", static_cast<double>(d) / kMicrosecond);
    else if (d < kSecond) std::snprintf(buf, sizeof buf, d < 10 * kMillisecond ? "%.2f ms" : "%.1f ms", static_cast<double>(d) / kMillisecond);
    else return formatDuration(d);
    return buf;
}

}  // namespace faultline
