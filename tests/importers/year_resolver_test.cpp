// importers/text/year_resolver.h on its own: the year given to a log's yearless times (glog's
// "E0610 03:10:05", syslog's "Jun 10 03:10:05"), by --year, by the log's own dated lines, or
// by the file's modification time, and what the import report says of it.
#include "import_test_util.h"

#include "importers/events/import_report.h"
#include "importers/text/text_parse.h"
#include "importers/text/year_resolver.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <fstream>

namespace faultline {
namespace {

using test::ScratchDir;

constexpr std::int64_t kHourS = 3600;

EpochNs at(int year, unsigned month, unsigned day, std::int64_t secondOfDay) { return epochFromCivil(year, month, day, secondOfDay); }

TEST(YearResolver, TheYearTheUserNamedWins) {
    YearResolver years(2019, at(2024, 3, 1, 0));
    years.noteDated(at(2023, 6, 1, 0));  // neither the log's dates nor the file's time move it
    EXPECT_EQ(years.resolve(6, 10, 3 * kHourS + 10 * 60 + 5, 123'000), at(2019, 6, 10, 3 * kHourS + 10 * 60 + 5) + 123'000);
    EXPECT_EQ(years.assumedYears(), (std::set<int>{2019}));
    EXPECT_EQ(years.forcedYear(), 2019);
    EXPECT_EQ(years.describe(), "times without a year took 2019 (as --year says; pass --year to set it)");
}

// "year assumed" is said only where nothing printed the year: a full date earlier in the log
// gives its yearless lines their year as surely as --year does.
TEST(YearResolver, AYearIsFromTheLogOnceTheLogPrintedAFullDate) {
    YearResolver years(0, at(2030, 1, 1, 0));
    EXPECT_FALSE(years.yearFromLog());  // only the file's time to go by: the year is assumed
    years.noteDated(at(2025, 6, 10, 3 * kHourS));
    EXPECT_TRUE(years.yearFromLog());
    EXPECT_EQ(years.resolve(6, 10, 3 * kHourS + 5), at(2025, 6, 10, 3 * kHourS + 5));
}

// A log that crosses New Year's midnight: a yearless line is placed nearest the last dated
// line, so 31 Dec stays in the old year and 1 Jan goes to the new one.
TEST(YearResolver, YearlessLinesAcrossANewYearFollowTheLogsOwnDates) {
    YearResolver years(0, at(2030, 1, 1, 0));  // the file's time is no help: long after
    years.noteDated(at(2023, 12, 31, 23 * kHourS + 59 * 60 + 50));
    EXPECT_EQ(years.resolve(12, 31, 23 * kHourS + 59 * 60 + 55), at(2023, 12, 31, 23 * kHourS + 59 * 60 + 55));
    EXPECT_EQ(years.resolve(1, 1, 5), at(2024, 1, 1, 5));
    // After a dated line of the new year, a late line of 31 Dec belongs to the year before.
    years.noteDated(at(2024, 1, 1, 10));
    EXPECT_EQ(years.resolve(12, 31, 23 * kHourS + 59 * 60 + 59), at(2023, 12, 31, 23 * kHourS + 59 * 60 + 59));
    EXPECT_EQ(years.resolve(1, 1, 20), at(2024, 1, 1, 20));
    EXPECT_EQ(years.assumedYears(), (std::set<int>{2023, 2024}));
    EXPECT_EQ(years.describe(), "times without a year took 2023, 2024 (nearest the log's own dated lines; pass --year to set it)");
}

// Without dated lines, the latest year that puts a line at or before the file's modification
// time: a log written until 2 Jan 2024 speaks of 31 Dec 2023 and 1 Jan 2024, and of a June
// in 2023, not in the months after it was last written.
TEST(YearResolver, WithoutDatedLinesTheFilesModificationTimeBoundsTheYear) {
    const EpochNs mtime = at(2024, 1, 2, 12 * kHourS);
    YearResolver years(0, mtime);
    EXPECT_EQ(years.resolve(12, 31, 23 * kHourS), at(2023, 12, 31, 23 * kHourS));
    EXPECT_EQ(years.resolve(1, 1, kHourS), at(2024, 1, 1, kHourS));
    EXPECT_EQ(years.resolve(6, 10, 0), at(2023, 6, 10, 0));
    // At the very moment of the last write is still before it; a second later is not.
    EXPECT_EQ(years.resolve(1, 2, 12 * kHourS), mtime);
    EXPECT_EQ(years.resolve(1, 2, 12 * kHourS + 1), at(2023, 1, 2, 12 * kHourS + 1));
    EXPECT_EQ(years.assumedYears(), (std::set<int>{2023, 2024}));
    EXPECT_EQ(years.describe(), "times without a year took 2023, 2024 (at or before the file's modification time " + formatEpochNs(mtime) +
                                    "; pass --year to set it)");
}

TEST(YearResolver, TheTwentyNinthOfFebruaryIsLookedForInALeapYear) {
    YearResolver years(0, at(2026, 6, 1, 0));
    EXPECT_EQ(years.resolve(2, 29, 60), at(2024, 2, 29, 60));
    EXPECT_EQ(years.assumedYears(), (std::set<int>{2024}));
}

TEST(YearResolver, WithoutTheFilesTimeTheClockBoundsItAndTheReportSaysSo) {
    YearResolver years(0, std::nullopt);
    const EpochNs t = years.resolve(1, 1, 0);
    EXPECT_LE(t, static_cast<EpochNs>(std::time(nullptr)) * 1'000'000'000);
    EXPECT_GT(t, static_cast<EpochNs>(std::time(nullptr)) * 1'000'000'000 - 366 * 24 * kHourS * 1'000'000'000);
    EXPECT_NE(years.describe().find("at or before now (the file's modification time is unknown)"), std::string::npos) << years.describe();
}

TEST(YearResolver, NoYearlessLineSaysNothing) {
    YearResolver years(0, at(2024, 1, 2, 0));
    years.noteDated(at(2023, 5, 1, 0));
    EXPECT_TRUE(years.assumedYears().empty());
    EXPECT_EQ(years.describe(), "");
}

TEST(YearResolver, TheModificationTimeIsTheFilesToTheNanosecond) {
    ScratchDir dir;
    const std::string path = dir.file("node01.log");
    std::ofstream(path) << "Jun 10 03:10:05 node01 kernel: hello\n";
    const timespec times[2] = {{1704153600, 0}, {1704153600, 250'000'000}};  // 2024-01-02T00:00:00.25Z
    ASSERT_EQ(utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
    EXPECT_EQ(fileModificationTime(path), std::optional<EpochNs>(1704153600'250'000'000));
    EXPECT_EQ(fileModificationTime(dir.file("absent.log")), std::nullopt);
    EXPECT_EQ(utcYearOf(*fileModificationTime(path)), 2024);
    EXPECT_EQ(utcYearOf(at(2023, 12, 31, 24 * kHourS - 1)), 2023);
}

}  // namespace
}  // namespace faultline
