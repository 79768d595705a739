#pragma once
// The corpus of failed jobs' logs (tests/data/importers/corpus, issue #36) and its truth: one
// row per event a file holds, as the file says it (truth.tsv), matched against what an import
// of the file gives. Shared by the corpus test and the recognition benchmark, so that both
// count the same thing. Header-only: it names importers/ and is for what links them.
//
// truth.tsv, tab-separated, '#' lines are comments:
//   file  kind  rank  host  time  note
// - kind: a failure's root cause as the run file keys it ("nccl_watchdog_timeout",
//   "software_bug", "faulty_gpu", ...); "~KIND": a failure of that cause is allowed but not
//   required (a file says it in two ways); "none": the file holds no failure.
// - rank: a rank the failure names (among its reporting or suspect ranks), or "-".
// - host: a host the failure's GPU, host or NIC is on, or "-".
// - time: "2024-06-03T07:12:41Z" (the second the file gives), or "-" when it gives none.
// - note: free text; "known-miss: why" marks a row the readers do not find yet (counted a miss).
#include "importers/importer.h"

#include "model/root_cause.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace faultline::test {

struct TruthRow {
    std::string file, kind, rank, host, time, note;
    int line = 0;  // in truth.tsv
    bool optional() const { return !kind.empty() && kind[0] == '~'; }
    bool none() const { return kind == "none"; }
    bool knownMiss() const { return note.rfind("known-miss:", 0) == 0; }
    std::string causeKey() const { return optional() ? kind.substr(1) : kind; }
};

// The rows of a truth table, by file in table order; an unreadable row throws naming its line.
inline std::map<std::string, std::vector<TruthRow>> readTruth(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot be read");
    std::map<std::string, std::vector<TruthRow>> out;
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> cells;
        std::stringstream s(line);
        for (std::string cell; std::getline(s, cell, '\t');) cells.push_back(cell);
        if (cells.size() < 5) throw std::runtime_error(path + ":" + std::to_string(n) + ": expected file, kind, rank, host, time[, note]");
        TruthRow row{cells[0], cells[1], cells[2], cells[3], cells[4], cells.size() > 5 ? cells[5] : "", n};
        if (!row.none() && !rootCauseFromKey(row.causeKey()))
            throw std::runtime_error(path + ":" + std::to_string(n) + ": unknown kind '" + row.kind + "'");
        out[row.file].push_back(row);
    }
    return out;
}

// "2024-06-03T07:12:41Z" as whole seconds since the epoch; -1 when it is no such time.
inline std::int64_t truthSecond(const std::string& iso) {
    int y, mo, d, h, mi, s;
    if (std::sscanf(iso.c_str(), "%4d-%2d-%2dT%2d:%2d:%2dZ", &y, &mo, &d, &h, &mi, &s) != 6) return -1;
    const std::chrono::sys_days day{std::chrono::year{y} / mo / d};
    return std::chrono::duration_cast<std::chrono::seconds>(day.time_since_epoch()).count() + h * 3600 + mi * 60 + s;
}

// The hosts a failure is on: its component's, and its GPUs'.
inline std::set<std::string> failureHosts(const Run& run, const Failure& f) {
    std::set<std::string> out;
    const Topology& t = run.topology;
    const auto host = [&](std::int32_t h) {
        if (h >= 0 && static_cast<std::size_t>(h) < t.hosts.size()) out.insert(t.hosts[static_cast<std::size_t>(h)].name);
    };
    const auto gpu = [&](std::int32_t g) {
        if (g >= 0 && static_cast<std::size_t>(g) < t.gpus.size()) host(t.gpus[static_cast<std::size_t>(g)].host);
    };
    if (f.component.kind == ComponentKind::Gpu) gpu(f.component.index);
    if (f.component.kind == ComponentKind::Host) host(f.component.index);
    if (f.component.kind == ComponentKind::Nic && f.component.index >= 0 && static_cast<std::size_t>(f.component.index) < t.nics.size())
        host(t.nics[static_cast<std::size_t>(f.component.index)].host);
    for (std::int32_t g : f.gpus) gpu(g);
    return out;
}

// What in `row` the failure does not give, "" when it gives it all.
inline std::string mismatch(const ImportResult& r, const Failure& f, const TruthRow& row) {
    if (rootCauseKey(f.cause) != row.causeKey()) return "kind " + std::string(rootCauseKey(f.cause));
    if (row.rank != "-") {
        const std::int32_t rank = std::stoi(row.rank);
        if (std::find(f.ranks.begin(), f.ranks.end(), rank) == f.ranks.end() &&
            std::find(f.suspectRanks.begin(), f.suspectRanks.end(), rank) == f.suspectRanks.end())
            return "rank " + row.rank + " not named";
    }
    if (row.host != "-" && !failureHosts(r.run, f).count(row.host)) return "host " + row.host + " not the failure's";
    if (row.time != "-") {
        const EpochNs at = r.run.info.startEpochNs + f.time;
        const std::int64_t second = at >= 0 ? at / 1'000'000'000 : (at - 999'999'999) / 1'000'000'000;
        if (second != truthSecond(row.time)) return "time " + formatEpochNs(at);
    }
    return {};
}

struct FileVerdict {
    std::vector<const TruthRow*> found, missed;  // required rows (known misses among missed)
    std::vector<std::string> unexpected;         // failures no row of the file allows
    std::string why;                             // per missed row, what the nearest failure gave
};

inline FileVerdict judge(const ImportResult& r, const std::vector<TruthRow>& rows) {
    FileVerdict v;
    for (const TruthRow& row : rows) {
        if (row.none() || row.optional()) continue;
        std::string nearest = "no failure of that kind";
        bool ok = false;
        for (const Failure& f : r.run.failures) {
            const std::string m = mismatch(r, f, row);
            if (m.empty()) ok = true;
            else if (rootCauseKey(f.cause) == row.causeKey()) nearest = m;
        }
        (ok ? v.found : v.missed).push_back(&row);
        if (!ok) v.why += "  row " + std::to_string(row.line) + " " + row.kind + " rank " + row.rank + " host " + row.host + " time " + row.time + ": " + nearest + "\n";
    }
    std::set<std::string> allowed;
    for (const TruthRow& row : rows)
        if (!row.none()) allowed.insert(row.causeKey());
    for (const Failure& f : r.run.failures)
        if (!allowed.count(std::string(rootCauseKey(f.cause)))) v.unexpected.push_back(std::string(rootCauseKey(f.cause)) + ": " + f.detail);
    return v;
}

// Imports one corpus file as anyone who cloned the project would: a copy with a fixed
// modification time (2025-01-01), so that a yearless date resolves to 2024 and a line with no
// time at all is placed at that instant. `scratch`: a folder for the copy.
inline ImportResult importCorpusFile(const std::string& path, const std::string& scratch, EpochNs& written) {
    namespace fs = std::filesystem;
    const fs::path copy = fs::path(scratch) / fs::path(path).filename();
    fs::copy_file(path, copy, fs::copy_options::overwrite_existing);
    const std::chrono::sys_seconds newYear{std::chrono::sys_days{std::chrono::year{2025} / 1 / 1}};
    fs::last_write_time(copy, std::chrono::file_clock::from_sys(newYear));
    written = newYear.time_since_epoch().count() * 1'000'000'000;
    ImportResult r = importFiles({copy.string()}, ImportOptions{});
    fs::remove(copy);
    return r;
}

}  // namespace faultline::test
