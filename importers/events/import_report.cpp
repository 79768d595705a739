#include "importers/events/import_report.h"

#include "model/format.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <ctime>

namespace faultline {

namespace {
constexpr std::size_t kKeptWarnings = 5;

std::string rankList(const std::set<std::int32_t>& ranks) {
    // Runs of consecutive ranks collapse to "a-b", so 1,024 ranks print as "0-1023".
    std::string out;
    auto it = ranks.begin();
    while (it != ranks.end()) {
        std::int32_t lo = *it, hi = *it;
        for (++it; it != ranks.end() && *it == hi + 1; ++it) hi = *it;
        if (!out.empty()) out += ",";
        out += lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi);
    }
    return out;
}
}  // namespace

void FileReport::seen(EpochNs t) {
    if (first == 0 || t < first) first = t;
    if (last == 0 || t > last) last = t;
}

void FileReport::skip(const std::string& message) {
    ++skippedLines;
    if (warnings.size() < kKeptWarnings) warnings.push_back(message);
}

std::string formatEpochNs(EpochNs t) {
    std::time_t secs = static_cast<std::time_t>(t / 1'000'000'000);
    std::int64_t frac = t % 1'000'000'000;
    if (frac < 0) {
        frac += 1'000'000'000;
        --secs;
    }
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06lldZ", tm.tm_year + 1900, tm.tm_mon + 1,
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<long long>(frac / 1000));
    return buf;
}

namespace {

void fileToText(const FileReport& f, std::string& out) {
    out += f.path + "\n  format: " + f.format + "\n";
        if (f.counts.empty()) out += "  no events\n";
        for (const auto& [kind, n] : f.counts) out += "  " + kind + ": " + std::to_string(n) + "\n";
        if (f.first != 0) out += "  time: " + formatEpochNs(f.first) + " .. " + formatEpochNs(f.last) + "\n";
        if (!f.ranks.empty()) out += "  ranks: " + rankList(f.ranks) + "\n";
        if (f.linesRead > 0) {
            out += "  lines: " + std::to_string(f.linesRead) + " read, " + std::to_string(f.linesUnderstood) + " understood (" +
                   std::to_string(f.linesUnderstood * 100 / f.linesRead) + "%)";
            std::string kinds;
            for (const auto& [kind, n] : f.understoodByKind) kinds += (kinds.empty() ? "" : ", ") + kind + " " + std::to_string(n);
            out += (kinds.empty() ? std::string() : ": " + kinds) + "\n";
            if (!f.unrecognised.empty()) out += "  not recognised (first " + std::to_string(f.unrecognised.size()) + "):\n";
            for (const std::string& u : f.unrecognised) out += "    " + u + "\n";
        }
        for (const std::string& n : f.notes) out += "  note: " + n + "\n";
        if (f.skippedLines > 0) out += "  skipped " + std::to_string(f.skippedLines) + " bad line(s)\n";
        for (const std::string& w : f.warnings) out += "  ! " + w + "\n";
}

// A folder of thousands of files: one paragraph per format (its files, events and first few
// names), then in full only the files that have something to say (notes, skipped lines), up
// to kListedFiles of them. A million files printed three million lines.
void foldedFilesToText(const std::vector<FileReport>& files, std::string& out) {
    struct Format {
        std::int64_t files = 0;
        std::map<std::string, std::int64_t> counts;
        std::vector<const std::string*> first;
    };
    std::map<std::string, Format> formats;
    std::vector<const FileReport*> remarkable;
    std::size_t moreRemarkable = 0;
    for (const FileReport& f : files) {
        Format& format = formats[f.format];
        ++format.files;
        for (const auto& [kind, n] : f.counts) format.counts[kind] += n;
        if (format.first.size() < kFirstNames) format.first.push_back(&f.path);
        if (f.notes.empty() && f.warnings.empty() && f.skippedLines == 0) continue;
        if (remarkable.size() < kListedFiles) remarkable.push_back(&f);
        else ++moreRemarkable;
    }
    out += formatCount(static_cast<std::int64_t>(files.size())) + " files:";
    bool firstFormat = true;
    for (const auto& [name, format] : formats) {
        out += std::string(firstFormat ? " " : ", ") + formatCount(format.files) + " " + name;
        firstFormat = false;
    }
    out += "\n";
    for (const auto& [name, format] : formats) {
        out += "  " + name + ": " + formatCounted(format.files, "file", "files");
        if (name == "unknown") out += ", not in a format Faultline reads, skipped";
        for (const auto& [kind, n] : format.counts) out += ", " + kind + " " + formatCount(n);
        out += "\n    first: ";
        for (std::size_t i = 0; i < format.first.size(); ++i) out += (i ? ", " : "") + *format.first[i];
        if (format.files > static_cast<std::int64_t>(format.first.size())) out += ", ...";
        out += "\n";
    }
    if (remarkable.empty()) return;
    out += "files with notes or skipped lines" + std::string(moreRemarkable ? " (the first " + std::to_string(kListedFiles) + ")" : "") + ":\n";
    for (const FileReport* f : remarkable) fileToText(*f, out);
    if (moreRemarkable) out += "... and " + formatCounted(static_cast<std::int64_t>(moreRemarkable), "more file", "more files") + " with notes or skipped lines (--json lists every file)\n";
}

}  // namespace

std::string importSummaryToText(const ImportSummary& summary) {
    std::string out;
    if (summary.files.size() > kListedFiles) foldedFilesToText(summary.files, out);
    else
        for (const FileReport& f : summary.files) fileToText(f, out);
    if (!summary.output.empty())
        out += "wrote " + summary.output + ": " + std::to_string(summary.hosts) + (summary.hosts == 1 ? " host, " : " hosts, ") +
               std::to_string(summary.gpus) + " GPUs" + (summary.derivedTopology ? " (topology derived from the files)" : "") +
               "\n";
    if (summary.runJobs > 0)
        out += "the run: " + std::to_string(summary.runJobs) + " jobs in its chain, " + std::to_string(summary.downtimes) + " downtimes between them (" +
               std::to_string(summary.plannedDowntimes) + " planned)\n";
    return out;
}

nlohmann::json importSummaryToJson(const ImportSummary& summary) {
    nlohmann::json files = nlohmann::json::array();
    for (const FileReport& f : summary.files) {
        nlohmann::json j;
        j["path"] = f.path;
        j["format"] = f.format;
        j["counts"] = f.counts;
        if (f.first != 0) {
            j["first"] = formatEpochNs(f.first);
            j["last"] = formatEpochNs(f.last);
            j["first_epoch_ns"] = f.first;
            j["last_epoch_ns"] = f.last;
        }
        j["ranks"] = std::vector<std::int32_t>(f.ranks.begin(), f.ranks.end());
        j["skipped_lines"] = f.skippedLines;
        j["warnings"] = f.warnings;
        if (f.linesRead > 0) {
            j["lines_read"] = f.linesRead;
            j["lines_understood"] = f.linesUnderstood;
            j["understood_by_kind"] = f.understoodByKind;
            j["unrecognised_lines"] = f.unrecognised;
        }
        if (!f.notes.empty()) j["notes"] = f.notes;
        files.push_back(std::move(j));
    }
    return {{"files", files},
            {"output", summary.output},
            {"hosts", summary.hosts},
            {"gpus", summary.gpus},
            {"derived_topology", summary.derivedTopology},
            {"run_jobs", summary.runJobs},
            {"downtimes", summary.downtimes},
            {"planned_downtimes", summary.plannedDowntimes}};
}

}  // namespace faultline
