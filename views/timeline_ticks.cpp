#include "views/timeline_ticks.h"

#include <cstdio>
#include <ctime>
#include <vector>

namespace faultline {

namespace {

constexpr Nanos kMonth = 30 * kDay;  // a month step: calendar months, see nextTick
constexpr Nanos kYear = 365 * kDay;

std::tm utc(std::int64_t epochNs) {
    const auto seconds = static_cast<std::time_t>(epochNs >= 0 ? epochNs / kSecond : (epochNs - kSecond + 1) / kSecond);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    return tm;
}

std::int64_t epochOf(std::tm tm) { return static_cast<std::int64_t>(timegm(&tm)) * kSecond; }

}  // namespace

const std::vector<Nanos>& timelineTickSteps() {
    static const std::vector<Nanos> steps = {
        10 * kMicrosecond, 20 * kMicrosecond, 50 * kMicrosecond, 100 * kMicrosecond, 200 * kMicrosecond, 500 * kMicrosecond,
        kMillisecond, 2 * kMillisecond, 5 * kMillisecond, 10 * kMillisecond, 20 * kMillisecond, 50 * kMillisecond,
        100 * kMillisecond, 200 * kMillisecond, 500 * kMillisecond, kSecond, 2 * kSecond, 5 * kSecond, 10 * kSecond,
        30 * kSecond, kMinute, 2 * kMinute, 5 * kMinute, 10 * kMinute, 30 * kMinute, kHour, 2 * kHour, 3 * kHour, 6 * kHour,
        12 * kHour, kDay, 2 * kDay, 7 * kDay, 14 * kDay, kMonth, 3 * kMonth, 6 * kMonth, kYear, 2 * kYear, 5 * kYear, 10 * kYear};
    return steps;
}

std::string timelineTickLabel(std::int64_t startEpochNs, Nanos t, Nanos step) {
    const std::int64_t abs = startEpochNs + t;
    const std::tm tm = utc(abs);
    char buf[64];
    if (step >= kYear) std::strftime(buf, sizeof buf, "%Y", &tm);
    else if (step >= kMonth) std::strftime(buf, sizeof buf, "%Y %b", &tm);
    else if (step >= kDay) std::strftime(buf, sizeof buf, "%b %d", &tm);
    else if (step >= kMinute) std::strftime(buf, sizeof buf, "%b %d %H:%M", &tm);
    else std::strftime(buf, sizeof buf, "%H:%M:%S", &tm);
    std::string out = buf;
    const std::int64_t sub = ((abs % kSecond) + kSecond) % kSecond;
    if (step < kMillisecond) {
        std::snprintf(buf, sizeof buf, ".%06lld", static_cast<long long>(sub / kMicrosecond));
        out += buf;
    } else if (step < kSecond) {
        std::snprintf(buf, sizeof buf, ".%03lld", static_cast<long long>(sub / kMillisecond));
        out += buf;
    }
    return out;
}

Nanos chooseTimelineTick(double pixelsPerNano, const std::function<double(Nanos)>& labelWidth) {
    for (Nanos step : timelineTickSteps())
        if (static_cast<double>(step) * pixelsPerNano >= labelWidth(step) + 18.0) return step;
    return timelineTickSteps().back();
}

Nanos firstTickAtOrAfter(std::int64_t startEpochNs, Nanos t, Nanos step) {
    if (step < kDay) {
        // Round in absolute time, so ticks fall on whole seconds, minutes and hours of the clock.
        const std::int64_t abs = startEpochNs + t;
        const std::int64_t rem = ((abs % step) + step) % step;
        return rem == 0 ? t : t + (step - rem);
    }
    if (step < kMonth) {
        const std::int64_t abs = startEpochNs + t;
        const std::int64_t rem = ((abs % kDay) + kDay) % kDay;
        Nanos tick = rem == 0 ? t : t + (kDay - rem);
        // Whole weeks and fortnights from the first midnight: good enough for a ruler.
        return tick;
    }
    std::tm tm = utc(startEpochNs + t);
    const int months = step >= kYear ? 12 * static_cast<int>(step / kYear) : static_cast<int>(step / kMonth);
    std::tm first{};
    first.tm_year = tm.tm_year;
    first.tm_mon = step >= kYear ? 0 : tm.tm_mon / months * months;
    first.tm_mday = 1;
    if (step >= kYear) first.tm_year = tm.tm_year / (months / 12) * (months / 12);
    Nanos tick = epochOf(first) - startEpochNs;
    while (tick < t) tick = nextTick(startEpochNs, tick, step);
    return tick;
}

Nanos nextTick(std::int64_t startEpochNs, Nanos t, Nanos step) {
    if (step < kMonth) return t + step;
    std::tm tm = utc(startEpochNs + t);
    const int months = step >= kYear ? 12 * static_cast<int>(step / kYear) : static_cast<int>(step / kMonth);
    tm.tm_mon += months;
    tm.tm_mday = 1;
    tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
    return epochOf(tm) - startEpochNs;
}

}  // namespace faultline
