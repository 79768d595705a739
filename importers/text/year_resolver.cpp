#include "importers/text/year_resolver.h"

#include "importers/events/import_report.h"
#include "importers/text/text_parse.h"

#include <sys/stat.h>

#include <cstdlib>
#include <ctime>

namespace faultline {

int utcYearOf(EpochNs t) {
    const std::time_t secs = static_cast<std::time_t>(t / 1'000'000'000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    return tm.tm_year + 1900;
}

std::optional<EpochNs> fileModificationTime(const std::string& path) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    return static_cast<EpochNs>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
}

EpochNs sameDayNearest(EpochNs t, EpochNs reference) {
    const auto secs = static_cast<std::time_t>(t / 1'000'000'000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    const auto month = static_cast<unsigned>(tm.tm_mon + 1), day = static_cast<unsigned>(tm.tm_mday);
    const std::int64_t secondOfDay = tm.tm_hour * 3600LL + tm.tm_min * 60LL + tm.tm_sec;
    const EpochNs frac = t % 1'000'000'000;
    const int y = utcYearOf(reference);
    EpochNs best = t;
    for (int candidate : {y - 1, y, y + 1}) {
        const EpochNs c = epochFromCivil(candidate, month, day, secondOfDay, frac);
        if (std::llabs(c - reference) < std::llabs(best - reference)) best = c;
    }
    return best;
}

YearResolver::YearResolver(int forcedYear, std::optional<EpochNs> fileTime) : m_forcedYear(forcedYear), m_fileTime(fileTime) {}

EpochNs YearResolver::resolve(unsigned month, unsigned day, std::int64_t secondOfDay, std::int64_t fracNs) {
    if (m_forcedYear > 0) {
        m_years.insert(m_forcedYear);
        return epochFromCivil(m_forcedYear, month, day, secondOfDay, fracNs);
    }
    if (m_lastDated) {
        // Nearest to the log's own clock: a line just after New Year's midnight belongs to
        // the next year, one just before to the year of the clock.
        const int y = utcYearOf(*m_lastDated);
        int best = y;
        EpochNs bestGap = -1;
        for (int candidate : {y - 1, y, y + 1}) {
            const EpochNs t = epochFromCivil(candidate, month, day, secondOfDay, fracNs);
            const EpochNs gap = std::llabs(t - *m_lastDated);
            if (bestGap < 0 || gap < bestGap) {
                bestGap = gap;
                best = candidate;
            }
        }
        if (m_printed) m_byLog = true;  // else near the assumed year the chain began with, already said
        m_years.insert(best);
        return epochFromCivil(best, month, day, secondOfDay, fracNs);
    }
    const bool byFile = m_fileTime.has_value();
    const EpochNs reference = byFile ? *m_fileTime : static_cast<EpochNs>(std::time(nullptr)) * 1'000'000'000;
    (byFile ? m_byFile : m_byClock) = true;
    int year = utcYearOf(reference);
    // A day that does not exist in that year (29 Feb) is looked for in earlier years too.
    for (int tries = 0; tries < 8; ++tries, --year) {
        const EpochNs t = epochFromCivil(year, month, day, secondOfDay, fracNs);
        if (t <= reference && !(month == 2 && day == 29 && !(year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)))) {
            m_years.insert(year);
            return t;
        }
    }
    m_years.insert(year + 1);
    return epochFromCivil(year + 1, month, day, secondOfDay, fracNs);
}

std::string YearResolver::describe() const {
    if (m_years.empty()) return {};
    std::string years;
    for (int y : m_years) years += (years.empty() ? "" : ", ") + std::to_string(y);
    std::string why;
    if (m_forcedYear > 0) why = "as --year says";
    else {
        if (m_byLog) why = "nearest the log's own dated lines";
        if (m_byFile) why += std::string(why.empty() ? "" : "; ") + "at or before the file's modification time " + formatEpochNs(*m_fileTime);
        if (m_byClock) why += std::string(why.empty() ? "" : "; ") + "at or before now (the file's modification time is unknown)";
    }
    return "times without a year took " + years + " (" + why + "; pass --year to set it)";
}

}  // namespace faultline
