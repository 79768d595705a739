#pragma once
// Logs that leave the year out (glog's "E0610 03:10:05.123456", syslog's "Jun 10 03:10:05"):
// which year to give them. A year the user named wins; else the year that puts the line
// nearest the log's own dated lines; else the latest year that puts it at or before the
// file's modification time: a log cannot speak of moments after it was last written.
#include "importers/events/imported_events.h"

#include <optional>
#include <set>
#include <string>

namespace faultline {

class YearResolver {
public:
    // `forcedYear` > 0: --year. `fileTime`: the file's modification time, when known.
    YearResolver(int forcedYear, std::optional<EpochNs> fileTime);

    // The log printed a full date: later yearless lines are placed near it.
    void noteDated(EpochNs t) {
        m_lastDated = t;
        m_printed = true;
    }
    // A yearless line's time as resolved: later ones are placed near it (a log that runs over
    // New Year goes on into the next), but its year is still the one assumed.
    void noteResolved(EpochNs t) { m_lastDated = t; }
    // The log's first full date came after yearless times that took an assumed year: they were
    // moved to the log's year (see sameDayNearest), so no assumption is left to report.
    void forgetAssumed() {
        m_years.clear();
        m_byFile = m_byClock = false;
    }
    // A time of day on a month and day of an unsaid year.
    EpochNs resolve(unsigned month, unsigned day, std::int64_t secondOfDay, std::int64_t fracNs = 0);

    // The years assumed so far (empty when no line needed one) and what they were judged by.
    const std::set<int>& assumedYears() const { return m_years; }
    // "assumed year 2025 for yearless times (at or before the file's modification time ...)".
    std::string describe() const;
    int forcedYear() const { return m_forcedYear; }
    // The file was written to since: yearless times read from now on are placed at or before
    // its new modification time.
    void setFileTime(std::optional<EpochNs> fileTime) { m_fileTime = fileTime; }
    // A yearless time resolved now takes its year from a full date the log printed.
    bool yearFromLog() const { return m_printed; }

private:
    int m_forcedYear = 0;
    std::optional<EpochNs> m_fileTime;
    std::optional<EpochNs> m_lastDated;
    bool m_printed = false;  // m_lastDated is, or follows, a full date the log printed
    std::set<int> m_years;
    bool m_byLog = false, m_byFile = false, m_byClock = false;
};

// The modification time of `path`, nullopt when it cannot be read.
std::optional<EpochNs> fileModificationTime(const std::string& path);
int utcYearOf(EpochNs t);
// `t`'s month, day and time of day in the year that puts it nearest `reference`.
EpochNs sameDayNearest(EpochNs t, EpochNs reference);

}  // namespace faultline
