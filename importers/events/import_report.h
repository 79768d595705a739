#pragma once
// What one import read, per file: its format, how many events of each kind, the time span,
// the ranks it covers, and the lines it had to skip. Printed by `faultline-cli import` and
// shown by the app, from this one structure.
#include "importers/events/imported_events.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace faultline {

struct FileReport {
    std::string path;
    std::string format;                          // format name, see formats.h
    std::map<std::string, std::int64_t> counts;  // "collectives", "failures", "steps", ...
    EpochNs first = 0;                           // earliest and latest event time; 0 when none
    EpochNs last = 0;
    EpochNs written = 0;                         // the file's modification time; 0 when unknown
    std::set<std::int32_t> ranks;
    std::int64_t skippedLines = 0;
    std::vector<std::string> warnings;           // the first few skipped lines, explained
    // Line-oriented logs: how many lines (not blank) were read, how many a catalogue entry
    // understood, and which kinds; the first few it did not, as "FILE:LINE: text".
    std::int64_t linesRead = 0;
    std::int64_t linesUnderstood = 0;
    std::map<std::string, std::int64_t> understoodByKind;
    std::vector<std::string> unrecognised;
    std::vector<std::string> notes;              // what the import assumed ("times without a year took 2025 ...")

    void count(const std::string& kind, std::int64_t n = 1) { counts[kind] += n; }
    void seen(EpochNs t);
    // Records a bad line that was skipped; keeps the first few messages.
    void skip(const std::string& message);
};

struct ImportSummary {
    std::vector<FileReport> files;
    std::string output;  // the run file written
    std::size_t hosts = 0;
    std::size_t gpus = 0;
    bool derivedTopology = false;
    // The jobs that trained the run (its chain) and the downtimes between them; 0 without a chain.
    std::size_t runJobs = 0;
    std::size_t downtimes = 0, plannedDowntimes = 0;
};

// Beyond kListedFiles files the text is summarised per format (counts, the first
// kFirstNames names), and only files with notes or skipped lines are shown in full.
inline constexpr std::size_t kListedFiles = 50;
inline constexpr std::size_t kFirstNames = 3;
std::string importSummaryToText(const ImportSummary& summary);
nlohmann::json importSummaryToJson(const ImportSummary& summary);

// "2025-01-21T04:41:44.283302Z"
std::string formatEpochNs(EpochNs t);

}  // namespace faultline
