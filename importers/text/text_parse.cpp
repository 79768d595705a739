#include "importers/text/text_parse.h"

#include <array>
#include <charconv>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <string>

namespace faultline {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
    return s;
}

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool contains(std::string_view s, std::string_view needle) { return s.find(needle) != std::string_view::npos; }

void splitBy(std::string_view s, std::string_view delim, std::vector<std::string_view>& out) {
    out.clear();
    if (delim.empty()) {
        out.push_back(s);
        return;
    }
    for (;;) {
        const std::size_t at = s.find(delim);
        if (at == std::string_view::npos) {
            out.push_back(s);
            return;
        }
        out.push_back(s.substr(0, at));
        s.remove_prefix(at + delim.size());
    }
}

std::optional<std::int64_t> parseInt(std::string_view s) {
    s = trim(s);
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    std::int64_t v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

std::optional<double> parseDouble(std::string_view s) {
    s = trim(s);
    if (s.empty()) return std::nullopt;
    double v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}

std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d) {
    // Howard Hinnant's days_from_civil: exact for every Gregorian date.
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

namespace {
constexpr std::int64_t kNsPerSecond = 1'000'000'000;
constexpr std::int64_t kMaxEpochSeconds = std::numeric_limits<std::int64_t>::max() / kNsPerSecond - 1;  // 2262-04-11
}  // namespace

EpochNs epochFromSeconds(std::int64_t seconds, std::int64_t fracNs) {
    if (seconds < 0 || seconds > kMaxEpochSeconds)
        throw TimeOutOfRange("time " + std::to_string(seconds) + " s after 1970 is outside 1970-2262, the years a run can hold");
    return seconds * kNsPerSecond + fracNs;
}

EpochNs epochFromCivil(std::int64_t year, unsigned month, unsigned day, std::int64_t secondOfDay, std::int64_t fracNs,
                       std::int64_t offsetSec) {
    if (year < 1970 || year > 2262)
        throw TimeOutOfRange("year " + std::to_string(year) + " is outside 1970-2262, the years a run can hold");
    const std::int64_t seconds = daysFromCivil(year, month, day) * 86400 + secondOfDay - offsetSec;
    if (seconds < 0 || seconds > kMaxEpochSeconds)
        throw TimeOutOfRange("time " + std::to_string(year) + "-" + std::to_string(month) + "-" + std::to_string(day) +
                             " is outside 1970-01-01 to 2262-04-11, the times a run can hold");
    return seconds * kNsPerSecond + fracNs;
}

std::optional<unsigned> monthFromAbbrev(std::string_view s) {
    static constexpr std::array<std::string_view, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    for (unsigned i = 0; i < kMonths.size(); ++i)
        if (s == kMonths[i]) return i + 1;
    return std::nullopt;
}

namespace {

bool digits(std::string_view s, std::size_t at, std::size_t n, int& out) {
    if (at + n > s.size()) return false;
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) {
        if (s[i] < '0' || s[i] > '9') return false;
        v = v * 10 + (s[i] - '0');
    }
    out = v;
    return true;
}

}  // namespace

std::optional<std::int64_t> parseClock(std::string_view s) {
    int h = 0, mi = 0, sec = 0;
    if (s.size() < 8 || !digits(s, 0, 2, h) || s[2] != ':' || !digits(s, 3, 2, mi) || s[5] != ':' || !digits(s, 6, 2, sec))
        return std::nullopt;
    if (h > 23 || mi > 59 || sec > 60) return std::nullopt;
    return h * 3600 + mi * 60 + sec;
}

std::optional<EpochNs> parseIsoTime(std::string_view s, std::size_t* consumed) {
    int y = 0, mo = 0, d = 0;
    if (!digits(s, 0, 4, y) || s.size() < 10 || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' || !digits(s, 8, 2, d))
        return std::nullopt;
    if (mo < 1 || mo > 12 || d < 1 || d > 31) return std::nullopt;
    if (s.size() < 19 || (s[10] != 'T' && s[10] != ' ')) return std::nullopt;
    const auto clock = parseClock(s.substr(11));
    if (!clock) return std::nullopt;
    std::size_t i = 19;
    std::int64_t fracNs = 0;
    if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
        ++i;
        std::int64_t scale = 100'000'000;
        const std::size_t start = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
            fracNs += (s[i] - '0') * scale;
            scale /= 10;
            ++i;
        }
        if (i == start) return std::nullopt;
    }
    std::int64_t offsetSec = 0;
    if (i < s.size() && s[i] == 'Z') {
        ++i;
    } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
        const int sign = s[i] == '-' ? -1 : 1;
        int oh = 0, om = 0;
        if (!digits(s, i + 1, 2, oh)) return std::nullopt;
        std::size_t j = i + 3;
        if (j < s.size() && s[j] == ':') ++j;
        if (digits(s, j, 2, om)) j += 2;
        offsetSec = sign * (oh * 3600 + om * 60);
        i = j;
    }
    if (consumed) *consumed = i;
    return epochFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d), *clock, fracNs, offsetSec);
}

int currentUtcYear() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    return tm.tm_year + 1900;
}

std::optional<double> numberAfter(std::string_view s, std::string_view key) {
    const std::size_t at = s.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    std::size_t i = at + key.size();
    while (i < s.size() && s[i] == ' ') ++i;
    const std::size_t start = i;
    auto partOfNumber = [](char c) { return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'; };
    while (i < s.size() && partOfNumber(s[i])) ++i;
    return parseDouble(s.substr(start, i - start));
}

}  // namespace faultline
