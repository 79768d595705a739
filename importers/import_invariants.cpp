#include "importers/import_invariants.h"

#include "importers/text/text_parse.h"
#include "model/time_notes.h"

#include <algorithm>
#include <ctime>
#include <set>

#include <sys/stat.h>

namespace faultline {

namespace {

constexpr EpochNs kInvariantSecondNs = 1'000'000'000;

// The same day and time of day a year earlier (29 February becomes 28 February).
EpochNs yearBefore(EpochNs t) {
    const auto secs = static_cast<std::time_t>(t / kInvariantSecondNs);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    const std::int64_t year = tm.tm_year + 1900 - 1;
    const auto month = static_cast<unsigned>(tm.tm_mon + 1);
    auto day = static_cast<unsigned>(tm.tm_mday);
    if (month == 2 && day == 29) day = 28;
    const std::int64_t days = daysFromCivil(year, month, day);
    const std::int64_t secondOfDay = tm.tm_hour * 3600LL + tm.tm_min * 60LL + tm.tm_sec;
    return (days * 86400 + secondOfDay) * kInvariantSecondNs + t % kInvariantSecondNs;
}

// The files' notes say when a reader gave yearless dates a year (year_resolver.cpp); a year
// the user named with --year is theirs to keep.
bool yearAssumed(const FileReport& report) {
    return std::any_of(report.notes.begin(), report.notes.end(), [](const std::string& n) {
        return n.rfind("times without a year took", 0) == 0 && n.find("as --year says") == std::string::npos;
    });
}

struct Bounds {
    EpochNs latest = 0;  // 0: no upper bound known
    bool yearless = false;

    bool ok(EpochNs t) const { return t >= kEarliestPlausibleTime && (latest == 0 || t <= latest); }
    // The time moved back a year at a time while it lies after the files were written, when
    // the file's year was assumed; else nullopt.
    std::optional<EpochNs> reResolved(EpochNs t) const {
        if (!yearless || latest == 0 || t <= latest) return std::nullopt;
        for (int i = 0; i < 2 && t > latest; ++i) t = yearBefore(t);
        return ok(t) ? std::optional<EpochNs>(t) : std::nullopt;
    }
};

struct Tally {
    std::int64_t moved = 0, undated = 0, dropped = 0, cleared = 0;
    EpochNs firstBad = 0;
    void bad(EpochNs t) {
        if (firstBad == 0) firstBad = t;
    }
};

// A time that breaks the bounds, re-resolved where it can be; false: it cannot.
bool fix(EpochNs& t, const Bounds& b, Tally& tally) {
    if (t == 0 || b.ok(t)) return true;
    tally.bad(t);
    if (auto moved = b.reResolved(t)) {
        t = *moved;
        ++tally.moved;
        return true;
    }
    return false;
}

template <typename T, typename Pred>
void dropIf(std::vector<T>& v, Pred bad, Tally& tally) {
    const auto before = v.size();
    v.erase(std::remove_if(v.begin(), v.end(), bad), v.end());
    tally.dropped += static_cast<std::int64_t>(before - v.size());
}

// The span of the events the file keeps, for the report and for undated failures' place.
void recomputeSpan(const ImportedEvents& e, FileReport& report) {
    EpochNs first = 0, last = 0;
    auto see = [&](EpochNs t) {
        if (t <= 0) return;
        if (first == 0 || t < first) first = t;
        last = std::max(last, t);
    };
    for (const auto& f : e.failures)
        if (!f.sinceBoot && !f.timeInferred) see(f.time);
    for (const auto& c : e.collectives) see(c.enter), see(c.exit);
    for (const auto& s : e.steps) see(s.end);
    for (const auto& c : e.checkpoints) see(c.begin), see(c.end);
    for (const auto& j : e.jobs) see(j.submit), see(j.start), see(j.end), see(j.firstLogLine);
    for (const auto& r : e.inJobRestarts) see(r.time);
    if (e.telemetry.samples() > 0) see(e.telemetry.earliest()), see(e.telemetry.latest());
    if (e.linkCounters.samples() > 0) see(e.linkCounters.earliest()), see(e.linkCounters.latest());
    report.first = first;
    report.last = last;
}

std::string noteText(const Tally& t, const Bounds& b) {
    std::string out = "times outside 1990.." + (b.latest ? formatEpochNs(b.latest) + " (when the files were last written)" : std::string("now")) +
                      " (the first: " + formatEpochNs(t.firstBad) + ")";
    std::string what;
    auto add = [&what](std::int64_t n, const std::string& text) {
        if (n > 0) what += (what.empty() ? "" : "; ") + std::to_string(n) + " " + text;
    };
    add(t.moved, "moved to the year before (their dates have no year)");
    add(t.undated, "failure(s) kept as undated, placed at the end of the file's span");
    add(t.cleared, "job time(s) left unknown");
    add(t.dropped, "event(s) left out (steps, collectives, checkpoints or restarts)");
    return out + ": " + what;
}

}  // namespace

EpochNs fileWriteTime(const std::string& path) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) return 0;
    return static_cast<EpochNs>(st.st_mtim.tv_sec) * kInvariantSecondNs + st.st_mtim.tv_nsec;
}

void enforceTimeBounds(ImportedEvents& e, FileReport& report, EpochNs newestWrite) {
    const Bounds b{newestWrite > 0 ? newestWrite + kLocalTimeSlackNs : 0, yearAssumed(report)};
    Tally tally;
    std::vector<std::size_t> undated;
    for (std::size_t i = 0; i < e.failures.size(); ++i) {
        ImportedFailure& f = e.failures[i];
        if (f.sinceBoot) continue;
        if (!fix(f.time, b, tally)) undated.push_back(i);
    }
    dropIf(e.collectives, [&](ImportedCollective& c) { return !fix(c.enter, b, tally) || !fix(c.exit, b, tally); }, tally);
    dropIf(e.steps, [&](ImportedStep& s) { return !fix(s.end, b, tally); }, tally);
    dropIf(e.checkpoints, [&](ImportedCheckpoint& c) { return !fix(c.begin, b, tally) || !fix(c.end, b, tally); }, tally);
    dropIf(e.inJobRestarts, [&](InJobRestart& r) { return !fix(r.time, b, tally); }, tally);
    for (ImportedJob& j : e.jobs)
        for (EpochNs* t : {&j.submit, &j.start, &j.end, &j.firstLogLine})
            if (!fix(*t, b, tally)) *t = 0, ++tally.cleared;
    if (tally.firstBad == 0) return;

    // The span is the file's good times only: an undated failure's own time is what broke it.
    for (std::size_t i : undated) e.failures[i].timeInferred = true;
    recomputeSpan(e, report);
    // An undated failure still happened: at the end of what the file tells, else when it was
    // written, with its own time kept in its words.
    const EpochNs place = report.last > 0 ? report.last : newestWrite;
    for (std::size_t i : undated) {
        ImportedFailure& f = e.failures[i];
        f.detail += std::string(kUndatedMark) + "its time " + formatEpochNs(f.time) + " lies " + (f.time < kEarliestPlausibleTime ? "before 1990" : "after the files were written") +
                    "; placed at the end of the file's span)";
        f.time = place;
        ++tally.undated;
    }
    if (report.first == 0 && place > 0) report.first = report.last = place;
    report.notes.push_back(noteText(tally, b));
}

bool withinTimeBounds(const ImportedEvents& e, EpochNs newestWrite) {
    const Bounds b{newestWrite > 0 ? newestWrite + kLocalTimeSlackNs : 0, false};
    auto ok = [&b](EpochNs t) { return t == 0 || b.ok(t); };
    auto all = [](const auto& items, auto within) { return std::all_of(items.begin(), items.end(), within); };
    return all(e.failures, [&](const ImportedFailure& f) { return f.sinceBoot || ok(f.time); }) &&
           all(e.collectives, [&](const ImportedCollective& c) { return ok(c.enter) && ok(c.exit); }) &&
           all(e.steps, [&](const ImportedStep& s) { return ok(s.end); }) &&
           all(e.checkpoints, [&](const ImportedCheckpoint& c) { return ok(c.begin) && ok(c.end); }) &&
           all(e.inJobRestarts, [&](const InJobRestart& r) { return ok(r.time); }) &&
           all(e.jobs, [&](const ImportedJob& j) { return ok(j.submit) && ok(j.start) && ok(j.end) && ok(j.firstLogLine); });
}

std::vector<std::string> nameSilentRanks(ImportedEvents& e, std::int32_t worldSize) {
    std::vector<std::string> notes;
    for (ImportedFailure& f : e.failures) {
        if (f.cause != RootCause::NcclWatchdogTimeout || f.ranks.empty() || !f.job.empty() || !f.hosts.empty()) continue;
        const std::set<std::int32_t> reporters(f.ranks.begin(), f.ranks.end());
        // Ranks count from 0: every rank below the highest reporter is in the world.
        const std::int32_t implied = *reporters.rbegin() + 1;
        const std::int32_t world = worldSize > 0 ? std::max(worldSize, implied) : std::max(f.world, implied);
        std::set<std::int32_t> suspects(f.suspectRanks.begin(), f.suspectRanks.end());
        std::vector<std::int32_t> added;
        // Below the highest reporter a silent rank is certain to be in the group; above it only
        // a stated world says so, and then only when most of it reported (a few reporters of a
        // big world say little about the rest).
        const bool mostReported = static_cast<std::int32_t>(reporters.size()) * 2 >= world;
        for (std::int32_t r = 0; r < world; ++r)
            if (!reporters.count(r) && !suspects.count(r) && (r < implied || mostReported)) added.push_back(r);
        f.world = world;
        if (added.empty()) continue;
        suspects.insert(added.begin(), added.end());
        f.suspectRanks.assign(suspects.begin(), suspects.end());
        std::string list;
        for (std::int32_t r : added) list += (list.empty() ? "" : ",") + std::to_string(r);
        f.detail += "; silent rank(s) " + list + " of " + std::to_string(world) + " are suspects (they did not report the timeout)";
        notes.push_back(f.source + ": the timeout reported by " + std::to_string(reporters.size()) + " rank(s) names silent rank(s) " + list +
                        " as suspects (world of " + std::to_string(world) + (worldSize > 0 ? ", as --world-size says)" : ", from the ranks that reported)"));
    }
    return notes;
}

}  // namespace faultline
